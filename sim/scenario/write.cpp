#include "sim/scenario/write.h"

#include <algorithm>
#include <charconv>

#include "core/assert.h"
#include "sim/keyspace.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

namespace {

// The shortest decimal that reads back as the same double.
std::string format_rate(double rate) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, rate);
  TRAFIKEY_ASSERT(ec == std::errc{}, "64 bytes hold any double's shortest form");
  return std::string(buf, end);
}

// Each action as text; a call without its "=> REPLY", so the writer can align arrows.
struct ActionText {
  std::string operator()(const Call& call) const {
    std::string out = call.client + ":";
    for (const std::string& arg : call.argv) {
      out += ' ';
      out += write_word(arg);
    }
    return out;
  }
  std::string operator()(const Restart&) const { return "restart"; }
  std::string operator()(const Failover&) const { return "failover"; }
  std::string operator()(const Failback&) const { return "failback"; }
  std::string operator()(const Reload&) const { return "reload"; }
  std::string operator()(const ReplicaRole& role) const { return role.replica ? "replica" : "primary"; }
  std::string operator()(const ClockStep& clock) const {
    return "clock " + std::string(clock.delta_ms < 0 ? "" : "+") + std::to_string(clock.delta_ms);
  }
  std::string operator()(const Drift& drift) const { return "drift " + format_rate(drift.rate); }
  std::string operator()(const EpochFault& fault) const {
    switch (fault.kind) {
      case EpochFault::Kind::fail: return "epoch fail";
      case EpochFault::Kind::malformed_drawn: return "epoch malformed";
      case EpochFault::Kind::malformed_text: return "epoch malformed " + sim::quote_bytes(fault.run_id);
      case EpochFault::Kind::run_id: return "epoch " + fault.run_id;
    }
    return "epoch fail";
  }
  std::string operator()(const Lose& lose) const { return "lose " + lose.client; }
  std::string operator()(const WriteDenied& denied) const {
    return denied.key.empty() ? "allow" : "deny " + write_word(denied.key);
  }
  std::string operator()(const CheckRow& row) const {
    std::string out = "check row " + write_word(row.queue) + " " + write_word(row.id);
    for (const FieldCheck& check : row.fields) {
      out += ' ';
      out += write_word(check.field);
      out += '=';
      out += check.value ? write_word(*check.value) : "-";
    }
    return out;
  }
  std::string operator()(const CheckSet& set) const {
    std::string out = "check set " + write_word(set.queue) + " " + std::string(set_name(set.set));
    for (const std::string& id : set.ids) {
      out += ' ';
      out += write_word(id);
    }
    return out;
  }
  std::string operator()(const CheckInvariants&) const { return "check invariants"; }
};

const ReplyPattern* expectation(const Action& action) {
  const auto* call = std::get_if<Call>(&action);
  return call && call->expect ? &*call->expect : nullptr;
}

void pad_to(std::string& out, std::size_t width) {
  if (out.size() < width) out.append(width - out.size(), ' ');
}

}  // namespace

std::string write_action(const Action& action) {
  std::string out = std::visit(ActionText{}, action);
  if (const ReplyPattern* expect = expectation(action)) out += " => " + to_notation(*expect);
  return out;
}

std::string write_step(const Step& step) {
  return "at " + std::to_string(step.time_ms) + " " + write_action(step.action);
}

void number_steps(Scenario& scenario, std::string_view file_text) {
  // write_scenario ends the file with one line per step
  const auto lines = static_cast<std::size_t>(std::count(file_text.begin(), file_text.end(), '\n'));
  TRAFIKEY_ASSERT(!file_text.empty() && file_text.back() == '\n' && lines >= scenario.steps.size(),
                  "number_steps: the text does not end with the scenario's steps");
  const std::size_t first = lines - scenario.steps.size() + 1;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) scenario.steps[i].line = static_cast<int>(first + i);
}

std::string write_scenario(const Scenario& scenario) {
  TRAFIKEY_ASSERT(!find_defect(scenario), "a scenario written must parse back: built in code, check it with find_defect");
  std::string out = "scenario " + sim::quote_bytes(scenario.title) + "\n";
  out += "option persistence " + std::string(persistence_name(scenario.options.persistence)) + "\n";
  out += "option seed " + std::to_string(scenario.options.seed) + "\n";
  const Options defaults;
  if (scenario.options.snapshot_interval_ms != defaults.snapshot_interval_ms) {
    out += "option snapshot_interval_ms " + std::to_string(scenario.options.snapshot_interval_ms) + "\n";
  }
  if (scenario.options.replication_lag_ms != defaults.replication_lag_ms) {
    out += "option replication_lag_ms " + std::to_string(scenario.options.replication_lag_ms) + "\n";
  }
  if (scenario.steps.empty()) return out;

  std::vector<std::string> texts;
  texts.reserve(scenario.steps.size());
  std::size_t time_width = 0;
  std::size_t arrow_width = 0;
  for (const Step& step : scenario.steps) {
    texts.push_back(std::visit(ActionText{}, step.action));
    time_width = std::max(time_width, std::to_string(step.time_ms).size());
    if (expectation(step.action) && texts.back().size() <= arrow_column_max) {
      arrow_width = std::max(arrow_width, texts.back().size());
    }
  }

  out += '\n';
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& step = scenario.steps[i];
    std::string line = "at " + std::to_string(step.time_ms);
    pad_to(line, 3 + time_width + 2);
    line += texts[i];
    if (const ReplyPattern* expect = expectation(step.action)) {
      pad_to(line, 3 + time_width + 2 + arrow_width + 2);
      if (line.back() != ' ') line += "  ";
      line += "=> " + to_notation(*expect);
    }
    out += line;
    out += '\n';
  }
  return out;
}

std::string field_list(const std::vector<FieldCheck>& fields,
                       const std::vector<std::optional<std::string>>& values) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ' ';
    out += write_word(fields[i].field) + "=" + (values[i] ? write_word(*values[i]) : "-");
  }
  return out;
}

std::string id_list(const std::vector<std::string>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + write_word(ids[i]);
  return out + "]";
}

}  // namespace trafikey::scenario
