// Checker: the invariants of shared spec INVARIANTS.md, judged on every step of a world.
//
// Attached to a World as its observer, the checker compares the server (its rows and
// sets, its replies) with the model (properties/model/: its dataset, and its ledger of
// each job's leases and moves, the one ground truth) after every call and after every
// start of a server process: over every job at the first start and the end (the whole
// keyspace against the model's at each phase boundary too), after a call over the jobs
// and keys that call touched (its argv, its reply, and what the server and the model
// wrote, read from their keyspaces' journals), which is all a call can change, and at a
// later start over what its rollback took back. A call the model predicted write for
// write leaves the server's keyspace equal to the model's, so its per-job judgements are
// established through that equality (through_model) rather than by reading the rows the
// call touched; set_direct judges them directly, the model's audit (the CI properties).
// A broken invariant becomes a Violation naming the invariant id, the step (call index
// and history line) and the facts, e.g.
//   epoch.exempt at call 41 (history line 57): lease of j3 (token 2), granted by
//   incarnation 2 at t=1200, counted by the sweep of incarnation 3 at t=4100: stalled 0 -> 1
//
// Judged here: epoch.exempt, epoch.counted, epoch.stamp, epoch.load, queue.conserve,
// queue.transitions, queue.fence, queue.budget, verb.atomic, verb.model (every reply and
// every written key against properties/model/, the whole keyspace at each start and phase
// end), liveness.drain (by
// check_drain after a run). Named but judged elsewhere: sim.determinism (campaigns run a
// share twice), verb.replicated (real-server tests), sim.differential (scenario runner).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/bytes.h"
#include "core/invariants.h"
#include "properties/crash_guard.h"
#include "properties/judge/rules.h"
#include "properties/model/model.h"
#include "properties/state_graph.h"
#include "sim/undo.h"
#include "sim/world.h"

namespace trafikey::properties {

// Whether this checker judges an id of core/invariants.h; the others are judged by the
// campaign (sim.determinism), the real-server tests (verb.replicated) and the scenario
// runner (sim.differential).
bool judged_by_checker(std::string_view invariant);

struct InvariantInfo {
  std::string_view id;
  bool judged_by_checker;
};
// core/invariants.h's ids with who judges them.
const std::vector<InvariantInfo>& invariant_ids();

struct Violation {
  std::string invariant;
  std::int64_t call = 0;          // call index (0: not at a call)
  std::int64_t history_line = 0;  // 0 when unknown
  std::int64_t true_ms = 0;
  std::string facts;
  std::string describe() const;   // "<id> at call N (history line L), t=T: <facts>"
  // describe() as one line of printable ASCII, for a terminal or a text file: a newline
  // becomes a space and any other byte outside 0x20..0x7e (a binary payload's NUL or 0xff,
  // which the facts quote) is spelt \xHH.
  std::string describe_line() const;
};

class Checker final : public sim::WorldObserver {
 public:
  Checker() = default;
  // with_model false: verb.model not judged (the bench's measure of what comparing costs);
  // the model still runs, as its ledger is the ground truth every other invariant reads
  explicit Checker(bool with_model) : with_model_(with_model) {}
  // whole_scans: every start judges every job and key, not only what its rollback took
  // back (see after_start), and so does every phase boundary, not only the end (at_phase):
  // the cross-check the tests run both ways.
  Checker(bool with_model, bool whole_scans) : whole_scans_(whole_scans), with_model_(with_model) {}

  // direct: every invariant judged directly on every call, the model's audit. Otherwise
  // (the default) a call the model predicted write for write has its per-job judgements
  // established through the model's equality (see through_model), at about a tenth of a
  // checked run's cost; every other call, start and phase end is judged directly.
  void set_direct(bool direct) { direct_ = direct; }
  bool direct() const { return direct_; }
  // How many calls had their per-job judgements established through the model.
  std::int64_t through_model_calls() const { return through_model_calls_; }

