// World: the simulated Valkey with its processes, clocks and persistence, driven one step
// at a time and recorded as a history.
//
// The world owns the datasets and the sequence of server incarnations; the history is fed
// by every step. It keeps no model of the queue: the ground truth a checker judges the
// server by is the checker's own (properties/model/: the model and its ledger). Its
// primitives are what both drivers use: generated runs (sim/run.h: producers, workers, a
// sweeper and a fault plan) and scenario files (one step per line). Nothing here reads the
// wall clock, the environment or an unordered container's order, and nothing runs on
// another thread.
//
// Persistence keeps a prefix of the call stream (writes reach disk at call boundaries):
//   always    every call survives a restart
//   everysec  the dataset is synced each time the server clock crosses a multiple of
//             1000 ms (either way); a restart loses the calls since the last sync
//   snapshot  the same on multiples of the snapshot interval
//   none      a restart starts empty
// A failover promotes a replica whose copy is synced each time true time crosses a
// multiple of replication_lag_ms; a new replica is then synced from the promoted server.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/reply.h"
#include "sim/call_effects.h"
#include "sim/clock.h"
#include "sim/history.h"
#include "sim/keyspace.h"
#include "sim/plan.h"
#include "sim/prng.h"
#include "sim/run_id.h"
#include "sim/server.h"
#include "sim/sweep_before.h"
#include "sim/undo.h"

namespace trafikey::sim {

class World;

// One call as the world ran it. `actor` and `argv` view the caller's bytes: they are valid
// during the step (the observers' hooks) and not after it. Copying every
// argument of every call into strings was a few percent of a run.
struct CallRecord {
  std::int64_t index = 0;  // 1-based, across the whole run
  Instant at;
  std::string_view actor;
  Args argv;
  Reply reply = Reply::nil();
  bool lost = false;
  std::int64_t writes = 0;
  std::int64_t history_line = 0;  // 1-based line of the call in the history
};


// Sees every step; the invariant checker is one. Both hooks run inside the step.
class WorldObserver {
 public:
  virtual void before_call(const World& world, std::string_view actor, Args argv) {
    (void)world, (void)actor, (void)argv;
  }
  virtual void after_call(const World& world, const CallRecord& call) { (void)world, (void)call; }
  // Before a restart or failover takes the dataset back to `position` of the write stream,
  // keeping the first `kept_calls` calls: the journal still holds what is about to be
  // lost. Not called when nothing is undone (persistence `always` keeps every
  // call; `none` empties the dataset and its journal).
  virtual void before_rollback(const World& world, std::int64_t position, std::int64_t kept_calls) {
    (void)world, (void)position, (void)kept_calls;
  }
  // After a restart or failover has finished (new incarnation started).
  virtual void after_start(const World& world) { (void)world; }
  // After a reload inside the same process (World::reload).
  virtual void after_reload(const World& world) { (void)world; }
  // When a phase begins ("safety", "liveness", ...) and when the run ends ("end"): the
  // points where the checker compares whole keyspaces.
  virtual void at_phase(const World& world, std::string_view name) { (void)world, (void)name; }

 protected:
  ~WorldObserver() = default;
};

struct WorldOptions {
  std::uint64_t seed = 1;
  Persistence persistence = Persistence::always;
  std::int64_t snapshot_interval_ms = 3000;
  std::int64_t replication_lag_ms = 250;
  bool keep_history_text = true;
  // The share of starts whose run_id is an earlier incarnation's with one character
  // changed (anywhere; still 40 lowercase hex). 0 draws nothing extra.
  std::int64_t near_epoch_per_mille = 0;
};

enum class EpochFault : std::uint8_t { none, fail, malformed, given };

// What a sweep did with each member it judged, as the world reads it from the server's
// rows around the sweep (World::verdict_counts, the history's verdict lines).
enum class SweepVerdict : std::uint8_t { ghost, lane, exempt, counted_recovered, counted_dead };
inline constexpr std::array<std::string_view, 5> sweep_verdict_names{"ghost", "lane", "exempt", "counted-recovered",
                                                                     "counted-dead"};
inline std::string_view sweep_verdict_name(SweepVerdict v) { return sweep_verdict_names[static_cast<std::size_t>(v)]; }

class World {
 public:
  static constexpr std::int64_t everysec_interval_ms = 1000;

