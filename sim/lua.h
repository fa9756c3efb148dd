// Scripting: EVAL, EVALSHA and SCRIPT on the simulated server, through an embedded Lua 5.1
// (Debian's liblua5.1, the Lua that Valkey and Redis embed), so the scripted executor
// (bench/scripts/*.lua) runs on the simulated keyspace as the very same files, not a port.
//
// What a script sees, as on a real server (Redis 7.0 / Valkey 8, RESP2):
//   KEYS, ARGV         tables of strings
//   redis.call(...)    one of the plain commands (sim/plain.h) or TIME (ScriptCommand: on
//                      the server, the same keyspace and write path — undo log,
//                      persistence — as any plain command);
//                      arguments that are Lua numbers become their Lua text ("%.14g").
//                      Replies: integer -> number, bulk -> string, nil -> false, array ->
//                      table, status -> {ok=...}; an error reply raises a Lua error that
//                      ends the script (writes made before it stay, as on a server).
//   redis.pcall(...)   the same, but an error reply comes back as {err=...}
//   redis.error_reply(s), redis.status_reply(s)   {err=s}, {ok=s}
//   TIME               the server clock: [seconds, microseconds] as bulk strings
// The script's return value becomes the reply: number -> integer (truncated), string ->
// bulk, true -> 1, false/nil -> nil, {err=s} -> error s, {ok=s} -> status s, any other
// table -> array of its items 1..n up to the first nil.
//
// Only the base, table, string and math libraries are open (no io, os or time), and each
// call runs in a fresh Lua state, so nothing a script does leaks into the next call and
// the simulation stays deterministic. The script cache (SCRIPT LOAD, EVALSHA) belongs to
// the process: SimServer::start empties it, and EVALSHA of an unknown digest answers
// NOSCRIPT, as a restarted real server would.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/args.h"
#include "core/reply.h"

namespace trafikey::sim {

// What a script's redis.call reaches: runs one command (TIME or a plain command; never a
// script) and answers its reply. The simulated server passes its own; the reference model
// of properties/model/ passes one over its own dataset, so both run the same scripts.
using ScriptCommand = std::function<Reply(Args argv)>;

// EVALSHA's refusal of a digest the process has not cached, in Redis 7.0's words (Valkey
// 8 drops the last sentence; the real runner reads its text as this one: scenarios/runner/
// differential.h, in_sim_wording).
inline constexpr std::string_view noscript_error = "NOSCRIPT No matching script. Please use EVAL.";

// TIME's reply for a server clock at `now_ms`: [seconds, microseconds] as bulk strings.
Reply time_reply(std::int64_t now_ms);

class Scripting {
 public:
  // The commands it runs; handles() is true for these names in any case.
  static constexpr std::array<std::string_view, 3> command_names{"EVAL", "EVALSHA", "SCRIPT"};
  static bool handles(std::string_view name);
  // Runs one of them, each redis.call through `command`; nullopt when argv[0] is none of them.
  std::optional<Reply> call(Args argv, const ScriptCommand& command);
  // A new process: the script cache is empty.
  void flush() { scripts_.clear(); }

  // The lowercase hex SHA-1 of a script body, as SCRIPT LOAD answers it.
  static std::string sha1_hex(std::string_view body);

 private:
  Reply eval(const ScriptCommand& command, const std::string& body, Args rest);
  Reply script(Args argv);

  std::map<std::string, std::string> scripts_;  // sha1 -> body
};

}  // namespace trafikey::sim
