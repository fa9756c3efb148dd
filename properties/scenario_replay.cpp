#include "properties/scenario_replay.h"

#include <algorithm>
#include <cmath>

#include "properties/model/names.h"
#include "sim/history.h"
#include "sim/keyspace.h"
#include "sim/scenario/notation.h"
#include "sim/scenario/write.h"

namespace trafikey::properties {

namespace {

namespace scn = trafikey::scenario;

std::string header_json(const scn::Scenario& scenario, std::string_view file) {
  std::string out = "{\"title\":";
  sim::append_json_string(out, scenario.title);
  out += ",\"file\":";
  sim::append_json_string(out, file);
  out += ",\"options\":{\"persistence\":";
  sim::append_json_string(out, scn::persistence_name(scenario.options.persistence));
  out += ",\"seed\":" + std::to_string(scenario.options.seed);
  out += ",\"snapshot_interval_ms\":" + std::to_string(scenario.options.snapshot_interval_ms);
  out += ",\"replication_lag_ms\":" + std::to_string(scenario.options.replication_lag_ms);
  out += "}}";
  return out;
}

std::string key_kind(KeyType type) {
  return type == KeyType::none ? "no such key" : "the key holds a " + std::string(key_type_name(type));
}

using Mismatch = std::optional<StepMismatch>;

Mismatch mismatch(std::string expected, std::string actual, std::string invariant = {}) {
  return StepMismatch{std::move(expected), std::move(actual), std::move(invariant)};
}

// One step's action on the world; `check` false: nothing compared.
struct Act {
  sim::World& world;
  Checker& checker;
  scn::TokenNames& tokens;
  bool check;

