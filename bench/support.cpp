#include "bench/support.h"
#include "core/text.h"
#include "core/keys.h"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <latch>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace trafikey::bench {

namespace {

std::string read_text(const std::string& path) {
  auto text = read_file(path);
  if (!text) throw std::runtime_error("bench: cannot read " + path);
  return std::move(*text);
}

std::string info(real::ServerConnection& c, std::string_view section) {
  const Reply r = c.call({"INFO", section});
  if (r.kind() != Reply::Kind::bulk) throw std::runtime_error("bench: INFO failed: " + r.text());
  return r.text();
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("model name")) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown cpu";
}

std::string describe(const redisReply* r) {
  if (r == nullptr) return "no reply";
  switch (r->type) {
    case REDIS_REPLY_ERROR:
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_STRING: return std::string(r->str, r->len);
    case REDIS_REPLY_INTEGER: return std::to_string(r->integer);
    case REDIS_REPLY_NIL: return "nil";
    case REDIS_REPLY_ARRAY: return "array of " + std::to_string(r->elements);
    default: return "reply type " + std::to_string(r->type);
  }
}

}  // namespace

// ---- the server

real::ServerConfig module_server_config(std::vector<std::string> extra_args) {
  real::ServerConfig config;
  config.module_path = TRAFIKEY_BENCH_MODULE_PATH;
  config.extra_args = {"--appendonly", "no"};
  config.extra_args.insert(config.extra_args.end(), extra_args.begin(), extra_args.end());
  return config;
}

std::string server_facts(real::ServerConnection& c) {
  const std::string server = info(c, "server");
  std::string name = "redis";
  std::string version = real::info_field(server, "redis_version");
  if (const std::string valkey = real::info_field(server, "valkey_version"); !valkey.empty()) {
    name = "valkey";
    version = valkey;
  }
  utsname uts{};
  ::uname(&uts);
  std::ostringstream out;
  out << name << " " << version << " (" << real::info_field(server, "executable") << ")"
      << ", nproc " << std::thread::hardware_concurrency() << ", " << cpu_model() << ", "
      << uts.sysname << " " << uts.release;
  return out.str();
}

double server_main_cpu_s(real::ServerConnection& c) {
  const std::string cpu = info(c, "cpu");
  const std::string user = real::info_field(cpu, "used_cpu_user_main_thread");
  const std::string sys = real::info_field(cpu, "used_cpu_sys_main_thread");
  if (user.empty() || sys.empty()) return 0;  // an older server: no per-thread figures
  return std::strtod(user.c_str(), nullptr) + std::strtod(sys.c_str(), nullptr);
}

CommandStat command_stat(real::ServerConnection& c, std::string_view command) {
  // Redis prints a module command's name as registered (EMQ.CLAIM), Valkey may lower it
  std::string text = info(c, "commandstats");
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string name = "cmdstat_" + std::string(command);
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const std::string line = real::info_field(text, name);
  CommandStat stat;
  // calls=3,usec=1234,usec_per_call=411.33,...
  std::istringstream in(line);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.starts_with("calls=")) stat.calls = std::strtoll(part.c_str() + 6, nullptr, 10);
    if (part.starts_with("usec=")) stat.usec = std::strtoll(part.c_str() + 5, nullptr, 10);
  }
  return stat;
}

// ---- pipelined connections

Pipe::Pipe(int port) {
  const timeval timeout{10, 0};
  context_ = redisConnectWithTimeout("127.0.0.1", port, timeout);
  if (context_ == nullptr || context_->err != 0) {
    const std::string why = context_ ? context_->errstr : "out of memory";
    if (context_) redisFree(context_);
    throw std::runtime_error("bench: connect failed: " + why);
  }
  redisSetTimeout(context_, timeout);
}

Pipe::~Pipe() {
  if (context_) redisFree(context_);
}

void Pipe::append(std::initializer_list<std::string_view> argv) {
  append(std::span<const std::string_view>(argv.begin(), argv.size()));
}

void Pipe::append(std::span<const std::string_view> argv) {
  ptrs_.clear();
  lens_.clear();
  for (auto a : argv) {
    ptrs_.push_back(a.data());
    lens_.push_back(a.size());
  }
  if (redisAppendCommandArgv(context_, static_cast<int>(ptrs_.size()), ptrs_.data(),
                             lens_.data()) != REDIS_OK) {
    throw std::runtime_error(std::string("bench: append failed: ") + context_->errstr);
  }
}

ReplyPtr Pipe::take() {
  void* raw = nullptr;
  if (redisGetReply(context_, &raw) != REDIS_OK || raw == nullptr) {
    throw std::runtime_error(std::string("bench: connection failed: ") + context_->errstr);
  }
  return ReplyPtr(static_cast<redisReply*>(raw));
}

