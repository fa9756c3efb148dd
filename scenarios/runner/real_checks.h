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
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/reply.h"
#include "properties/checker.h"
#include "scenarios/runner/differential.h"
#include "scenarios/runner/real_session.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

class RealChecks {
 public:
  RealChecks(RealSession& session, const ScenarioKeys& keys) : session_(session), keys_(keys) {}

  // The step being run (named in a violation); nullptr before the first: "at start".
  void at_step(const Step* step) { step_ = step; }

  // epoch.load: EMQ.EPOCH of a new process answers its run_id.
  void judge_start(const RealSession::Process& process);

  // What a call's judgements need from before it: the digest, and the rows a sweep reads.
  struct SweepBefore {
    std::string queue;
    std::int64_t max_stalled = 0;
    std::string run_id;  // of the sweeping process
    std::map<std::string, Row> rows;
  };
  struct BeforeCall {
    std::string verb;    // upper case
    std::string digest;  // DEBUG DIGEST, when allowed
    SweepBefore sweep;   // for EMQ.STALLED.CHECK
  };
  BeforeCall before_call(const Call& call);
  // verb.atomic, epoch.exempt/epoch.counted for a sweep; and ghost bookkeeping (a plain
  // DEL of a row excuses its id from queue.conserve until an ADD makes it a job again).
  // `raw`: the reply as the server sent it; `reply`: with run_ids mapped.
  void after_call(const Call& call, const BeforeCall& before, const Reply& raw, const Reply& reply);

  // queue.conserve, queue.budget, epoch.stamp over the scenario's queues.
  void check_state();

  const std::vector<properties::Violation>& violations() const { return violations_; }
  const std::map<std::string, std::int64_t>& judged() const { return judged_; }

 private:
  void judge(const std::string& id) { ++judged_[id]; }
  void fail(const std::string& id, const std::string& facts);
  SweepBefore before_sweep(const std::vector<std::string>& argv);
  void judge_sweep(const SweepBefore& before, const Reply& reply);
  void track_ghosts(const Call& call, const Reply& reply);

  RealSession& session_;
  const ScenarioKeys& keys_;
  const Step* step_ = nullptr;
  std::set<std::pair<std::string, std::string>> ghosts_;  // (queue, id)
  std::vector<properties::Violation> violations_;
  std::map<std::string, std::int64_t> judged_;
};

}  // namespace trafikey::scenario
