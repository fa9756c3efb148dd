#include "module/harness/real_server.h"
#include "core/text.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>


#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace trafikey::real {

namespace {

using namespace std::chrono_literals;

constexpr auto ready_timeout = 15s;     // a fresh server with a small AOF answers in ms
constexpr auto shutdown_grace = 15s;    // SHUTDOWN may wait for lagging replicas (10 s)
constexpr int start_attempts = 5;       // a port lost to another process: retry
constexpr auto command_timeout = 10s;

bool executable(const std::filesystem::path& path) {
  return ::access(path.c_str(), X_OK) == 0 && std::filesystem::is_regular_file(path);
}

std::string on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (executable(candidate)) return candidate.string();
  }
  return {};
}

// Ports above this leave no room for a cluster bus port (port + 10000).
constexpr int port_max = 55535;

// Binds 127.0.0.1:0 and returns the port the kernel chose (released again at once).
int pick_free_port_once() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("real_server: socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("real_server: cannot bind a loopback port");
  return ntohs(addr.sin_port);
}

int pick_free_port() {
  for (int tries = 0; tries < 1000; ++tries) {
    if (const int port = pick_free_port_once(); port <= port_max) return port;
  }
  throw std::runtime_error("real_server: no free loopback port at or below 55535");
}

std::string read_file_or_empty(const std::filesystem::path& path) {
  return read_file(path.string()).value_or("");
}

Reply to_reply(const redisReply* r) {
  switch (r->type) {
    case REDIS_REPLY_STATUS: return Reply::simple(std::string_view(r->str, r->len));
    case REDIS_REPLY_STRING: return Reply::bulk(std::string_view(r->str, r->len));
    case REDIS_REPLY_ERROR: return Reply::error(std::string_view(r->str, r->len));
    case REDIS_REPLY_INTEGER: return Reply::integer(r->integer);
    case REDIS_REPLY_NIL: return Reply::nil();
    case REDIS_REPLY_ARRAY: {
      Reply out = Reply::array();
      for (std::size_t i = 0; i < r->elements; ++i) out.items().push_back(to_reply(r->element[i]));
      return out;
    }
    default: return Reply::error("IOERR unexpected reply type");
  }
}

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

}  // namespace

std::string find_server_binary() {
  if (const char* bin = std::getenv("TRAFIKEY_SERVER_BIN"); bin != nullptr && *bin != '\0') {
    return bin;
  }
  if (auto valkey = on_path("valkey-server"); !valkey.empty()) return valkey;
  return on_path("redis-server");
}

// ---- ServerConnection

ServerConnection::ServerConnection(int port, std::chrono::milliseconds timeout)
    : ServerConnection("127.0.0.1", port, timeout) {}

ServerConnection::ServerConnection(const std::string& host, int port,
                                   std::chrono::milliseconds timeout) {
  context_ = redisConnectWithTimeout(host.c_str(), port, to_timeval(timeout));
  if (context_ != nullptr && context_->err == 0) {
    redisSetTimeout(context_, to_timeval(command_timeout));
  }
}

ServerConnection::~ServerConnection() {
  if (context_ != nullptr) redisFree(context_);
}

ServerConnection::ServerConnection(ServerConnection&& other) noexcept
    : context_(std::exchange(other.context_, nullptr)) {}

ServerConnection& ServerConnection::operator=(ServerConnection&& other) noexcept {
  if (this != &other) {
    if (context_ != nullptr) redisFree(context_);
    context_ = std::exchange(other.context_, nullptr);
  }
  return *this;
}

Reply ServerConnection::call(const std::vector<std::string>& argv) {
  if (context_ == nullptr) return Reply::error("IOERR no connection");
  if (context_->err != 0) return Reply::error(std::string("IOERR ") + context_->errstr);
  std::vector<const char*> ptrs;
  std::vector<std::size_t> lens;
  for (const auto& arg : argv) {
    ptrs.push_back(arg.data());
    lens.push_back(arg.size());
  }
  auto* raw = static_cast<redisReply*>(
      redisCommandArgv(context_, static_cast<int>(argv.size()), ptrs.data(), lens.data()));
  if (raw == nullptr) return Reply::error(std::string("IOERR ") + context_->errstr);
  Reply reply = to_reply(raw);
  freeReplyObject(raw);
  return reply;
}

