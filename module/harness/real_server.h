// RealServer: one real valkey-server / redis-server process on a free loopback port, in a
// temporary data directory, optionally with trafikey.so loaded. Used by the module's tests
// and meant for the scenario runner and benchmarks too.
//
// Promises:
// - The port is picked by binding port 0 on 127.0.0.1 (never a fixed port), at or below
//   55535 so a cluster bus port (port + 10000) fits; a start that loses the race for it
//   retries on a new one.
// - The server runs with AOF on (`--appendonly yes`, `--save ""`), DEBUG allowed from
//   loopback, and logs to <dir>/server.log.
// - shutdown() and start() keep the data directory, so a restart is a new process (a new
//   run_id) over the same dataset. start() picks a new port.
// - The destructor always kills a running process (SIGKILL) and removes the directory, and
//   the child is started with PR_SET_PDEATHSIG, so no server outlives the test process,
//   even when it crashes.
//
// ServerConnection is a hiredis connection whose replies come back as core Reply values
// (integer, simple, bulk, nil, error, array), so they compare with what the core and the
// simulated server answer. Failures of the harness itself throw std::runtime_error.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

#include "core/reply.h"

struct redisContext;

namespace trafikey::real {

// "field:value" of an INFO reply's text: the value, empty when the field is absent.
std::string info_field(std::string_view info_text, std::string_view field);

// The key rules of an ACL user (ACL SETUSER's words) that may read every key and write
// every key but `key`: `%R~*`, then `%W~` patterns that between them match every other
// name (each proper prefix of it, each prefix followed by any other byte, and it followed
// by more), with glob's special characters escaped. ACL SETUSER takes no whitespace in a
// rule, so where the key has a whitespace byte the rules cannot tell another whitespace
// byte (or NUL) there from it: such a key is denied too, and so is the empty key name. A
// glob cannot say "all but one" any shorter, and the server's own matcher decides, as it
// does for any ACL.
std::vector<std::string> acl_rules_writing_all_but(std::string_view key);

// $TRAFIKEY_SERVER_BIN, else valkey-server on PATH, else redis-server on PATH; empty when
// none is found.
std::string find_server_binary();

struct ServerConfig {
  std::string module_path;              // --loadmodule <path> when not empty (absolute)
  std::vector<std::string> extra_args;  // appended to the command line, e.g. {"--x", "y"}
  std::string binary;                   // empty: find_server_binary()
  std::vector<std::string> env;         // "NAME=VALUE" added to the server's environment
                                        // (replacing an inherited NAME)
};

class ServerConnection {
 public:
  ServerConnection(int port, std::chrono::milliseconds timeout);  // on 127.0.0.1
  ServerConnection(const std::string& host, int port, std::chrono::milliseconds timeout);
  ~ServerConnection();
  ServerConnection(ServerConnection&& other) noexcept;
  ServerConnection& operator=(ServerConnection&& other) noexcept;
  ServerConnection(const ServerConnection&) = delete;
  ServerConnection& operator=(const ServerConnection&) = delete;

  // Sends one command (binary-safe arguments) and returns its reply. A broken connection
  // answers Reply::error("IOERR <what>").
  Reply call(const std::vector<std::string>& argv);
  Reply call(std::initializer_list<std::string_view> argv);

 private:
  redisContext* context_ = nullptr;
};

class RealServer {
 public:
  explicit RealServer(ServerConfig config = {});  // starts the server
  ~RealServer();
  RealServer(const RealServer&) = delete;
  RealServer& operator=(const RealServer&) = delete;

  int port() const { return port_; }
  const std::filesystem::path& dir() const { return dir_; }
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  ServerConnection connect() const;

  // SHUTDOWN and wait for the process to exit (SIGKILL after a grace period).
  void shutdown();
  // SIGKILL: a crash. The AOF keeps what the server had written.
  void kill();
  // A new process on the same directory (and a new port); waits until it answers PING.
  void start();
  void restart() {
    shutdown();
    start();
  }

  // The file the server appends its writes to: the last incremental part its
  // append-only manifest lists (appendonlydir/, Redis 7 and Valkey), or appendonly.aof
  // (one file, before multi-part AOF). Empty when there is none yet.
  std::filesystem::path aof_tail() const;
  // Its length in bytes (0 when there is none).
  std::uintmax_t aof_length() const;
  // Cuts the tail back to its first `length` bytes, as a crash before those bytes reached
  // the disk would have left it. Only while the server is stopped (throws otherwise).
  void cut_aof(std::uintmax_t length);

  // INFO SECTION's "field:value" lines as a map-free lookup: the value of `field`, empty
  // when absent (e.g. info("replication", "master_link_status")).
  std::string info(const std::string& section, std::string_view field) const;
  // Makes this server a replica of `primary` (REPLICAOF), waits until it holds everything
  // the primary has written (link up, replication offsets equal, no AOF rewrite pending),
  // then detaches it (REPLICAOF NO ONE): it keeps that copy, with its own run_id, and
  // serves as a primary from then on. Throws when that takes longer than ready_timeout.
  void copy_from(const RealServer& primary);

  // The server's log so far (for failure messages and log assertions).
  std::string log() const;

 private:
  void spawn_and_wait();
  void reap(std::chrono::milliseconds grace);

  ServerConfig config_;
  std::string binary_;
  std::filesystem::path dir_;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace trafikey::real