  explicit World(const WorldOptions& options);
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Writes the history header and starts the first server process at true time 0.
  void begin(std::string_view header_kind, std::string_view header_json);
  void set_observer(WorldObserver* observer) { observer_ = observer; }
  // index > 0: call() throws StopBeforeCall instead of making the call of that history
  // index (RunOptions::stop_before_call: the history up to a call that crashes the core).
  struct StopBeforeCall {};
  void stop_before_call(std::int64_t index) { stop_before_ = index; }

  // ---- time
  void advance_to(std::int64_t true_ms);  // never backwards
  std::int64_t true_ms() const { return true_ms_; }
  std::int64_t server_ms() const { return server_clock_.value(true_ms_); }
  Instant now() const { return {true_ms_, server_ms(), server_.incarnation().number}; }

  // ---- steps
  // Runs one client call at the current time. When a lost reply is armed for `actor`
  // the call still runs, and the record says lost: the caller must not use the reply.
  const CallRecord& call(std::string_view actor, Args argv);
  const CallRecord& call(std::string_view actor, std::initializer_list<std::string_view> argv);
  void lose_next_reply(std::string_view actor);
  void restart();
  // The replica becomes the server: a new process with its own run_id on the lagging copy.
  // The process that served is demoted, not ended: it stays as the standby.
  void failover();
  // The standby (the primary the last failover or failback demoted, still running) becomes
  // the server again on the lagging copy, and the process that served becomes the standby:
  // no process starts, so its run_id, grant counter and script cache go on (EMQ §8). With no
  // standby (no failover yet) nothing happens but a history line saying so; false then.
  bool failback();
  // DEBUG RELOAD: the process saves its dataset and loads it back, in the same process.
  // Nothing is lost (the save precedes the load), the run_id stays, so every lease granted
  // before it is still this process's (INVARIANTS epoch.counted). Not a sync point of the
  // persistence model: a later restart keeps what it would have kept without the reload.
  void reload();
  // The server made a replica (of a primary that never answers: REPLICAOF to a dead
  // address) or a primary again: the same process and dataset, only its role changes, so
  // writing verbs meet the fence (EMQ §6: READONLY EMQ) and plain writes the server's own.
  void set_replica(bool replica);
  // The calling user's ACL denies writes to `key` (empty: every key writable again): a
  // writing verb that would write it refuses (EMQ §6: NOPERM EMQ ...) and writes nothing.
  void deny_writes(std::string key);
  const std::string& write_denied_key() const { return write_denied_key_; }
  void step_clock(std::int64_t delta_ms);
  void set_clock_rate(std::int64_t rate_per_mille);
  // The next start's run_id read fails (fail) or is malformed (malformed: a shape drawn
  // from a well-formed run_id, one defect of several kinds; see world.cpp).
  void arm_epoch_fault(EpochFault fault);
  // The next start reads exactly `text`, a malformed run_id, empty included (a scenario's
  // `epoch malformed "TEXT"`: the shape a generated run drew, replayed). The PRNG still
  // draws as without it.
  void arm_malformed_run_id(std::string text);
  // The next start reads exactly `run_id` (a scenario's `epoch RUN_ID`: a near run_id a
  // generated run drew, replayed). The PRNG still draws as without it.
  void arm_run_id(std::string run_id);
  // Faults off: forgets an armed epoch fault and any reply still due to be lost.
  void disarm_faults();
  // An actor-level event (worker death, pause, resume, a new worker): history only.
  void note(std::string_view event, std::string_view fields_json);
  void phase(std::string_view name);
  void end(std::string_view outcome, std::string_view fields_json);