void Pipe::take_integer(long long want, std::string_view what) {
  const ReplyPtr r = take();
  if (r->type != REDIS_REPLY_INTEGER || r->integer != want) {
    throw std::runtime_error("bench: " + std::string(what) + ": expected " +
                             std::to_string(want) + ", got " + describe(r.get()));
  }
}

void Pipe::take_ok(std::string_view what) {
  const ReplyPtr r = take();
  if (r->type == REDIS_REPLY_ERROR) {
    throw std::runtime_error("bench: " + std::string(what) + ": " + describe(r.get()));
  }
}

ReplyPtr Pipe::take_array(std::string_view what) {
  ReplyPtr r = take();
  if (r->type != REDIS_REPLY_ARRAY) {
    throw std::runtime_error("bench: " + std::string(what) + ": expected an array, got " +
                             describe(r.get()));
  }
  return r;
}

ReplyPtr Pipe::call(std::initializer_list<std::string_view> argv) {
  append(argv);
  return take();
}

// ---- the scripted executor

Scripts read_scripts() {
  const std::string dir = TRAFIKEY_BENCH_SCRIPTS_DIR;
  Scripts s;
  s.claim = read_text(dir + "/claim.lua");
  s.extend = read_text(dir + "/extend.lua");
  s.complete = read_text(dir + "/complete.lua");
  return s;
}

void load_scripts(real::ServerConnection& c, Scripts& s) {
  auto load = [&](const std::string& source, std::string_view name) {
    const Reply r = c.call({"SCRIPT", "LOAD", source});
    if (r.kind() != Reply::Kind::bulk) {
      throw std::runtime_error("bench: SCRIPT LOAD " + std::string(name) + ": " + r.text());
    }
    return r.text();
  };
  s.claim_sha = load(s.claim, "claim.lua");
  s.extend_sha = load(s.extend, "extend.lua");
  s.complete_sha = load(s.complete, "complete.lua");
}

// ---- clients and clocks

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double process_cpu_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double run_clients(int clients, const std::function<void(int client)>& body) {
  std::latch ready(clients + 1);
  std::latch go(1);
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::vector<Clock::time_point> ended(static_cast<std::size_t>(clients));
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back([&, i] {
      ready.count_down();
      go.wait();
      try {
        body(i);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
      ended[static_cast<std::size_t>(i)] = Clock::now();
    });
  }
  ready.arrive_and_wait();
  const auto start = Clock::now();
  go.count_down();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  const auto last = *std::max_element(ended.begin(), ended.end());
  return std::chrono::duration<double>(last - start).count();
}

void load_pending(Pipe& pipe, std::string_view q, std::string_view id_prefix, std::int64_t jobs,
                  std::string_view payload) {
  const QueueKeys keys(q);
  const std::string pending(keys.pending());
  constexpr std::int64_t window = 512;  // commands in flight
  std::int64_t sent = 0, taken = 0;
  for (std::int64_t i = 0; i < jobs; ++i) {
    const std::string id = std::string(id_prefix) + std::to_string(i);
    const std::string row = keys.row(id);
    const std::string seq = std::to_string(i + 1);
    // the row as EMQ.ADD writes it (fields in its order), then its place in pending
    pipe.append({"HSET", row, "state", "pending", "payload", payload, "attempts", "0",
                 "failures", "0", "max_failures", "3"});
    pipe.append({"ZADD", pending, seq, id});
    sent += 2;
    while (sent - taken > window) {
      pipe.take_ok("load_pending");
      ++taken;
    }
  }
  pipe.append({"SET", keys.seq(), std::to_string(jobs)});
  ++sent;
  while (taken < sent) {
    pipe.take_ok("load_pending");
    ++taken;
  }
}

Options parse_options(int argc, char** argv, std::string_view usage) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quick") {
      options.quick = true;
    } else if (arg == "--only" && i + 1 < argc) {
      options.only = argv[++i];
    } else if (arg == "--count" && i + 1 < argc) {
      options.count = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--help" || arg == "-h") {
      std::cout << usage
                << "\n  --quick      shorter windows (a smoke run; figures are noisier)"
                   "\n  --only NAME  run only that row (e.g. an executor, for profiling)"
                   "\n  --count N    the amount of work (e.g. cycles per client)\n";
      std::exit(0);
    } else {
      std::cerr << "unknown argument: " << arg << "\n" << usage << "\n";
      std::exit(2);
    }
  }
  return options;
}

int run_main(const char* name, int (*body)(int, char**), int argc, char** argv) {
  try {
    return body(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace trafikey::bench
