// RealChecks (private to scenarios/runner): the invariants a real server lets the runner
// judge, from what it can read of the server (run_real.h lists them and their rules): a
// process's start (epoch.load), each call (verb.atomic, and epoch.exempt/epoch.counted
// for a STALLED.CHECK) and, at `check invariants`, the whole keyspace of the scenario's
// queues (queue.conserve, queue.budget, epoch.stamp).
//
// A broken invariant becomes a properties::Violation with no call index and no history
// line (0): its facts are the whole line, "ID (line N, t=T, real server): what".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/reply.h"
#include "properties/checker.h"
#include "properties/judge/rules.h"
#include "scenarios/runner/differential.h"
#include "scenarios/runner/real_session.h"
#include "sim/scenario/scenario.h"
#include "sim/sweep_before.h"

namespace trafikey::scenario {

// The scenario line of the step at which a real run's check broke (RealChecks' violations
// say "ID (line N, t=T, real server): ..."); 0 for one at the start or from elsewhere.
int real_violation_line(const properties::Violation& violation);

class RealChecks {
 public:
  RealChecks(RealSession& session, const ScenarioKeys& keys) : session_(session), keys_(keys) {}

  // The step being run (named in a violation); nullptr before the first: "at start".
  // `server_ms`: what the server's clock reads at it, when the runner holds that clock.
  void at_step(const Step* step, std::optional<std::int64_t> server_ms) {
    step_ = step;
    server_ms_ = server_ms;
  }

  // epoch.load: EMQ.EPOCH of a new process answers its run_id.
  void judge_start(const RealSession::Process& process);

  // What a call's judgements need from before it: the digest, and for a sweep the rows
  // it reads (captured as the sim captures them), the sweeping process and the run_ids.
  struct BeforeCall {
    std::string verb;    // upper case
    std::string digest;  // DEBUG DIGEST, when allowed
    sim::SweepBefore sweep;  // for EMQ.STALLED.CHECK (queue empty: none)
    int sweep_incarnation = 0;
    std::vector<std::string> sweep_run_ids;  // by incarnation; the sweeper's as its node says
    // (queue, id) of every member of a queue's set that a plain DEL or SET of the set is
    // about to take away: their rows (if any) stay behind, set by hand, as ghosts do
    std::vector<std::pair<std::string, std::string>> unset;
  };
  BeforeCall before_call(const Call& call);
  // verb.atomic, epoch.exempt/epoch.counted for a sweep; and ghost bookkeeping (a plain
  // DEL of a row, or of a set its id was in, excuses the id from queue.conserve until an
  // ADD makes it a job again).
  // `raw`: the reply as the server sent it; `reply`: with run_ids mapped.
  void after_call(const Call& call, const BeforeCall& before, const Reply& raw, const Reply& reply);

  // queue.conserve, queue.budget, epoch.stamp over the scenario's queues.
  void check_state();
  // A start (a restart that lost writes, a failover or failback to a copy that lagged)
  // whose dataset holds the writes of the first `kept_calls` calls only: the ghosts the
  // later calls made or unmade are undone, as the sim's ledger undoes them.
  void rolled_back(std::int64_t kept_calls);

  const std::vector<properties::Violation>& violations() const { return violations_; }
  const std::map<std::string, std::int64_t>& judged() const { return judged_; }
  // The parts of rules this server cannot let the runner judge, by invariant id, as the
  // judge named them (properties/judge/rules.h): skipped, not rewritten.
  const std::map<std::string, std::vector<std::string>>& unjudged() const { return unjudged_; }

 private:
  // Where the judge's rules report (properties/judge/facts.h).
  class Findings final : public properties::judge::Findings {
   public:
    explicit Findings(RealChecks& checks) : checks_(checks) {}
    void fail(std::string_view invariant, std::string facts) override;
    void skipped(std::string_view invariant, std::string_view part) override;

   private:
    RealChecks& checks_;
  };

  void judge(const std::string& id) { ++judged_[id]; }
  void fail(const std::string& id, const std::string& facts);
  void before_sweep(const std::vector<std::string>& argv, BeforeCall& out);
  void judge_sweep(const BeforeCall& before, const Reply& reply);
  void track_ghosts(const Call& call, const Reply& reply);

  RealSession& session_;
  const ScenarioKeys& keys_;
  const Step* step_ = nullptr;
  std::optional<std::int64_t> server_ms_;
  std::set<std::pair<std::string, std::string>> ghosts_;  // (queue, id)
  // Every change of ghosts_, by the index of the call that made it (0-based), so that a
  // start that kept only the first calls' writes undoes the rest (rolled_back).
  struct GhostChange {
    std::int64_t call = 0;
    bool ghost = true;  // became a ghost (else: a job again)
    std::pair<std::string, std::string> id;
  };
  std::vector<GhostChange> ghost_log_;
  void ghost(std::pair<std::string, std::string> id, bool is_ghost);
  static std::span<const std::string> keys_replaced(const Call& call);
  std::vector<properties::Violation> violations_;
  std::map<std::string, std::int64_t> judged_;
  std::map<std::string, std::vector<std::string>> unjudged_;
  Findings findings_{*this};
};

}  // namespace trafikey::scenario