  void before_call(const sim::World& world, std::string_view actor, Args argv) override;
  void after_call(const sim::World& world, const sim::CallRecord& call) override;
  void before_rollback(const sim::World& world, std::int64_t position, std::int64_t kept_calls) override;
  void after_start(const sim::World& world) override;
  void after_reload(const sim::World& world) override;
  void at_phase(const sim::World& world, std::string_view name) override;

  // The whole-keyspace checks (conserve, stamp, budget), over every job of every queue:
  // run at the first start of a process and at the end (and by a scenario's `check
  // invariants`). After a call the same checks run on the jobs the call touched only (see
  // Touched), and at a later start on what its rollback took back: nothing else can have
  // changed.
  void check_state(const sim::World& world);
  // liveness.drain: `outcome` is the run's ("drained" passes).
  void check_drain(const sim::World& world, std::string_view outcome, std::int64_t bound_ms);

  bool failed() const { return !violations_.empty(); }
  const std::vector<Violation>& violations() const { return violations_; }
  // How many times each invariant was judged (0: not judged in this history).
  const std::map<std::string, std::int64_t>& judged() const;
  const StateGraph& graph() const { return graph_; }

  // The crash guard's lane (crash_guard.h): before each call the checker stores the
  // call's history index there, and (record_argv) its words, so that a
  // core that crashes the process or never returns still names the call it was in.
  void set_lane(FlightLane* lane, bool record_argv) {
    lane_ = lane;
    record_argv_ = record_argv;
  }

 private:
  // Where the rules (properties/judge/rules.h) report: this checker's violations, at the
  // call or start being judged.
  class WorldFindings final : public judge::Findings {
   public:
    WorldFindings(Checker& checker, const sim::World& world) : checker_(checker), world_(world) {}
    void fail(std::string_view invariant, std::string facts) override {
      checker_.fail(invariant, world_, std::move(facts));
    }
    void judged(std::string_view invariant) override;

   private:
    Checker& checker_;
    const sim::World& world_;
  };
  // What one call touched: the jobs it can have changed, on the server or in the ledger.
  // The ledger moves only the jobs a call's argv or reply names; the server changes only
  // what it writes, and every write goes through its keyspace's journal (sim/undo.h),
  // whatever the core meant to write: a sweep that moves a member past its LIMIT shows
  // there, not in its argv. So the per-call checks judge these jobs and no others. The
  // views point into the call's argv and reply and into the journals, which do not change
  // while the call is judged.
  struct Touched {
    std::vector<std::pair<std::string_view, std::string_view>> ids;  // (queue, id)
    std::vector<std::string_view> queues;  // judged whole: a set written whole, a new queue
    bool everything = false;               // a journal could not tell: the whole keyspace
  };
  // One write of the call, by the server or by the model (verb.model compares the keys).
  struct Write {
    std::string_view key, name;  // name: the hash field or zset member ("" for a whole key)
    sim::UndoLog::Wrote wrote = sim::UndoLog::Wrote::key;
  };

