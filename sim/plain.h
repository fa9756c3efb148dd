// Plain commands a scenario may send besides the EMQ verbs (shared spec SCENARIO.md):
// HSET HGET HGETALL HDEL ZADD ZREM ZRANGE ZSCORE INCR SET DEL TYPE EXISTS, with the replies a
// RESP2 client sees from a real server, so scenarios can build rows as an older version
// or a script would have left them, and the differential check can compare replies.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/reply.h"

namespace trafikey::sim {

class SimServer;

bool is_plain_command(std::string_view name);
// Their names, upper case, in the table's order (for messages that list them).
std::vector<std::string> plain_command_names();
// std::nullopt when `argv[0]` is not a plain command.
std::optional<Reply> run_plain(SimServer& server, Args argv);

}  // namespace trafikey::sim
