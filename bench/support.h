// What every benchmark program shares (issue 8): a server with the module started through
// the real-server harness (module/harness/real_server.h), pipelined hiredis connections (one
// per client thread), the scripted executor's scripts, clocks, and the one table printer.
//
// Measurements are throughput over a short window plus the server main thread's CPU time
// (INFO cpu) over the same window, so a figure can be read both as "calls per second on
// this machine" and as "server CPU per call", the second being far less sensitive to the
// client threads sharing the machine's cores with the server.
//
// Nothing here asserts a time. A reply that is not what the benchmark expects (a claim
// that found nothing, a 0 from an extension) is a broken benchmark and throws.
#pragma once

#include <hiredis/hiredis.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/table.h"
#include "module/harness/real_server.h"

namespace trafikey::bench {

// ---- the server

// A server with trafikey.so (TRAFIKEY_BENCH_MODULE_PATH) loaded, AOF off (the harness turns
// it on; the benchmarks measure executors, not the disk). Extra arguments are appended.
real::ServerConfig module_server_config(std::vector<std::string> extra_args = {});

// One line naming the server and machine: "redis_version 7.0.15, nproc 2, ...".
std::string server_facts(real::ServerConnection& c);

// INFO cpu: the main thread's user + system CPU seconds (Redis >= 6.2, Valkey).
double server_main_cpu_s(real::ServerConnection& c);

// INFO commandstats for one command (any case): calls and usec so far.
struct CommandStat {
  std::int64_t calls = 0;
  std::int64_t usec = 0;
};
CommandStat command_stat(real::ServerConnection& c, std::string_view command);

// ---- pipelined connections

struct ReplyDeleter {
  void operator()(redisReply* r) const { freeReplyObject(r); }
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

// One hiredis connection used as a pipeline: append commands, then take their replies in
// order. Errors of the connection throw std::runtime_error.
class Pipe {
 public:
  explicit Pipe(int port);
  ~Pipe();
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;

  void append(std::initializer_list<std::string_view> argv);
  void append(std::span<const std::string_view> argv);  // a vector converts
  ReplyPtr take();
  // take() and require an integer equal to `want` / an OK-like status / an array.
  void take_integer(long long want, std::string_view what);
  void take_ok(std::string_view what);
  ReplyPtr take_array(std::string_view what);
  // Sends one command and takes its reply.
  ReplyPtr call(std::initializer_list<std::string_view> argv);

 private:
  redisContext* context_ = nullptr;
  std::vector<const char*> ptrs_;
  std::vector<std::size_t> lens_;
};

// ---- the scripted executor

// The scripts of bench/scripts/ and their SHA1 once loaded (SCRIPT LOAD) on a server.
struct Scripts {
  std::string claim, extend, complete;  // sources
  std::string claim_sha, extend_sha, complete_sha;
};
Scripts read_scripts();                        // from TRAFIKEY_BENCH_SCRIPTS_DIR
void load_scripts(real::ServerConnection& c, Scripts& scripts);  // fills the SHAs

// ---- clients and clocks

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start);
double process_cpu_s();  // CLOCK_PROCESS_CPUTIME_ID

// A bench program's main: runs `body`, turning an exception into "NAME: what" and exit 1.
int run_main(const char* name, int (*body)(int, char**), int argc, char** argv);

// Runs `body(client)` on `clients` threads, each started together after every thread is
// ready; returns the wall seconds from the common start until the last one finished. An
// exception in any client is rethrown here.
double run_clients(int clients, const std::function<void(int client)>& body);

// Loads `jobs` pending jobs into queue q as EMQ.ADD would leave them (rows, pending zset,
// seq), ids <prefix>0 .. <prefix>(jobs-1) in that order, with pipelined HSET/ZADD.
void load_pending(Pipe& pipe, std::string_view q, std::string_view id_prefix, std::int64_t jobs,
                  std::string_view payload);

// The common command line of the programs: --quick (shorter windows, for smoke checks),
// --only NAME (one part of a program's table, e.g. to profile one executor), --count N
// (how much work, e.g. cycles per client) and --help.
struct Options {
  bool quick = false;
  std::string only;
  std::int64_t count = 0;  // --count N: the program's unit of work, when it has one (0: default)
};
Options parse_options(int argc, char** argv, std::string_view usage);

}  // namespace trafikey::bench
