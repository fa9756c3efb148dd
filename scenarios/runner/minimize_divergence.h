// Shrinking a divergence (issue 33): a scenario on which the sim and a real server
// disagree (run_differential fails) cut down with the history minimizer's passes
// (properties/history_minimizer.h minimize_steps) to steps on which they still disagree
// at the same call: the same step (by its line in the input), the same invariant, and for
// a disagreement the final keyspace shows, the same key. Every test is one
// run_differential on a fresh server, so each costs a server start and the run:
// MinimizeOptions::replay_budget bounds them.
//
// The minimal steps are then recorded on the sim (record_scenario: every reply the sim
// gives spelled out, a final `check invariants`), so `trafikey-sim scenario --differential
// --server-bin BIN FILE` reproduces the failure in one command: the real server answers
// otherwise at that call (or leaves that key otherwise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "properties/history_minimizer.h"
#include "scenarios/runner/run_real.h"
#include "scenarios/runner/run_result.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

struct MinimizedDivergence {
  bool failing = false;        // the input fails on run_differential
  std::string error;           // when !failing, or the minimal file does not fail: why
  StepFailure failure;         // the input's failure, as run_differential reports it
  StepFailure minimal_failure; // the minimal file's
  Scenario scenario;           // the minimal file, parsed
  std::string text;            // the minimal file (.scn)
  std::string history;         // its run on the sim (JSON Lines)
  std::size_t steps_before = 0, steps_after = 0;  // action steps
  std::int64_t calls_before = 0, calls_after = 0;
  int replays = 0;             // run_differential runs, the input's included
  int accepted = 0;            // candidates kept
  bool one_minimal = false;    // every pass ran to its end within the budget
};

MinimizedDivergence minimize_divergence(const Scenario& failing, const RealTarget& target,
                                        const properties::MinimizeOptions& options);

}  // namespace trafikey::scenario
