// Checker: the invariants of shared spec INVARIANTS.md, judged on every step of a world.
//
// Attached to a World as its observer, the checker compares the server (its rows and
// sets, its replies) with the ledger (the reference model fed by replies) after every
// call, after every start of a server process, and over the whole keyspace at each step.
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

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/invariants.h"
#include "properties/model/model.h"
#include "properties/state_graph.h"
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
};

class Checker final : public sim::WorldObserver {
 public:
  Checker() = default;
  // without_model: verb.model not judged (the bench's measure of what the model costs)
  explicit Checker(bool with_model) : with_model_(with_model) {}

  void before_call(const sim::World& world, std::string_view actor, Args argv) override;
  void after_call(const sim::World& world, const sim::CallRecord& call) override;
  void after_start(const sim::World& world) override;
  void after_reload(const sim::World& world) override;
  void at_phase(const sim::World& world, std::string_view name) override;

  // The whole-keyspace checks (conserve, stamp, budget); after_call runs them too.
  void check_state(const sim::World& world);
  // liveness.drain: `outcome` is the run's ("drained" passes).
  void check_drain(const sim::World& world, std::string_view outcome, std::int64_t bound_ms);

  bool failed() const { return !violations_.empty(); }
  const std::vector<Violation>& violations() const { return violations_; }
  // How many times each invariant was judged (0: not judged in this history).
  const std::map<std::string, std::int64_t>& judged() const { return judged_; }
  const StateGraph& graph() const { return graph_; }

 private:
  struct RowSeen {  // a row as the server held it before a call
    bool exists = false;
    std::string state, stalled, failures, lease_epoch;
  };
  struct SweepBefore {
    std::string queue;
    std::int64_t max_stalled = 0;
    std::size_t limit = 0;
    std::vector<std::string> expired;                  // lowest deadline first
    std::map<std::string, RowSeen> rows;               // expired members' rows
    std::map<std::string, sim::JobTruth> ledger;       // the model before the sweep
  };

  void judge(std::string_view id) { ++judged_[std::string(id)]; }
  void fail(std::string_view id, const sim::World& world, std::string facts);
  void check_sweep(const sim::World& world, const sim::CallRecord& call);
  void check_lease_verb(const sim::World& world, const sim::CallRecord& call);
  void check_transitions(const sim::World& world);
  void check_epoch_load(const sim::World& world);
  void check_model(const sim::World& world, const sim::CallRecord& call);
  void check_model_keyspace(const sim::World& world, std::string_view when);

  std::vector<Violation> violations_;
  std::map<std::string, std::int64_t> judged_;
  StateGraph graph_;
  // The state each job's row was last seen in, per (queue, id): transitions are judged
  // against it. Rebuilt at every start (persistence may roll rows back).
  std::map<std::pair<std::string, std::string>, std::string> shadow_;
  std::set<std::string> queues_;  // queues the history has touched
  // Snapshot taken in before_call for the call being judged.
  std::map<std::string, sim::JobTruth> before_jobs_;  // lease verbs: the model's view
  std::map<std::pair<std::string, std::string>, std::int64_t> tokens_;  // highest token granted
  SweepBefore sweep_;
  const sim::CallRecord* current_ = nullptr;
  // verb.model: the model follows the world; expect_ is its prediction for the call.
  bool with_model_ = true;
  model::Model model_;
  model::Expectation expect_;
};

}  // namespace trafikey::properties