Reply ServerConnection::call(std::initializer_list<std::string_view> argv) {
  std::vector<std::string> copy;
  copy.reserve(argv.size());
  for (auto arg : argv) copy.emplace_back(arg);
  return call(copy);
}

// ---- RealServer

RealServer::RealServer(ServerConfig config) : config_(std::move(config)) {
  binary_ = config_.binary.empty() ? find_server_binary() : config_.binary;
  if (binary_.empty()) {
    throw std::runtime_error(
        "real_server: no server binary (set TRAFIKEY_SERVER_BIN or install valkey-server or "
        "redis-server)");
  }
  // a bare name (--server-bin redis-server) is looked up on PATH, as a shell would
  if (binary_.find('/') == std::string::npos) {
    const std::string found = on_path(binary_);
    if (found.empty()) throw std::runtime_error("real_server: " + binary_ + " is not on PATH");
    binary_ = found;
  }
  if (!executable(binary_)) throw std::runtime_error("real_server: " + binary_ + " is not an executable file");
  std::string pattern =
      (std::filesystem::temp_directory_path() / "trafikey-server-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("real_server: mkdtemp failed");
  }
  dir_ = pattern;
  try {
    start();
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    throw;
  }
}

RealServer::~RealServer() {
  if (running()) kill();
  if (std::getenv("TRAFIKEY_KEEP_SERVER_DIRS") == nullptr) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

ServerConnection RealServer::connect() const {
  if (!running()) throw std::runtime_error("real_server: connect() to a stopped server");
  ServerConnection c(port_, 2000ms);
  const Reply pong = c.call({"PING"});
  if (pong.is_error()) throw std::runtime_error("real_server: connect failed: " + pong.text());
  return c;
}

void RealServer::start() {
  if (running()) throw std::runtime_error("real_server: start() while running");
  spawn_and_wait();
}

void RealServer::spawn_and_wait() {
  // A missing module would otherwise show as a server that never answers (it exits at
  // --loadmodule): name the file, and the target that builds it (trafikey-sim alone, as
  // `./dev.sh main` builds it, does not build trafikey.so).
  if (!config_.module_path.empty() && !std::filesystem::is_regular_file(config_.module_path)) {
    throw std::runtime_error("real_server: module " + config_.module_path +
                             " is not a file (build it: cmake --build --preset default --target trafikey)");
  }
  for (int attempt = 0; attempt < start_attempts; ++attempt) {
    port_ = pick_free_port();
    std::vector<std::string> args{binary_,
                                  "--port", std::to_string(port_),
                                  "--bind", "127.0.0.1",
                                  "--dir", dir_.string(),
                                  "--appendonly", "yes",
                                  "--save", "",
                                  "--enable-debug-command", "local",
                                  "--enable-module-command", "local",
                                  "--daemonize", "no",
                                  "--logfile", (dir_ / "server.log").string()};
    if (!config_.module_path.empty()) {
      args.push_back("--loadmodule");
      // absolute: the server may not resolve a path relative to our directory as we do
      args.push_back(std::filesystem::absolute(config_.module_path).string());
    }
    args.insert(args.end(), config_.extra_args.begin(), config_.extra_args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // The environment is built before fork (only async-signal-safe calls in the child).
    // config_.env's variables replace the inherited ones of the same name (an inherited
    // LD_PRELOAD would otherwise win: the first of two entries is the one getenv finds).
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string_view entry(*e);
      const std::size_t eq = entry.find('=');
      const std::string_view name = entry.substr(0, eq == std::string_view::npos ? entry.size() : eq + 1);
      const bool replaced = eq != std::string_view::npos && std::any_of(config_.env.begin(), config_.env.end(),
                                        [&](const std::string& mine) { return mine.starts_with(name); });
      if (!replaced) env_strings.emplace_back(entry);
    }
    env_strings.insert(env_strings.end(), config_.env.begin(), config_.env.end());
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
    const std::string out_path = (dir_ / "stdout.log").string();
    const pid_t parent = ::getpid();

    const pid_t child = ::fork();
    if (child < 0) throw std::runtime_error("real_server: fork failed");
    if (child == 0) {
      // Only async-signal-safe calls until exec. The server dies with the test process.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(126);
      const int in = ::open("/dev/null", O_RDONLY);
      const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (in >= 0) ::dup2(in, 0);
      if (out >= 0) {
        ::dup2(out, 1);
        ::dup2(out, 2);
      }
      ::execve(argv[0], argv.data(), envp.data());
      ::_exit(127);
    }
    pid_ = child;

    const auto deadline = std::chrono::steady_clock::now() + ready_timeout;
    bool exited = false;
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        exited = true;
        break;
      }
      ServerConnection c(port_, 200ms);
      const Reply pong = c.call({"PING"});
      if (pong.kind() == Reply::Kind::simple && pong.text() == "PONG") return;
      std::this_thread::sleep_for(10ms);
    }
    if (!exited) {
      kill();
      throw std::runtime_error("real_server: no PING answer in time; log:\n" + log());
    }
    if (log().find("Address already in use") == std::string::npos) {
      throw std::runtime_error("real_server: server exited at start; log:\n" + log());
    }
  }
  throw std::runtime_error("real_server: no free port after retries; log:\n" + log());
}

