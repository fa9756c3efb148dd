// The properties: every generated history keeps the invariants of INVARIANTS.md.
//
// Budget: RC_PARAMS is set by CTest (properties/tests/CMakeLists.txt) to a fixed seed and
// a fixed number of runs per property, so CI runs the same histories every time and
// finishes in bounded time; `trafikey-sim campaign` explores further seeds.
//
// Each property draws from a plan space of its own (generators.h) and a RapidCheck seed
// of its own, RC_PARAMS' seed mixed with the property's name: no two properties run the
// same plans. A family property aims at its family's invariants, but a run that breaks
// any invariant fails it: the message says which invariant broke and whether it is one of
// the family's. (A run stops at its first violation, so a property that ignored the
// others could pass a run in which its own invariant was never reached.)
// On failure each property prints the invariant, the plan's seed and RapidCheck's
// reproduce string, and writes the failure files under failure_dir() (failure_files.h):
// the shrunk plan's history minimized to a 1-minimal scenario, the original beside it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "properties/campaign.h"
#include "properties/checked_run.h"
#include "properties/coverage.h"
#include "properties/failure_files.h"
#include "properties/generators.h"
#include "sim/prng.h"

// RapidCheck's own spelling of a reproduce string (src/detail/Serialization; not in its
// public headers): what it prints for RC_PARAMS="reproduce=...".
namespace rc::detail {
std::string reproduceMapToString(const std::unordered_map<std::string, Reproduce>& reproduceMap);
}  // namespace rc::detail

namespace trafikey::properties {
namespace {

// The last failing run of the current property: after RapidCheck's shrinking, its final
// counterexample, whose files check_property writes (minimizing once, not per shrink).
struct LastFailure {
  sim::RunPlan plan;
  std::string property;
  std::vector<Violation> violations;
};
std::optional<LastFailure>& last_failure() {
  static std::optional<LastFailure> last;
  return last;
}

using sim::FaultKind;

// The seed a property draws from: RC_PARAMS' seed mixed with the property's id (FNV-1a,
// then SplitMix64), so the same RC_PARAMS gives each property its own, fixed plans.
std::uint64_t property_seed(std::uint64_t seed, std::string_view id) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : id) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  std::uint64_t state = seed ^ h;
  return sim::splitmix64(state);
}

// RapidCheck's checkGTest with the property's own seed. A `reproduce=` string still
// replays a failure: it carries RapidCheck's random state, whatever the seed.
template <class Property>
void check_property(Property property) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.seed = property_seed(params.seed, metadata.id);
  const auto result = rc::detail::checkTestable(property, metadata, params);
  std::ostringstream out;
  if (result.template is<rc::detail::SuccessResult>()) {
    if (!result.template get<rc::detail::SuccessResult>().distribution.empty()) {
      rc::detail::printResultMessage(result, std::cout);
      std::cout << std::endl;
    }
  } else {
    rc::detail::printResultMessage(result, out);
    if (result.template is<rc::detail::FailureResult>() && last_failure()) {
      const auto& failure = result.template get<rc::detail::FailureResult>();
      const std::string reproduce = rc::detail::reproduceMapToString({{metadata.id, failure.reproduce}});
      FailureOptions options;
      options.reproduce = reproduce;
      const LastFailure& last = *last_failure();
      const FailureFiles files = write_failure(last.plan, failure_dir(), last.property, last.violations, options);
      out << "\nreproduce=" << reproduce << "\nfailure files (failure_files.h):\n  scenario: " << files.scenario_path
          << "\n  history:  " << files.history_path << "\n  original: " << files.original_history_path
          << "\n  plan:     " << files.plan_path << "\n";
      if (files.minimize_error.empty()) {
        out << "  minimized: " << files.minimized.calls_before << " -> " << files.minimized.calls_after
            << " calls (" << files.minimized.replays << " replays)\n";
      } else {
        out << "  not minimized: " << files.minimize_error << "\n";
      }
      if (!files.error.empty()) out << "  (" << files.error << ")\n";
    }
    FAIL() << out.str() << std::endl;
  }
}

