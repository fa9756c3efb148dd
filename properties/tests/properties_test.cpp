// The properties: every generated history keeps the invariants of INVARIANTS.md.
//
// Budget: RC_PARAMS is set by CTest (properties/tests/CMakeLists.txt) to a fixed seed and
// a fixed number of runs per property, so CI runs the same histories every time and
// finishes in bounded time; `trafikey-sim campaign` explores further seeds.
// On failure each property prints the invariant, the plan's seed and RapidCheck's
// reproduce string, and writes the failing history (and scenario) under failure_dir().
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>

#include "properties/checked_run.h"
#include "properties/failure_files.h"
#include "properties/generators.h"

namespace trafikey::properties {
namespace {

using sim::FaultKind;

// Runs the plan; on a violation of one of `family`, writes the failure files and fails.
void hold(const sim::RunPlan& plan, std::initializer_list<std::string_view> family,
          const std::string& property) {
  const CheckedRun run = run_checked(plan, false);
  std::vector<Violation> broken;
  for (const auto& v : run.violations) {
    if (family.size() == 0 || std::find(family.begin(), family.end(), v.invariant) != family.end()) {
      broken.push_back(v);
    }
  }
  RC_CLASSIFY(run.summary.faults.empty(), "no faults");
  for (const auto& [verdict, n] : run.summary.verdicts) RC_TAG(verdict);
  if (broken.empty()) return;
  // RapidCheck calls this again for every shrink it tries; the last failing call is the
  // final counterexample, so the files below end up holding the shrunk history.
  const FailureFiles files = write_failure(plan, failure_dir(), property, broken);
  std::string message = broken.front().describe() + "\n  plan seed " + std::to_string(plan.seed) +
                        ", " + std::to_string(plan.faults.size()) + " faults, " +
                        std::to_string(plan.jobs) + " jobs\n  history: " + files.history_path;
  if (!files.scenario_path.empty()) message += "\n  scenario: " + files.scenario_path;
  if (!files.error.empty()) message += "\n  (" + files.error + ")";
  RC_FAIL(message);
}

PlanSpace space_of(std::vector<FaultKind> kinds) {
  PlanSpace s;
  s.kinds = std::move(kinds);
  return s;
}

RC_GTEST_PROP(Epoch, no_lease_crossing_a_restart_is_counted_and_live_ones_are, ()) {
  const auto plan = *gen_plan(space_of({FaultKind::restart, FaultKind::failover, FaultKind::epoch_fail,
                                        FaultKind::epoch_malformed, FaultKind::worker_pause,
                                        FaultKind::clock_step}));
  hold(plan, {"epoch.exempt", "epoch.counted", "epoch.stamp", "epoch.load"}, "epoch");
}

RC_GTEST_PROP(Queue, jobs_are_conserved_fenced_and_charged_by_their_own_cause, ()) {
  const auto plan = *gen_plan(space_of({FaultKind::restart, FaultKind::worker_death,
                                        FaultKind::worker_pause, FaultKind::lost_reply,
                                        FaultKind::worker_clock, FaultKind::clock_rate}));
  hold(plan, {"queue.conserve", "queue.transitions", "queue.fence", "queue.budget"}, "queue");
}

RC_GTEST_PROP(Verb, refusals_write_nothing, ()) {
  const auto plan = *gen_plan(full_space());
  hold(plan, {"verb.atomic"}, "verb");
}

RC_GTEST_PROP(Liveness, every_job_drains_once_faults_stop, ()) {
  const auto plan = *gen_plan(full_space());
  hold(plan, {"liveness.drain"}, "liveness");
}

RC_GTEST_PROP(All, every_invariant_holds_under_every_fault, ()) {
  const auto plan = *gen_plan(full_space());
  hold(plan, {}, "all");
}

// sim.determinism, as FoundationDB does it: a share of runs is executed twice.
RC_GTEST_PROP(Sim, the_same_plan_gives_the_same_history, ()) {
  const auto plan = *gen_plan(full_space());
  sim::RunOptions hash_only;
  hash_only.keep_history_text = false;
  const auto a = sim::run_plan(plan, hash_only);
  const auto b = sim::run_plan(plan, hash_only);
  RC_ASSERT(a.fingerprint == b.fingerprint);
}

}  // namespace
}  // namespace trafikey::properties
