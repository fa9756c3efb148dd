// The command table: name, arity, flags, key positions and handler of every EMQ verb,
// the one list both hosts use (the module registers from it, the sim dispatches from it).
// Adding a verb is one entry here plus its handler under core/verbs/.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/args.h"
#include "core/host.h"
#include "core/reply.h"

namespace trafikey {

using Handler = Reply (*)(Host& host, Args argv);

// Which verb an entry is, for code that acts on the verb (the model's ledger) rather than
// run it: switch on this, never on the name's spelling or length. In table order.
enum class VerbId : std::uint8_t { add, claim, extend, extends, complete, fail, stalled_check, stats, job, epoch };

struct CommandSpec {
  VerbId id;
  std::string_view name;    // upper case, e.g. "EMQ.CLAIM"
  int arity_min;            // counting the verb itself
  int arity_max;
  bool writes;              // writers pass the fence and check write access
  std::string_view flags;   // module flags: "write deny-oom" or "readonly fast"
  int first_key, last_key, key_step;  // 1-based; the queue name routes the call
  Handler handler;
  std::string_view usage;   // one line, for --help and docs
};

std::span<const CommandSpec> command_table();

// Case-insensitive lookup; nullptr when the name is not an EMQ verb.
const CommandSpec* find_command(std::string_view name);

// Checks arity against the table, then runs the handler.
Reply execute(Host& host, const CommandSpec& spec, Args argv);

}  // namespace trafikey