void RealServer::shutdown() {
  if (!running()) return;
  // A server that accepts answers by closing the connection; one that refuses (an AOF
  // rewrite or a save under way: "ERR Errors trying to SHUTDOWN") answers an error and
  // keeps running, so ask again until it goes or the grace runs out, instead of waiting
  // the whole grace for an exit that was refused.
  const auto deadline = std::chrono::steady_clock::now() + shutdown_grace;
  try {
    ServerConnection c(port_, 2000ms);
    for (;;) {
      const Reply r = c.call({"SHUTDOWN"});
      const bool refused = r.kind() == Reply::Kind::error && !r.text().starts_with("IOERR");
      if (!refused || std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(50ms);
    }
  } catch (const std::exception&) {
    // the connection closed (or could not open): the server is going; reap says
  }
  reap(std::max(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()),
                std::chrono::milliseconds(1000)));
}

std::filesystem::path RealServer::aof_tail() const {
  const std::filesystem::path multi = dir_ / "appendonlydir";
  if (std::filesystem::is_directory(multi)) {
    // "file appendonly.aof.1.incr.aof seq 1 type i": the last incremental part listed
    std::filesystem::path tail;
    for (const auto& entry : std::filesystem::directory_iterator(multi)) {
      if (entry.path().extension() != ".manifest") continue;
      std::ifstream manifest(entry.path());
      for (std::string line; std::getline(manifest, line);) {
        std::istringstream words(line);
        std::string word, name, type;
        while (words >> word) {
          if (word == "file") words >> name;
          if (word == "type") words >> type;
        }
        if (type == "i" && !name.empty()) tail = multi / name;
      }
    }
    return tail;
  }
  const std::filesystem::path single = dir_ / "appendonly.aof";
  return std::filesystem::exists(single) ? single : std::filesystem::path();
}

std::uintmax_t RealServer::aof_length() const {
  const std::filesystem::path tail = aof_tail();
  std::error_code ec;
  const std::uintmax_t length = tail.empty() ? 0 : std::filesystem::file_size(tail, ec);
  return ec ? 0 : length;
}

void RealServer::cut_aof(std::uintmax_t length) {
  if (running()) throw std::runtime_error("real_server: cut_aof() while the server runs");
  const std::filesystem::path tail = aof_tail();
  if (tail.empty()) {
    if (length == 0) return;
    throw std::runtime_error("real_server: no append-only file to cut in " + dir_.string());
  }
  if (std::filesystem::file_size(tail) < length) {
    throw std::runtime_error("real_server: " + tail.string() + " is shorter than the " + std::to_string(length) +
                             " bytes it should keep");
  }
  std::filesystem::resize_file(tail, length);
}

