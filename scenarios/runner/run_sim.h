// run_on_sim: one scenario on the simulated server (sim/world.h), with the invariant
// checker (properties/checker.h) attached to every step. See shared spec SCENARIO.md.
//
// The steps run in properties::ScenarioReplay (properties/scenario_replay.h says what each
// step does); this adds what the runners compare: every call with its reply, the failing
// step quoted, the final keyspace. The run stops at the first step that fails.
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

// The run_ids the sim gives the scenario's incarnations, its steps replayed without a
// check: the seed's, or those its `epoch RUN_ID` steps give (a generated run's export
// pins every one). What a real runner maps its own run_ids to. Index 0 is unused, as in
// World::run_ids().
std::vector<std::string> sim_run_ids(const Scenario& scenario);

// What the sim keeps at each `restart` of the scenario, in order: the calls made before it
// and how many of them (the first `kept_calls`) the restarted process still has; fewer
// under everysec and snapshot when writes were not yet synced (sim/world.h). The
// real-server runner makes a server lose exactly the rest (RealSession::restart_keeping).
// A restart after a step the sim's run fails at is not listed.
struct SimRestart {
  std::int64_t calls_before = 0;
  std::int64_t kept_calls = 0;
};
std::vector<SimRestart> sim_restarts(const Scenario& scenario);

}  // namespace trafikey::scenario
