// ScenarioReplay: a scenario's steps on the simulated server (sim/world.h) with the
// invariant checker attached to every step. The one interpreter of `.scn` steps on the
// sim: scenarios/runner/run_sim (the `scenario` and `replay` commands) is a thin user of
// it, and so is the history minimizer (history_minimizer.h), which properties/ (the
// property tests, the campaign, the mutants) run and which may not use scenarios/.
//
// The world is built from the scenario's options and its history begins with a
// `scenario` header naming the title and `file`. Each step first advances true time to
// its `at T`, then:
//   C: VERB ARGS => R   runs the call as client C; the reply the server gave must match R.
//                       After `lose C` the call still runs and C sees a timeout: R is
//                       matched against what the server answered (the history records it).
//   restart, failover   World::restart / failover
//   clock ±MS           World::step_clock;  drift RATE: set_clock_rate(RATE * 1000)
//   epoch fail|malformed, lose C: armed for the next start / C's next call
//   check row Q ID F=V  the row's fields (F=- absent); check set Q SET IDS: the members in order
//   check invariants    fails when the checker has seen any broken invariant so far (the
//                       whole-keyspace checks are run once more at this instant first)
// Nothing here reads the wall clock.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/invariants.h"
#include "properties/checker.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/token_names.h"
#include "sim/world.h"

namespace trafikey::properties {

// A step whose expectation did not hold: what the file said and what the server gave, in
// scenario notation; for `check invariants`, the first broken invariant's id.
struct StepMismatch {
  std::string expected;
  std::string actual;
  std::string invariant;
};

sim::WorldOptions scenario_world_options(const scenario::Options& options, bool keep_history);

class ScenarioReplay {
 public:
  ScenarioReplay(const scenario::Scenario& scenario, std::string_view file, bool keep_history);

  // Advances true time to the step's and does it. With `check` false nothing is compared
  // (replies, rows, sets and invariants are only recorded): the minimizer's way, since
  // while it drops steps the replies of later ones change.
  std::optional<StepMismatch> step(const scenario::Step& step, bool check = true);

  // Every step in order, stopping at the first mismatch, then the history's end line
  // (passed or failed). `on_call` sees each call step with its record (may be empty).
  // Returns the index of the failing step with its mismatch, or nullopt when all held.
  using OnCall = std::function<void(const scenario::Step&, const sim::CallRecord&)>;
  std::optional<std::pair<std::size_t, StepMismatch>> run(const OnCall& on_call = {});

  void end(CheckStatus status);

  const sim::World& world() const { return world_; }
  const Checker& checker() const { return checker_; }

 private:
  const scenario::Scenario& scenario_;
  Checker checker_;
  sim::World world_;
  scenario::TokenNames tokens_;  // the wire 2 tokens handed out so far, by name
};

}  // namespace trafikey::properties