void RealServer::kill() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  reap(0ms);
}

void RealServer::reap(std::chrono::milliseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(10ms);
  }
  ::kill(pid_, SIGKILL);
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

std::vector<std::string> acl_rules_writing_all_but(std::string_view key) {
  // ACL SETUSER refuses a rule with a whitespace byte in it (isspace: \t \n \v \f \r and
  // space). stringmatchlen (util.c): a backslash makes the next byte literal, inside a class
  // and out.
  auto is_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  // A prefix of the key, as a pattern: a whitespace byte becomes `?` (any byte: a pattern
  // that matches more keys than the key's own prefix still never matches the key itself,
  // whose byte at the next place each rule below excludes, or whose length it exceeds).
  auto prefix = [&](std::string_view text) {
    std::string out;
    for (const char c : text) {
      if (is_space(c)) {
        out += '?';
        continue;
      }
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\' || c == '^' || c == '-') out += '\\';
      out += c;
    }
    return out;
  };
  // Classes of every byte but `c`; for a whitespace `c`, ranges whose ends are not
  // whitespace (the other whitespace bytes of \t..\r, and NUL, are then left out: a key
  // that differs from the denied one there alone is denied too). A range never crosses
  // from \x7f to \x80: the matcher compares a plain `char`, signed on some machines and
  // unsigned on others.
  auto all_but = [&](char c) -> std::vector<std::string> {
    if (c == ' ') return {"[\x01-\x1f]", "[!-\x7f]", "[\x80-\xff]"};
    if (is_space(c)) return {"[\x01-\x08]", "[\x0e-\x7f]", "[\x80-\xff]"};
    return {"[^" + prefix(std::string_view(&c, 1)) + "]"};
  };
  std::vector<std::string> rules{"%R~*"};
  for (std::size_t i = 0; i < key.size(); ++i) {
    const std::string head = prefix(key.substr(0, i));
    if (i > 0) rules.push_back("%W~" + head);  // a proper prefix
    for (const std::string& other : all_but(key[i])) rules.push_back("%W~" + head + other + "*");  // another byte here
  }
  rules.push_back("%W~" + prefix(key) + "?*");  // longer
  return rules;
}

std::string info_field(std::string_view text, std::string_view field) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find("\r\n", at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    if (line.size() > field.size() && line.starts_with(field) && line[field.size()] == ':') {
      return std::string(line.substr(field.size() + 1));
    }
    at = end + 2;
  }
  return {};
}

std::string RealServer::info(const std::string& section, std::string_view field) const {
  ServerConnection c = connect();
  return info_field(c.call({"INFO", section}).text(), field);
}

void RealServer::copy_from(const RealServer& primary) {
  ServerConnection c = connect();
  const Reply ok = c.call({"REPLICAOF", "127.0.0.1", std::to_string(primary.port())});
  if (ok.is_error()) throw std::runtime_error("real_server: REPLICAOF answered " + ok.text());
  const auto deadline = std::chrono::steady_clock::now() + ready_timeout;
  while (true) {
    const std::string wanted = primary.info("replication", "master_repl_offset");
    const bool synced = info("replication", "master_link_status") == "up" &&
                        info("replication", "master_sync_in_progress") == "0" &&
                        info("replication", "master_repl_offset") == wanted &&
                        info("persistence", "loading") == "0" &&
                        info("persistence", "aof_rewrite_in_progress") == "0" &&
                        info("persistence", "aof_rewrite_scheduled") == "0";
    if (synced) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("real_server: the replica did not sync in time; log:\n" + log());
    }
    std::this_thread::sleep_for(2ms);
  }
  const Reply detached = c.call({"REPLICAOF", "NO", "ONE"});
  if (detached.is_error()) throw std::runtime_error("real_server: REPLICAOF NO ONE answered " + detached.text());
}

std::string RealServer::log() const {
  return read_file_or_empty(dir_ / "server.log") + read_file_or_empty(dir_ / "stdout.log");
}

}  // namespace trafikey::real