  // An id's place in core/invariants.h's list, found at compile time (a misspelt id does
  // not compile): judge() runs several times a call, and a map keyed by strings cost a
  // string and a tree walk each time.
  static consteval std::size_t id_of(std::string_view id) {
    for (std::size_t i = 0; i < trafikey::invariant_ids.size(); ++i) {
      if (trafikey::invariant_ids[i] == id) return i;
    }
    throw "not an invariant id of core/invariants.h";
  }
  void judge(std::size_t id) { ++judged_counts_[id]; }
  void fail(std::string_view id, const sim::World& world, std::string facts);
  void check_sweep(const sim::World& world, const sim::CallRecord& call);
  void check_lease_verb(const sim::World& world, const sim::CallRecord& call);
  void check_epoch_load(const sim::World& world);
  // A start after a rollback: judges what rollback_ names (see after_start).
  void judge_rollback(const sim::World& world, std::string_view when);
  void check_model(const sim::World& world, const sim::CallRecord& call);
  // The per-job judgements of a call the model predicted exactly: the server's keyspace is
  // the model's again, so check_touched would judge the model's own rows against its own
  // ledger, whose verdict on this history the audit (set_direct) establishes. What is
  // still judged here: the ledger's moves are edges, and the rows' states are followed
  // (follow: queue.transitions and the edges counted). False, having changed nothing, for
  // a call judged directly: direct_, no model, a reply or a write the model did not
  // predict, a queue first seen, not an EMQ verb (an operator's command may leave a row
  // outside every set, which only the sets show), a row or set written whole, a state
  // deleted.
  bool through_model(const sim::World& world, const sim::CallRecord& call);
  // queue.transitions: the ledger's move of `job` at `call`, if any, is an edge.
  void check_ledger_move(const sim::World& world, const sim::CallRecord& call, const model::JobTruth& job);
  // The verb as the spec spells it, or the command's name in upper case.
  std::string verb_text(const sim::CallRecord& call) const;
  // What the call touched (touched_): the jobs the ledger moved (Ledger::each_moved, read
  // from the argv and the reply) and what the server's journal holds.
  void collect_touched(const sim::World& world, const sim::CallRecord& call);
  void check_model_keyspace(const sim::World& world, std::string_view when);
  // The per-call form of check_state: the jobs `touched_` names.
  void check_touched(const sim::World& world);
  // id -> the state its row was last seen in. The keyspace's own map, so that one hash of
  // an id (FlatMap::hash_of) serves its four set lookups and this one.
  class Shadow {
   public:
    using Map = sim::FlatMap<std::string>;
    std::string* find(std::string_view id, std::uint32_t hash) {
      auto* e = map_.find(id, hash);
      return e ? &e->second : nullptr;
    }
    void set(std::string_view id, std::uint32_t hash, std::string_view state) {
      map_.try_emplace(id, hash).first->second = state;
    }
    void set(std::string_view id, std::string_view state) { set(id, Map::hash_of(id), state); }
    void erase(std::string_view id) {
      if (auto* e = map_.find(id)) map_.erase(e);
    }
    void clear() { map_.clear(); }

   private:
    Map map_;
  };
  // A queue the history's verbs have named: its key names, spelt once (spelt per call
  // judged, they cost as much as the judgement of a job), and the state each job's row was
  // last seen in, which transitions are judged against (rebuilt at every start:
  // persistence may roll rows back; hashed, as it is looked up for every job a call
  // touches).
  struct QueueState {
    explicit QueueState(std::string_view q) : keys(q) {}
    model::QueueNames keys;
    Shadow shadow;
    // The server's four sets (pending, active, done, dead), looked up again only when a
    // key came or went since (sim::Keyspace::shape), not for every call's judgements.
    sim::Keyspace::Lookups<4> sets;
  };
  // check_state's judgements of one queue: of every job (ids null) or of `ids` (sorted).
  // jobs: the ledger's job of each of `ids` (null: none), when the caller looked them up
  void check_queue(const sim::World& world, std::string_view q, QueueState& queue,
                   const std::vector<std::string_view>* ids, const std::vector<const model::JobTruth*>* jobs = nullptr);
  // queue.transitions: id's row is seen in `state`; a change from the state it was last
  // seen in is an edge (counted in graph_). hash: Shadow::Map::hash_of(id)
  void follow(const sim::World& world, Shadow& shadow, std::string_view id, std::uint32_t hash,
              std::string_view state);
  // hash: Shadow::Map::hash_of(id)
  void check_member(const sim::World& world, const judge::RowFacts& row, Shadow& shadow, std::string_view id,
                    std::uint32_t hash, std::span<const JobState> in);
  // One touched id of a queue, looked up once for both judgements (check_queue).
  struct Probe {
    std::string_view id;
    std::uint32_t hash = 0;  // Shadow::Map::hash_of(id)
    std::array<JobState, 4> in{};  // the sets holding it: in[0, sets)
    std::size_t sets = 0;
    judge::RowFacts row;
    const model::JobTruth* job = nullptr;
  };
  std::vector<Probe> probes_;