// RC_GTEST_PROP with the property's own seed (check_property).
#define TRAFIKEY_PROP(Suite, Name)                              \
  void trafikey_prop_##Suite##_##Name();                        \
  TEST(Suite, Name) {                                           \
    target_invariant().reset();                                 \
    last_failure().reset();                                     \
    check_property(&trafikey_prop_##Suite##_##Name);            \
  }                                                             \
  void trafikey_prop_##Suite##_##Name()

// The invariant the first failing run of the current property broke. RapidCheck calls the
// property again for every shrink it tries; a candidate counts as failing only when it
// breaks the same invariant, so shrinking does not wander off to another one (as the
// campaign's shrinker does).
std::optional<std::string>& target_invariant() {
  static std::optional<std::string> target;
  return target;
}

// What the All property's runs reached (coverage.h): the runs RapidCheck generated, not
// the shrinks of a failure (a failing property fails anyway).
CampaignResult& all_coverage() {
  static CampaignResult coverage;
  return coverage;
}

// Runs the plan; fails on any violation (naming it, and whether it is of `family`), and
// writes the failure files. An empty family: every invariant is the property's own.
void hold(const sim::RunPlan& plan, std::initializer_list<std::string_view> family,
          const std::string& property, CampaignResult* coverage = nullptr) {
  // Every invariant judged directly on every call: the properties are the model's audit
  // (a campaign establishes the per-job judgements of a call the model predicted exactly
  // through the model's equality, which holds only as the model keeps every invariant).
  Checker checker;
  checker.set_direct(true);
  const CheckedRun run = run_checked(plan, false, checker);
  if (coverage && run.violations.empty()) {
    for (const auto& [k, n] : run.summary.faults) coverage->faults[k] += n;
    for (const auto& [k, n] : run.summary.verdicts) coverage->verdicts[k] += n;
    for (const auto& [k, n] : run.edges) coverage->edges[k] += n;
    for (const auto& [k, n] : run.summary.situations) coverage->situations[k] += n;
    ++coverage->passed;
  }
  RC_CLASSIFY(run.summary.faults.empty(), "no faults");
  for (const auto& [verdict, n] : run.summary.verdicts) RC_TAG(verdict);
  if (run.violations.empty()) return;
  const std::string& broke = run.violations.front().invariant;
  if (target_invariant() && *target_invariant() != broke) return;  // a shrink gone elsewhere
  target_invariant() = broke;
  const bool own = family.size() == 0 || std::find(family.begin(), family.end(), broke) != family.end();
  // The last failing call is the final counterexample: check_property writes its files.
  last_failure() = LastFailure{plan, property, run.violations};
  std::string message;
  if (own) {
    message = broke + " broke (one of this property's invariants)\n  ";
  } else {
    std::string names;
    for (const auto name : family) names += (names.empty() ? "" : ", ") + std::string(name);
    message = broke + " broke: not one of this property's (" + names +
              "), but a broken run fails every property\n  ";
  }
  message += run.violations.front().describe() + "\n  plan seed " + std::to_string(plan.seed) + ", " +
             std::to_string(plan.faults.size()) + " faults, " + std::to_string(plan.jobs) +
             " jobs";
  RC_FAIL(message);
}

PlanSpace space_of(std::vector<FaultKind> kinds) {
  PlanSpace s;
  s.kinds = std::move(kinds);
  return s;
}

TRAFIKEY_PROP(Epoch, no_lease_crossing_a_restart_is_counted_and_live_ones_are) {
  const auto plan = *gen_plan(space_of({FaultKind::restart, FaultKind::failover, FaultKind::epoch_fail,
                                        FaultKind::epoch_malformed, FaultKind::worker_pause,
                                        FaultKind::clock_step}));
  hold(plan, {"epoch.exempt", "epoch.counted", "epoch.stamp", "epoch.load"}, "epoch");
}

TRAFIKEY_PROP(Queue, jobs_are_conserved_fenced_and_charged_by_their_own_cause) {
  const auto plan = *gen_plan(space_of({FaultKind::restart, FaultKind::worker_death,
                                        FaultKind::worker_pause, FaultKind::lost_reply,
                                        FaultKind::worker_clock, FaultKind::clock_rate}));
  hold(plan, {"queue.conserve", "queue.transitions", "queue.fence", "queue.budget"}, "queue");
}

TRAFIKEY_PROP(Verb, refusals_write_nothing) {
  const auto plan = *gen_plan(refusal_space());
  hold(plan, {"verb.atomic"}, "verb");
}

TRAFIKEY_PROP(Liveness, every_job_drains_once_faults_stop) {
  const auto plan = *gen_plan(liveness_space());
  hold(plan, {"liveness.drain"}, "liveness");
}

// The All property also gates coverage (coverage.h, Antithesis' "sometimes"): over its
// runs every target must be reached at least once, or the test fails naming each one that
// was not. (In the property's own test, so the gate costs no runs of its own.)
// full_space with a share of large runs (the campaign's and the mutants' space has none:
// a mutant caught first in a large run shrinks too slowly to a short history)
const PlanSpace& all_space() {
  static const PlanSpace space = [] {
    PlanSpace s = full_space();
    s.large_per_mille = 50;
    s.bulk_claim_per_mille = 500;
    return s;
  }();
  return space;
}

void all_property() {
  const auto plan = *gen_plan(all_space());
  hold(plan, {}, "all", &all_coverage());
}

TEST(All, every_invariant_holds_under_every_fault_and_every_coverage_target_is_reached) {
  target_invariant().reset();
  last_failure().reset();
  all_coverage() = {};
  check_property(&all_property);
  const CampaignResult& reached = all_coverage();
  std::cout << "coverage over " << reached.passed << " passing runs:\n" << coverage_table(reached, all_space());
  const auto missing = unreached_targets(reached);
  std::string names;
  for (const auto& m : missing) names += "\n  " + m;
  EXPECT_TRUE(missing.empty()) << "coverage targets never reached within the budget:" << names;
}

// verb.model's own space: every reply and every written key against the model of EMQ.md
// (properties/model/) where the page is most particular. Write-losing persistence only,
// so restarts and failovers take the model back to the calls the world kept; leases short
// and extended late, so EXTEND, COMPLETE and the sweep land on the live window's edge;
// many failures against small and large budgets (a FAIL that requeues or kills); lost
// replies retried (an ADD of an existing id, a second COMPLETE); ghosts, lane rows and
// refused loads (the plain commands and the unknown-command replies the model predicts).
PlanSpace model_space() {
  PlanSpace s = full_space();
  s.persistence = {sim::Persistence::everysec, sim::Persistence::snapshot, sim::Persistence::none};
  s.faults_per_kind_max = 4;
  s.lease_ms_min = 100;
  s.lease_ms_max = 800;
  s.extend_at_per_mille_min = 700;
  s.extend_at_per_mille_max = 999;
  s.retry_per_mille_min = 500;
  s.fail_per_mille_max = 700;
  s.max_failures_max = 6;
  return s;
}

TRAFIKEY_PROP(Model, every_reply_is_the_one_the_spec_predicts) {
  const auto plan = *gen_plan(model_space());
  hold(plan, {"verb.model"}, "model");
}

// sim.determinism, as FoundationDB does it: a share of runs is executed twice.
TRAFIKEY_PROP(Sim, the_same_plan_gives_the_same_history) {
  const auto plan = *gen_plan(full_space());
  sim::RunOptions hash_only;
  hash_only.keep_history_text = false;
  const auto a = sim::run_plan(plan, hash_only);
  const auto b = sim::run_plan(plan, hash_only);
  RC_ASSERT(a.fingerprint == b.fingerprint);
}

}  // namespace
}  // namespace trafikey::properties
