// The exact error texts of shared spec EMQ §6. One builder per text, so every host and
// every test spells them the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/reply.h"

namespace trafikey::errors {

inline constexpr std::string_view wrong_arity = "ERR EMQ wrong number of arguments";
inline constexpr std::string_view syntax = "ERR EMQ syntax error";
inline constexpr std::string_view bad_queue = "ERR EMQ bad queue name";
inline constexpr std::string_view bad_job_id = "ERR EMQ bad job id";
inline constexpr std::string_view lease_range = "ERR EMQ lease out of range";
inline constexpr std::string_view host_call = "ERR EMQ host call failed";
inline constexpr std::string_view corrupt_row = "ERR EMQ corrupt job row";
inline constexpr std::string_view not_primary = "READONLY EMQ not a writable primary";
// The server's own text for a key of the wrong type (Valkey and Redis print the same).
inline constexpr std::string_view wrong_type =
    "WRONGTYPE Operation against a key holding the wrong kind of value";

inline Reply error(std::string_view text) { return Reply::error(text); }

// "ERR EMQ <arg> must be an integer in <lo>..<hi>"
Reply integer_range(std::string_view arg, std::int64_t lo, std::int64_t hi);

// "NOPERM EMQ no write access to <key>"
Reply no_write_access(std::string_view key);

}  // namespace trafikey::errors
