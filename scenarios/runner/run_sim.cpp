#include "scenarios/runner/run_sim.h"

#include <cmath>
#include <optional>

#include "core/keys.h"
#include "sim/history.h"
#include "sim/keyspace.h"
#include "scenarios/runner/differential.h"
#include "sim/scenario/notation.h"
#include "sim/scenario/write.h"
#include "sim/world.h"

namespace trafikey::scenario {

namespace {

sim::WorldOptions world_options(const Options& options, bool keep_history) {
  sim::WorldOptions w;
  w.seed = options.seed;
  w.persistence = options.persistence;
  w.snapshot_interval_ms = options.snapshot_interval_ms;
  w.replication_lag_ms = options.replication_lag_ms;
  w.keep_history_text = keep_history;
  return w;
}

std::string header_json(const Scenario& scenario, std::string_view file) {
  std::string out = "{\"title\":";
  sim::append_json_string(out, scenario.title);
  out += ",\"file\":";
  sim::append_json_string(out, file);
  out += ",\"options\":{\"persistence\":";
  sim::append_json_string(out, persistence_name(scenario.options.persistence));
  out += ",\"seed\":" + std::to_string(scenario.options.seed);
  out += ",\"snapshot_interval_ms\":" + std::to_string(scenario.options.snapshot_interval_ms);
  out += ",\"replication_lag_ms\":" + std::to_string(scenario.options.replication_lag_ms);
  out += "}}";
  return out;
}

std::string key_kind(KeyType type) {
  return type == KeyType::none ? "no such key" : "the key holds a " + std::string(key_type_name(type));
}

// Walks the steps; one instance per run.
class SimRunner {
 public:
  SimRunner(const Scenario& scenario, const SimRunOptions& options)
      : scenario_(scenario), world_(world_options(scenario.options, options.keep_history)) {
    world_.set_observer(&checker_);
    world_.begin("scenario", header_json(scenario, options.file));
  }

  RunResult run() {
    RunResult result;
    for (const Step& step : scenario_.steps) {
      world_.advance_to(step.time_ms);
      step_ = &step;
      if (auto failure = std::visit([&](const auto& action) { return act(action, result); }, step.action)) {
        failure->line = step.line;
        failure->step = write_step(step);
        result.failure = std::move(*failure);
        result.status = CheckStatus::failed;
        break;
      }
    }
    world_.end(status_name(result.status), "");
    result.violations = checker_.violations();
    result.judged = checker_.judged();
    result.history = world_.history().text();
    result.incarnations = world_.incarnation();
    result.final_keys = final_keys();
    return result;
  }

  const std::vector<properties::Violation>& violations() const { return checker_.violations(); }

 private:
  using Failure = std::optional<StepFailure>;
  static Failure failed(std::string expected, std::string actual, std::string invariant = {}) {
    return StepFailure{0, {}, std::move(expected), std::move(actual), std::move(invariant)};
  }

  Failure act(const Call& call, RunResult& result) {
    std::vector<std::string_view> argv(call.argv.begin(), call.argv.end());
    const sim::CallRecord& rec = world_.call(call.client, Args(argv));
    result.calls.push_back({step_->line, call.client, call.argv, rec.reply, rec.lost});
    if (call.expect && !matches(*call.expect, rec.reply)) {
      return failed(to_notation(*call.expect),
                    to_notation(rec.reply) + (rec.lost ? " (the server's reply; " + call.client +
                                                             " lost it and saw a timeout)"
                                                       : ""));
    }
    return std::nullopt;
  }
  Failure act(const Restart&, RunResult&) {
    world_.restart();
    return std::nullopt;
  }
  Failure act(const Failover&, RunResult&) {
    world_.failover();
    return std::nullopt;
  }
  Failure act(const Reload&, RunResult&) {
    world_.reload();
    return std::nullopt;
  }
  Failure act(const ClockStep& clock, RunResult&) {
    world_.step_clock(clock.delta_ms);
    return std::nullopt;
  }
  Failure act(const Drift& drift, RunResult&) {
    world_.set_clock_rate(std::llround(drift.rate * 1000.0));
    return std::nullopt;
  }
  Failure act(const EpochFault& fault, RunResult&) {
    world_.arm_epoch_fault(fault.kind == EpochFault::Kind::fail ? sim::EpochFault::fail
                                                                 : sim::EpochFault::malformed);
    return std::nullopt;
  }
  Failure act(const Lose& lose, RunResult&) {
    world_.lose_next_reply(lose.client);
    return std::nullopt;
  }
  Failure act(const CheckRow& check, RunResult&) {
    const std::string key = QueueKeys(check.queue).row(check.id);
    const sim::Keyspace& data = world_.data();
    bool wrong = false;
    const sim::Keyspace::Hash* row = data.hash_at(key, wrong);
    std::vector<std::optional<std::string>> expected, actual;
    for (const FieldCheck& f : check.fields) {
      expected.push_back(f.value);
      const std::string* v = row ? sim::Keyspace::hash_field(*row, f.field) : nullptr;
      actual.push_back(v ? std::optional<std::string>(*v) : std::nullopt);
    }
    if (!row && std::any_of(expected.begin(), expected.end(), [](const auto& v) { return v.has_value(); })) {
      return failed(field_list(check.fields, expected), "no row: " + key_kind(data.type(key)));
    }
    if (expected != actual) return failed(field_list(check.fields, expected), field_list(check.fields, actual));
    return std::nullopt;
  }
  Failure act(const CheckSet& check, RunResult&) {
    const QueueKeys keys(check.queue);
    std::string_view key;
    switch (check.set) {
      case SetName::pending: key = keys.pending(); break;
      case SetName::active: key = keys.active(); break;
      case SetName::done: key = keys.done(); break;
      case SetName::dead: key = keys.dead(); break;
    }
    bool wrong = false;
    const sim::Keyspace::Zset* z = world_.data().zset_at(key, wrong);
    if (wrong) return failed(id_list(check.ids), key_kind(world_.data().type(key)));
    std::vector<std::string> members;
    if (z) {
      for (const auto& [score, id] : z->order) members.push_back(id);
    }
    if (members != check.ids) return failed(id_list(check.ids), id_list(members));
    return std::nullopt;
  }
  Failure act(const CheckInvariants&, RunResult&) {
    checker_.check_state(world_);
    const auto& v = checker_.violations();
    if (v.empty()) return std::nullopt;
    std::string actual = v.front().describe();
    if (v.size() > 1) actual += " (and " + std::to_string(v.size() - 1) + " more)";
    return failed("every invariant holds", actual, v.front().invariant);
  }

  std::map<std::string, std::string> final_keys() const {
    const ScenarioKeys keys = scenario_keys(scenario_);
    const sim::Keyspace& data = world_.data();
    std::map<std::string, std::string> out;
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
      out[key] = normalised_key_text(key, value, keys);
    }
    return out;
  }

  const Scenario& scenario_;
  properties::Checker checker_;
  sim::World world_;
  const Step* step_ = nullptr;
};

}  // namespace

RunResult run_on_sim(const Scenario& scenario, const SimRunOptions& options,
                     std::vector<properties::Violation>* violations) {
  SimRunner runner(scenario, options);
  RunResult result = runner.run();
  if (violations) *violations = runner.violations();
  return result;
}

std::vector<std::string> sim_run_ids(const Options& options, int count) {
  sim::World world(world_options(options, false));
  world.begin("scenario", "{}");
  for (int i = 1; i < count; ++i) world.restart();
  return world.run_ids();
}

}  // namespace trafikey::scenario
