// RealSession (private to scenarios/runner): the server one real run talks to, through
// module/harness/real_server.h. With --server-bin it starts the binary (AOF as the
// scenario's persistence asks), restarts it and stops it; with --server it reaches the
// running one and deletes the scenario's keys first. It keeps one connection per client
// name and an admin connection, records each process's run_id (mapping it to the sim's
// run_id of the same incarnation, differential.h RunIdMap) and reads keys back.
//
// Anything that makes the run impossible (no server, a broken connection, a server
// without the module) throws std::runtime_error with the reason.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/host.h"
#include "core/reply.h"
#include "module/harness/fake_clock.h"
#include "module/harness/real_cluster.h"
#include "module/harness/real_server.h"
#include "scenarios/runner/differential.h"
#include "scenarios/runner/run_real.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

// A row (hash) as field -> value.
using Row = std::map<std::string, std::string>;

class RealSession {
 public:
  // `sim_run_ids`: the sim's run_ids by incarnation (index 0 unused), run_sim.h sim_run_ids.
  // With --server-bin every process it starts runs on one FakeClock
  // (module/harness/fake_clock.h), held at server time 0 until hold_clock() moves it.
  RealSession(const RealTarget& target, Persistence persistence, std::vector<std::string> sim_run_ids);
  ~RealSession();  // stop()
  RealSession(const RealSession&) = delete;
  RealSession& operator=(const RealSession&) = delete;

  // One server process as the admin connection first saw it.
  struct Process {
    int port = 0;
    std::size_t incarnation = 0;  // 1 for the first process of the run (every node of a cluster)
    std::string run_id;           // what INFO server says
    Reply epoch = Reply::nil();   // what EMQ.EPOCH answered
  };

  // --server-bin: starts the binary (--cluster N: a loopback cluster of N primaries,
  // module/harness/real_cluster.h). Then (every target) reads each process's run_id and
  // EMQ.EPOCH; admit() each once judged.
  std::vector<Process> start();
  // SHUTDOWN and a new process on the same directory (--server-bin only), then as start().
  Process restart();
  // A restart that keeps only the writes of the first `kept_calls` calls of the run (as
  // the sim's restart under everysec or snapshot does): the process is killed, its
  // append-only file cut back to its length after call `kept_calls`, and a new process
  // starts on it. Under everysec and snapshot the server appends every write at once
  // (`appendfsync always`, no rewrite), and the length is recorded after each call, so it
  // loses exactly what the sim loses. Throws when the calls to keep were not all made by
  // this process's file (a restart cannot keep a write the process never had, nor lose one
  // a start already loaded).
  Process restart_keeping(std::int64_t kept_calls);
  // Whether restart_keeping() can cut what the sim loses (--server-bin, no cluster, under
  // everysec or snapshot).
  bool cuts_lost_writes() const { return cuts_aof_; }
  // Scenario calls made so far (call() and call_and_lose()), lost ones included.
  std::int64_t calls() const { return calls_; }
  // `failover`: the replica (synced by sync_replica(), else now) becomes the server; the old
  // primary is demoted, not killed: it keeps running, detached, as the standby (an earlier
  // standby is killed). --server-bin only. Then as start().
  Process failover();
  // `failback`: the standby (synced by sync_standby(), else now) serves again, its process,
  // run_id and grant counter as they were (EMQ §8), and the server becomes the standby. The
  // process is not new: judge it as a start, but do not admit() it again.
  Process failback();
  // Gives the standby a full copy of the server's dataset as of now (REPLICAOF, then
  // REPLICAOF NO ONE: its process stays), as sync_replica() gives the replica.
  void sync_standby();
  // Starts a replica (when none waits) and gives it a full copy of the server's dataset as
  // of now, then detaches it: what it holds at the failover is this copy, as the sim's
  // replica holds the primary's stream up to its last sync (world.h).
  void sync_replica();

  // `replica` / `primary` (--server-bin, no cluster): the server becomes a replica of a
  // port no one answers (127.0.0.1:1: privileged, never a server's the harness starts), with
  // replica-read-only off so that a writing verb reaches the module's own fence (EMQ §6,
  // READONLY EMQ) as on the sim; it keeps its dataset, since no primary ever sends one.
  // `primary`: REPLICAOF NO ONE. The sim's role is the server's, not its process's: every
  // process that serves after it (restart, failover, failback) takes it too.
  void set_replica(bool replica);
  // `deny KEY` / `allow` (--server-bin, no cluster): the default user (every client's, the
  // admin's too, which only reads meanwhile) may read every key and write every key but KEY
  // (real::acl_rules_writing_all_but); an empty KEY gives it every key again. Held across
  // processes as set_replica's role is.
  void deny_writes(const std::string& key);

  // --server-bin: the server's wall clock reads `server_ms` (ms since the Unix epoch) and
  // stays there until the next hold. A no-op for --server (its clock is its own).
  void hold_clock(std::int64_t server_ms);
  // Whether hold_clock() sets the server's clock (--server-bin).
  bool holds_clock() const { return clock_ != nullptr; }

