// run_on_sim: one scenario on the simulated server (sim/world.h), with the invariant
// checker (properties/checker.h) attached to every step. See shared spec SCENARIO.md.
//
// The world is built from the scenario's options (persistence, seed, snapshot interval,
// replication lag) and its history begins with a `scenario` header. Each step first
// advances true time to its `at T`, then:
//   C: VERB ARGS => R   runs the call as client C; the reply the server gave must match R.
//                       After `lose C` the call still runs and C sees a timeout: R is
//                       matched against what the server answered (the history records it).
//   restart, failover   World::restart / failover
//   clock ±MS           World::step_clock;  drift RATE: set_clock_rate(RATE * 1000)
//   epoch fail|malformed, lose C: armed for the next start / C's next call
//   check row Q ID F=V  the row's fields (F=- absent); check set Q SET IDS: the members in order
//   check invariants    fails when the checker has seen any broken invariant so far (the
//                       whole-keyspace checks are run once more at this instant first)
// The run stops at the first step that fails. Nothing here reads the wall clock.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "properties/checker.h"
#include "scenarios/runner/run_result.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

struct SimRunOptions {
  std::string file;           // named in the history header (may be empty)
  bool keep_history = true;   // RunResult::history
};

RunResult run_on_sim(const Scenario& scenario, const SimRunOptions& options = {},
                     std::vector<properties::Violation>* violations = nullptr);

// The run_ids the sim gives incarnations 1..count of a scenario with these options, when
// no epoch fault intervenes (the seed alone decides them): what a real runner maps its
// own run_ids to. Index 0 is unused, as in World::run_ids().
std::vector<std::string> sim_run_ids(const Options& options, int count);

}  // namespace trafikey::scenario