  std::vector<Violation> violations_;
  std::array<std::int64_t, trafikey::invariant_ids.size()> judged_counts_{};
  mutable std::map<std::string, std::int64_t> judged_;  // judged()'s answer, built from the counts
  StateGraph graph_;
  // The queues the history has touched, in name order (check_state's order).
  std::map<std::string, QueueState, std::less<>> queues_;
  // queues_'s entry of `q` (null: none). Most calls name the queue the call before did: the
  // last answer is kept (a map's entries stay where they are).
  std::pair<const std::string, QueueState>* known_queue(std::string_view q);
  std::pair<const std::string, QueueState>* last_queue_ = nullptr;
  // Snapshot taken in before_call for the call being judged.
  std::vector<std::pair<std::string, judge::JobBefore>> before_jobs_;  // lease verbs: the model's view
  // queue.grant: every grant id of the run (EMQ §8), where it was granted, lost ones too;
  // and, for a lease verb's pairs that present a wire 2 token, the row's `lease` before it
  std::map<std::string, std::string, std::less<>> grants_;
  std::vector<std::optional<std::string>> wire2_before_;
  // The row's `lease` on the server now (nullopt: no row, or none).
  std::optional<std::string> lease_of(const sim::World& world, std::string_view q, std::string_view id);
  // The highest token granted, by job, keyed "queue\0id": one string, looked up through
  // token_key()'s reused buffer rather than a pair of strings built per lookup.
  std::unordered_map<std::string, std::int64_t, StringHash, StringEqual> tokens_;
  std::string token_key_;
  std::string_view token_key(std::string_view q, std::string_view id) {
    token_key_.assign(q);
    token_key_.push_back('\0');
    token_key_.append(id);
    return token_key_;
  }
  // A sweep's expired rows before it, and the model's view of each of them.
  sim::SweepBefore sweep_;
  std::map<std::string, judge::JobBefore> sweep_ledger_;
  // What the rollback before this start takes back, copied before the world undoes it
  // (before_rollback) and by after_start from the model's journal: a start judges these
  // and not every job and key.
  struct Rollback {
    bool told = false;        // before_rollback ran since the last start
    bool everything = false;  // a journal could not tell, or a set was taken back whole
    std::vector<std::pair<std::string, std::string>> ids;  // (queue, id)
    std::vector<std::string> keys;                         // keys either side undid
  };
  Rollback rollback_;
  bool started_ = false;  // the first start judges everything
  bool whole_scans_ = false;
  bool direct_ = false;  // set_direct
  std::int64_t through_model_calls_ = 0;
  // through_model's list: (row key, state) of each row whose state the call wrote
  std::vector<std::pair<std::string_view, std::string_view>> states_;
  const sim::CallRecord* current_ = nullptr;
  model::EmqVerb verb_ = model::EmqVerb::none;  // the call's verb (before_call)
  // The call being judged: the journals' positions before it, and what it touched.
  std::int64_t server_from_ = -1, model_from_ = -1;
  Touched touched_;
  // The ledger's job of each of touched_.ids (null: none), as after_call looked them up
  std::vector<const model::JobTruth*> touched_jobs_;
  // check_touched's lists of one queue's ids and jobs (kept to reuse their buffers)
  std::vector<std::string_view> of_queue_;
  std::vector<const model::JobTruth*> of_jobs_;
  bool new_queue_ = false;  // the call's queue is first seen at it
  // check_model's list when the two sides did not make the same writes: the server's
  // first, then the model's
  std::vector<Write> writes_;
  std::size_t server_writes_ = 0;  // how many of writes_ are the server's
  std::vector<std::pair<std::string_view, JobState>> members_;  // check_queue's whole-queue list
  // verb.model: the model follows the world; expect_ is its prediction for the call.
  bool with_model_ = true;
  model::Model model_;
  model::Expectation expect_;
  bool accepted_ = false;  // expect_ accepts the server's reply to the call being judged
  FlightLane* lane_ = nullptr;  // set_lane
  bool record_argv_ = false;
  void record_call(const sim::World& world, Args argv);
};

}  // namespace trafikey::properties
