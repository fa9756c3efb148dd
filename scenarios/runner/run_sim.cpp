#include "scenarios/runner/run_sim.h"

#include "properties/scenario_replay.h"
#include "scenarios/runner/differential.h"
#include "sim/keyspace.h"
#include "sim/scenario/write.h"
#include "sim/world.h"

namespace trafikey::scenario {

namespace {

// The final keyspace of the scenario's keys, as the differential check reads it.
std::map<std::string, KeyValue> final_keys(const Scenario& scenario, const sim::World& world) {
  const ScenarioKeys keys = scenario_keys(scenario);
  const sim::Keyspace& data = world.data();
  std::map<std::string, KeyValue> out;
  for (const std::string& key : data.keys()) {
    if (!keys.wanted(key)) continue;
    KeyValue value;
    value.type = data.type(key);
    bool wrong = false;
    if (const std::string* s = data.string_at(key, wrong)) value.value = *s;
    if (const sim::Keyspace::Hash* h = data.hash_at(key, wrong)) value.items = *h;
    if (const sim::Keyspace::Zset* z = data.zset_at(key, wrong)) {
      for (const auto& [score, member] : z->order) value.items.emplace_back(member, sim::format_score(score));
    }
    out[key] = std::move(value);
  }
  return out;
}

}  // namespace

RunResult run_on_sim(const Scenario& scenario, const SimRunOptions& options,
                     std::vector<properties::Violation>* violations) {
  // The steps run in properties::ScenarioReplay, the interpreter the minimizer shares.
  properties::ScenarioReplay replay(scenario, options.file, options.keep_history);
  RunResult result;
  const auto failed = replay.run([&](const Step& step, const sim::CallRecord& rec) {
    const auto& call = std::get<Call>(step.action);
    result.calls.push_back({step.line, call.client, call.argv, rec.reply, rec.lost});
  });
  if (failed) {
    const Step& step = scenario.steps[failed->first];
    const properties::StepMismatch& m = failed->second;
    result.failure = StepFailure{step.line, write_step(step), m.expected, m.actual, m.invariant};
    result.status = CheckStatus::failed;
  }
  const sim::World& world = replay.world();
  result.violations = replay.checker().violations();
  result.judged = replay.checker().judged();
  result.history = world.history().text();
  result.incarnations = world.incarnation();
  result.final_keys = final_keys(scenario, world);
  result.clocks_agree = true;  // the sim's clock is the clock
  if (violations) *violations = replay.checker().violations();
  return result;
}

std::vector<std::string> sim_run_ids(const Scenario& scenario) {
  properties::ScenarioReplay replay(scenario, "", false);
  for (const Step& step : scenario.steps) (void)replay.step(step, false);
  return replay.world().run_ids();
}

std::vector<SimRestart> sim_restarts(const Scenario& scenario) {
  properties::ScenarioReplay replay(scenario, "", true);
  (void)replay.run();
  std::vector<SimRestart> out;
  std::int64_t calls = 0;
  for (const sim::HistoryLine& line : replay.world().history().events()) {
    if (line.kind == sim::HistoryLine::Kind::call) ++calls;
    if (line.kind == sim::HistoryLine::Kind::fault && line.name == "restart") {
      out.push_back({calls, line.integer("kept_calls").value_or(calls)});
    }
  }
  return out;
}

}  // namespace trafikey::scenario