  // Token names (token_names.h) resolved in the arguments, learnt from a CLAIM's reply,
  // then resolved in the expectation: a CLAIM's `@C/J` names the token it just handed out.
  Mismatch operator()(const scn::Call& call) const {
    const std::vector<std::string> sent = tokens.resolved(call.argv);
    std::vector<std::string_view> argv(sent.begin(), sent.end());
    const sim::CallRecord& rec = world.call(call.client, Args(argv));
    tokens.learn(call.client, sent, rec.reply);
    if (check && call.expect && !scn::matches(tokens.resolved(*call.expect), rec.reply)) {
      return mismatch(scn::to_notation(*call.expect),
                      scn::to_notation(rec.reply) + (rec.lost ? " (the server's reply; " + call.client +
                                                                    " lost it and saw a timeout)"
                                                              : ""));
    }
    return std::nullopt;
  }
  Mismatch operator()(const scn::Restart&) const {
    world.restart();
    return std::nullopt;
  }
  Mismatch operator()(const scn::Failover&) const {
    world.failover();
    return std::nullopt;
  }
  Mismatch operator()(const scn::Failback&) const {
    if (world.failback()) return std::nullopt;
    return mismatch("a demoted primary to fail back to (a failover before the failback)",
                    "no failover yet: nothing to fail back to");
  }
  Mismatch operator()(const scn::Reload&) const {
    world.reload();
    return std::nullopt;
  }
  Mismatch operator()(const scn::ReplicaRole& role) const {
    world.set_replica(role.replica);
    return std::nullopt;
  }
  Mismatch operator()(const scn::WriteDenied& denied) const {
    world.deny_writes(denied.key);
    return std::nullopt;
  }
  Mismatch operator()(const scn::ClockStep& clock) const {
    world.step_clock(clock.delta_ms);
    return std::nullopt;
  }
  Mismatch operator()(const scn::Drift& drift) const {
    world.set_clock_rate(std::llround(drift.rate * 1000.0));
    return std::nullopt;
  }
  Mismatch operator()(const scn::EpochFault& fault) const {
    if (fault.kind == scn::EpochFault::Kind::run_id) {
      world.arm_run_id(fault.run_id);
      return std::nullopt;
    }
    if (fault.kind == scn::EpochFault::Kind::malformed_text) {
      world.arm_malformed_run_id(fault.run_id);
      return std::nullopt;
    }
    world.arm_epoch_fault(fault.kind == scn::EpochFault::Kind::fail ? sim::EpochFault::fail
                                                                     : sim::EpochFault::malformed);
    return std::nullopt;
  }
  Mismatch operator()(const scn::Lose& lose) const {
    world.lose_next_reply(lose.client);
    return std::nullopt;
  }
  Mismatch operator()(const scn::CheckRow& row_check) const {
    if (!check) return std::nullopt;
    const std::string key = model::row_key(row_check.queue, row_check.id);
    const sim::Keyspace& data = world.data();
    bool wrong = false;
    const sim::Keyspace::Hash* row = data.hash_at(key, wrong);
    std::vector<std::optional<std::string>> expected, actual;
    for (const scn::FieldCheck& f : row_check.fields) {
      expected.push_back(f.value);
      const std::string* v = row ? sim::Keyspace::hash_field(*row, f.field) : nullptr;
      actual.push_back(v ? std::optional<std::string>(*v) : std::nullopt);
    }
    if (!row && std::any_of(expected.begin(), expected.end(), [](const auto& v) { return v.has_value(); })) {
      return mismatch(scn::field_list(row_check.fields, expected), "no row: " + key_kind(data.type(key)));
    }
    if (expected != actual) {
      return mismatch(scn::field_list(row_check.fields, expected), scn::field_list(row_check.fields, actual));
    }
    return std::nullopt;
  }
  Mismatch operator()(const scn::CheckSet& set_check) const {
    if (!check) return std::nullopt;
    const model::QueueNames keys(set_check.queue);
    std::string_view key;
    switch (set_check.set) {
      case scn::SetName::pending: key = keys.pending; break;
      case scn::SetName::active: key = keys.active; break;
      case scn::SetName::done: key = keys.done; break;
      case scn::SetName::dead: key = keys.dead; break;
    }
    bool wrong = false;
    const sim::Keyspace::Zset* z = world.data().zset_at(key, wrong);
    if (wrong) return mismatch(scn::id_list(set_check.ids), key_kind(world.data().type(key)));
    std::vector<std::string> members;
    if (z) {
      for (const auto& [score, id] : z->order) members.push_back(id);
    }
    if (members != set_check.ids) return mismatch(scn::id_list(set_check.ids), scn::id_list(members));
    return std::nullopt;
  }
  Mismatch operator()(const scn::CheckInvariants&) const {
    if (!check) return std::nullopt;
    checker.check_state(world);
    const auto& v = checker.violations();
    if (v.empty()) return std::nullopt;
    std::string actual = v.front().describe();
    if (v.size() > 1) actual += " (and " + std::to_string(v.size() - 1) + " more)";
    return mismatch("every invariant holds", actual, v.front().invariant);
  }
};

}  // namespace

sim::WorldOptions scenario_world_options(const scenario::Options& options, bool keep_history) {
  sim::WorldOptions w;
  w.seed = options.seed;
  w.persistence = options.persistence;
  w.snapshot_interval_ms = options.snapshot_interval_ms;
  w.replication_lag_ms = options.replication_lag_ms;
  w.keep_history_text = keep_history;
  return w;
}

ScenarioReplay::ScenarioReplay(const scenario::Scenario& scenario, std::string_view file, bool keep_history)
    : scenario_(scenario), world_(scenario_world_options(scenario.options, keep_history)) {
  world_.set_observer(&checker_);
  world_.begin("scenario", header_json(scenario, file));
}

std::optional<StepMismatch> ScenarioReplay::step(const scenario::Step& step, bool check) {
  world_.advance_to(step.time_ms);
  return std::visit(Act{world_, checker_, tokens_, check}, step.action);
}

std::optional<std::pair<std::size_t, StepMismatch>> ScenarioReplay::run(const OnCall& on_call) {
  std::optional<std::pair<std::size_t, StepMismatch>> failed;
  for (std::size_t i = 0; i < scenario_.steps.size(); ++i) {
    const scenario::Step& s = scenario_.steps[i];
    auto result = step(s);
    if (on_call && std::holds_alternative<scenario::Call>(s.action)) on_call(s, world_.last_call());
    if (result) {
      failed.emplace(i, std::move(*result));
      break;
    }
  }
  end(failed ? CheckStatus::failed : CheckStatus::passed);
  return failed;
}

void ScenarioReplay::end(CheckStatus status) { world_.end(status_name(status), ""); }

}  // namespace trafikey::properties