  // ---- what the checker and reports read
  const SimServer& server() const { return server_; }
  const Keyspace& data() const { return live_; }
  const History& history() const { return history_; }
  const std::vector<std::string>& run_ids() const { return run_ids_; }  // [incarnation]
  // The serving process's number: after a failback an earlier one's again.
  int incarnation() const { return server_.incarnation().number; }
  // The serving process's run_id (run_ids()[incarnation()]; not run_ids().back() once a
  // failback has brought an earlier process back).
  const std::string& run_id() const { return run_ids_[static_cast<std::size_t>(incarnation())]; }
  bool module_loaded() const { return server_.incarnation().module_loaded; }
  // The current process's last reload met an armed epoch fault: its run_id read failed or
  // was malformed, so its load must have been refused (EMQ §2).
  bool reload_refused() const { return reload_refused_; }
  std::int64_t calls() const { return calls_; }
  // How many calls (1..n of the stream) the current process's dataset holds: all of them
  // but those the last restart or failover lost.
  std::int64_t kept_calls() const { return kept_calls_; }
  // The last step that lost calls: "restart", "failover" or "failback" (empty: none yet).
  std::string_view last_loss() const { return last_loss_; }
  // How often each sweep verdict occurred: ghost, lane, exempt, counted-recovered,
  // counted-dead (what the server did, read from its rows around each sweep).
  const std::map<std::string, std::int64_t>& verdict_counts() const { return verdict_counts_; }
  Prng& prng() { return prng_; }
  // The last call's record (valid until the next call; its actor and argv only as long as
  // the bytes the caller passed).
  const CallRecord& last_call() const { return last_; }

  // A read-only probe that bypasses the history (the checker's EMQ.EPOCH).
  Reply probe(Args argv) const;

 private:
  void start_process(std::string_view why, std::int64_t survived_calls, std::int64_t lost_calls);
  void sync_persistence();
  // The persisted copy and the replica are positions in the stream of writes (the undo
  // log's), so a sync costs nothing; a restart or a failover that goes back to one
  // undoes the writes after it. Positions count undo entries (one per hash field written).
  std::int64_t write_position() const { return undo_.position(); }
  // live_ and every copy: as of `position`, which holds the first `kept_calls` calls
  void rewind_to(std::int64_t position, std::int64_t kept_calls);
  // A failover's or failback's data: the replica's copy (what the last sync gave it), after
  // which disk and replica hold everything; the calls it kept.
  std::int64_t serve_replica_copy();
  void forget_unreachable();              // bounds the undo log to what a copy may need

  WorldOptions options_;
  Prng prng_;
  History history_;
  LinearClock server_clock_;
  std::int64_t true_ms_ = 0;

  Keyspace live_;
  UndoLog undo_;  // what every write overwrote (live_'s journal)
  std::int64_t durable_pos_ = 0, replica_pos_ = 0;
  std::int64_t durable_calls_ = 0, replica_calls_ = 0;  // calls each copy holds
  std::int64_t last_sync_server_ms_ = 0, last_replica_true_ms_ = 0;
  std::int64_t calls_ = 0, writes_ = 0;
  std::int64_t kept_calls_ = 0;
  std::string_view last_loss_;
  mutable SimServer server_;
  std::vector<std::string> run_ids_{""};  // index 0 unused: incarnations count from 1
  EpochFault epoch_fault_ = EpochFault::none;
  bool reload_refused_ = false;
  bool standby_reload_refused_ = false;  // reload_refused_ of the standby process
  // The run_id read an armed fail or malformed epoch fault gives in place of `run_id`: an
  // error, or `run_id` with one defect (or the scenario's given text). Leaves the fault armed.
  Outcome<std::string> faulted_read(std::string run_id);
  std::string given_run_id_;  // EpochFault::given
  std::optional<std::string> given_malformed_;  // EpochFault::malformed, when a scenario gave the bytes
  std::vector<std::string> lost_for_;  // actors whose next reply is lost
  std::string write_denied_key_;       // deny_writes: empty when every key is writable
  CallRecord last_;
  std::map<std::string, std::int64_t> verdict_counts_;
  SweepBefore sweep_before_;  // the expired rows before the current sweep (its verdict lines)
  CallEffects sweep_effects_;  // the current sweep's moves (kept to reuse its buffer)
  WorldObserver* observer_ = nullptr;
  std::int64_t stop_before_ = 0;
};

}  // namespace trafikey::sim