  // Records the process: its run_id and the sim's run_id of its incarnation. Throws when
  // the first process does not serve EMQ verbs (the module is not loaded).
  void admit(const Process& process);
  // The run_id of the process that serves `queue` now (in a cluster: its slot's owner).
  const std::string& run_id_serving(const std::string& queue);
  // Incarnations admitted: 1 + restarts and failovers (a cluster's nodes are all the first).
  std::size_t incarnations() const { return incarnations_; }
  // Closes every connection; SHUTDOWN (else kill) a server it started, removing its directory.
  void stop();

  // --server: deletes every key of each scenario queue and the keys its plain commands
  // name, nothing else.
  void clean(const ScenarioKeys& keys);

  // `argv` as client `name` (a connection of its own, opened at its first call; in a
  // cluster one per node, each call sent to the node serving its key); the raw reply,
  // run_ids not mapped.
  Reply call(const std::string& name, const std::vector<std::string>& argv);
  // A lost reply: sends `argv` as client `name` and reads the reply (so the call has run
  // before the next step, and the runner knows what the server answered), then closes that
  // client's connection as a client that timed out does; its next call opens a new one.
  Reply call_and_lose(const std::string& name, const std::vector<std::string>& argv);
  // On the admin connection (in a cluster, of the node serving argv's key).
  Reply admin_call(const std::vector<std::string>& argv);
  // `reload`: DEBUG RELOAD, then the module unloaded and loaded again (its load moves the
  // grant counter, as the sim's does), on the server, in a cluster on every node (each keeps
  // its process and run_id). The first error reply, else OK.
  Reply reload();
  // DEBUG DIGEST (when the server allows DEBUG, else empty).
  bool digest_allowed() const { return digest_allowed_; }
  std::string digest();

  // Reads through the admin connection.
  std::vector<std::string> scan(const std::string& prefix);  // keys with the prefix, sorted
  KeyType type_of(const std::string& key);
  // The row at `key` (values with run_ids mapped when `mapped`); nullopt when not a hash.
  std::optional<Row> row(const std::string& key, bool mapped);
  // A zset's members by rank; nullopt when the key holds something else.
  std::optional<std::vector<std::string>> members(std::string_view key);
  // The scenario's final keyspace, run_ids mapped.
  std::map<std::string, KeyValue> final_keys(const ScenarioKeys& keys);

  // Real run_ids into the sim's.
  const RunIdMap& run_id_map() const { return ids_; }
  // The run_id of every admitted process, by incarnation (index 0 unused).
  const std::vector<std::string>& run_ids() const { return real_ids_; }

 private:
  Process opened(int port, std::size_t incarnation);
  int home_port() const;                       // the server; a cluster's first node
  int port_for(const std::string& routing_key);  // the node serving the key
  real::ServerConnection& connection(const std::string& client, int port);
  Reply admin_call_at(int port, const std::vector<std::string>& argv);
  Reply reload_at(int port);
  Reply module_reload_at(int port);  // MODULE UNLOAD trafikey, MODULE LOAD it again
  void take_role_and_access(int port);  // the role and ACL set_replica / deny_writes set

  const RealTarget& target_;
  Persistence persistence_;
  std::vector<std::string> sim_ids_;
  std::vector<std::string> real_ids_{""};
  RunIdMap ids_;
  real::ServerConfig config_;
  std::filesystem::path clock_dir_;
  std::unique_ptr<real::FakeClock> clock_;
  std::unique_ptr<real::RealServer> server_;
  std::unique_ptr<real::RealServer> replica_;
  std::unique_ptr<real::RealServer> standby_;  // the primary the last failover demoted
  std::size_t serving_incarnation_ = 0, standby_incarnation_ = 0;
  std::unique_ptr<real::RealCluster> cluster_;
  std::map<std::string, int> port_of_key_;   // cluster routing, by key
  // restart_keeping(): the server's append-only file length after each call of the run
  // (index 0: before the first), for the calls since its process began writing this file
  bool cuts_aof_ = false;
  std::int64_t calls_ = 0;               // scenario calls made (call(), call_and_lose())
  std::int64_t file_first_call_ = 0;     // aof_after_[0] is the length after this call
  std::vector<std::uintmax_t> aof_after_;
  void file_begins();  // the server's file holds every call so far: record from here
  std::map<int, std::string> run_id_at_;     // port -> run_id of the process there
  std::size_t incarnations_ = 0;
  // (client name, port) -> connection; the admin's client name is "".
  std::map<std::pair<std::string, int>, real::ServerConnection> connections_;
  bool digest_allowed_ = false;
  bool serves_as_replica_ = false;  // set_replica
  std::string denied_key_;          // deny_writes; empty: every key writable
};

}  // namespace trafikey::scenario
