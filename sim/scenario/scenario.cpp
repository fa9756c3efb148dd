#include "sim/scenario/scenario.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/commands.h"
#include "sim/run_id.h"
#include "sim/lua.h"
#include "sim/plain.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

namespace {
constexpr std::array<std::string_view, 4> set_names = {"pending", "active", "done", "dead"};
}  // namespace

std::string_view set_name(SetName set) {
  const auto i = static_cast<std::size_t>(set);
  return i < set_names.size() ? set_names[i] : "?";
}

std::optional<SetName> parse_set_name(std::string_view name) {
  for (std::size_t i = 0; i < set_names.size(); ++i) {
    if (set_names[i] == name) return static_cast<SetName>(i);
  }
  return std::nullopt;
}

bool sim_only(const Step& step) {
  // `epoch RUN_ID` only names the sim's next run_id, which a real runner maps its own to;
  // a failed or malformed read is the sim's alone. (`replica` and `deny` a real server
  // the runner starts takes: a replica of a dead port, an ACL.)
  const auto* epoch = std::get_if<EpochFault>(&step.action);
  return epoch && epoch->kind != EpochFault::Kind::run_id;
}

bool real_capable(const Scenario& scenario) {
  return std::none_of(scenario.steps.begin(), scenario.steps.end(),
                      [](const Step& step) { return sim_only(step); });
}

bool is_client_name(std::string_view name) {
  return is_plain_word(name) && name.find(':') == std::string_view::npos;
}

bool is_known_verb(std::string_view name) {
  // The command table's names in any case, matched here rather than by find_command: a
  // scenario names what a client may send, whatever the core under test makes of it.
  const auto table = command_table();
  const bool verb = std::any_of(table.begin(), table.end(),
                                [&](const CommandSpec& spec) { return equals_ignore_case(name, spec.name); });
  return verb || sim::is_plain_command(name) || sim::Scripting::handles(name);
}

std::string known_verbs() {
  std::string out = "an EMQ verb, a plain command (";
  for (const std::string& name : sim::plain_command_names()) out += (out.back() == '(' ? "" : " ") + name;
  out += ") or a script command (";
  for (const std::string_view name : sim::Scripting::command_names) {
    out += (out.back() == '(' ? "" : " ") + std::string(name);
  }
  return out + ")";
}

namespace {

int pattern_depth(const ReplyPattern& pattern) {
  int deepest = 0;
  for (const ReplyPattern& item : pattern.items) deepest = std::max(deepest, pattern_depth(item));
  return pattern.kind == ReplyPattern::Kind::array ? deepest + 1 : 0;
}

bool pattern_kinds_named(const ReplyPattern& pattern) {
  if (static_cast<int>(pattern.kind) > static_cast<int>(ReplyPattern::Kind::any)) return false;
  return std::all_of(pattern.items.begin(), pattern.items.end(), pattern_kinds_named);
}

// The defect of one action, or nullopt.
struct ActionDefect {
  std::optional<std::string> operator()(const Call& call) const {
    if (!is_client_name(call.client)) return "a client name must be a plain word without ':'";
    if (call.argv.empty()) return "a call needs a verb";
    if (!is_known_verb(call.argv[0])) return "unknown verb " + call.argv[0];
    if (call.expect && !pattern_kinds_named(*call.expect)) return "a reply pattern of no kind";
    if (call.expect && pattern_depth(*call.expect) > reply_depth_max) {
      return "a reply pattern nests deeper than " + std::to_string(reply_depth_max);
    }
    return std::nullopt;
  }
  std::optional<std::string> operator()(const ClockStep& clock) const {
    if (clock.delta_ms < -time_ms_max || clock.delta_ms > time_ms_max) {
      return "a clock step beyond " + std::to_string(time_ms_max) + " ms";
    }
    return std::nullopt;
  }
  std::optional<std::string> operator()(const Drift& drift) const {
    if (!(drift.rate >= 0 && drift.rate <= drift_rate_max)) return "a drift rate out of 0..1000";
    return std::nullopt;
  }
  std::optional<std::string> operator()(const EpochFault& fault) const {
    if (fault.kind != EpochFault::Kind::fail && fault.kind != EpochFault::Kind::malformed_drawn &&
        fault.kind != EpochFault::Kind::malformed_text && fault.kind != EpochFault::Kind::run_id) {
      return "an epoch fault of no kind";
    }
    if (fault.kind == EpochFault::Kind::run_id && !sim::run_id_shape_ok(fault.run_id)) {
      return "an epoch run_id must be 40 lowercase hex digits";
    }
    if (fault.kind == EpochFault::Kind::malformed_drawn && !fault.run_id.empty()) {
      return "a drawn malformed run_id has no text";
    }
    if (fault.kind == EpochFault::Kind::malformed_text && sim::run_id_shape_ok(fault.run_id)) {
      return "a malformed epoch run_id must not be 40 lowercase hex digits";
    }
    return std::nullopt;
  }
  std::optional<std::string> operator()(const Lose& lose) const {
    if (!is_client_name(lose.client)) return "a client name must be a plain word without ':'";
    return std::nullopt;
  }
  std::optional<std::string> operator()(const CheckRow& row) const {
    if (row.fields.empty()) return "a row check needs at least one field";
    for (std::size_t i = 0; i < row.fields.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (row.fields[i].field == row.fields[j].field) return "a row check names a field twice";
      }
    }
    return std::nullopt;
  }
  std::optional<std::string> operator()(const CheckSet& set) const {
    if (set_name(set.set) == "?") return "a set of no name";
    return std::nullopt;
  }
  std::optional<std::string> operator()(const Restart&) const { return std::nullopt; }
  std::optional<std::string> operator()(const Failover&) const { return std::nullopt; }
  std::optional<std::string> operator()(const Failback&) const { return std::nullopt; }
  std::optional<std::string> operator()(const Reload&) const { return std::nullopt; }
  std::optional<std::string> operator()(const ReplicaRole&) const { return std::nullopt; }
  std::optional<std::string> operator()(const WriteDenied&) const { return std::nullopt; }
  std::optional<std::string> operator()(const CheckInvariants&) const { return std::nullopt; }
};

}  // namespace

std::optional<std::string> find_defect(const Scenario& scenario) {
  if (static_cast<int>(scenario.options.persistence) > static_cast<int>(Persistence::none)) {
    return "a persistence of no name";
  }
  for (std::int64_t ms : {scenario.options.snapshot_interval_ms, scenario.options.replication_lag_ms}) {
    if (ms < 1 || ms > interval_ms_max) return "an interval option outside 1.." + std::to_string(interval_ms_max);
  }
  std::int64_t previous_ms = 0;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& step = scenario.steps[i];
    const std::string where = "step " + std::to_string(i + 1) + ": ";
    if (step.time_ms < 0 || step.time_ms > time_ms_max) return where + "time out of range";
    if (step.time_ms < previous_ms) return where + "time goes backwards";
    previous_ms = step.time_ms;
    if (auto defect = std::visit(ActionDefect{}, step.action)) return where + *defect;
  }
  return std::nullopt;
}

}  // namespace trafikey::scenario
