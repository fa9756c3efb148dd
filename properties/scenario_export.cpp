#include "properties/scenario_export.h"


#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "sim/history.h"
#include "sim/plan.h"
#include "sim/run_id.h"
#include "sim/scenario/reply_pattern.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/write.h"

namespace trafikey::properties {

namespace {

using Json = nlohmann::json;
namespace scn = trafikey::scenario;

// History strings carry bytes 0x80-0xff as \u0080-\u00ff (sim/history.h).
std::string bytes_of(const Json& value) { return sim::history_bytes(value.get<std::string>()); }

std::optional<Reply> reply_of(const Json& j) {
  if (j.is_number_integer()) return Reply::integer(j.get<std::int64_t>());
  if (j.is_string()) return Reply::bulk(bytes_of(j));
  if (j.is_null()) return Reply::nil();
  if (j.is_array()) {
    Reply out = Reply::array();
    for (const Json& item : j) {
      auto r = reply_of(item);
      if (!r) return std::nullopt;
      out.items().push_back(std::move(*r));
    }
    return out;
  }
  if (j.is_object() && j.contains("simple") && j["simple"].is_string()) return Reply::simple(bytes_of(j["simple"]));
  if (j.is_object() && j.contains("error") && j["error"].is_string()) return Reply::error(bytes_of(j["error"]));
  return std::nullopt;
}

std::int64_t int_field(const Json& j, const char* name, std::int64_t fallback) {
  return j.contains(name) && j[name].is_number_integer() ? j[name].get<std::int64_t>() : fallback;
}

// The options and a one-line description of what ran, from the header line.
bool read_header(const Json& header, scn::Options& options, std::string& what, bool& from_plan) {
  if (!header.is_object() || header.value("trafikey", "") != "history") return false;
  const std::string kind = header.value("kind", "");
  if (kind == "plan" && header.contains("plan")) {
    std::string error;
    const auto plan = sim::parse_plan(header["plan"].dump(), &error);
    if (!plan) return false;
    from_plan = true;
    options.persistence = plan->persistence;
    options.seed = plan->seed;
    options.snapshot_interval_ms = plan->snapshot_interval_ms;
    options.replication_lag_ms = plan->replication_lag_ms;
    what = "a generated run (plan seed " + std::to_string(plan->seed) + ", persistence " +
           std::string(sim::persistence_name(plan->persistence)) + ", " +
           std::to_string(plan->faults.size()) + " planned faults)";
    return true;
  }
  if (kind == "scenario" && header.contains("options") && header["options"].is_object()) {
    const Json& o = header["options"];
    auto mode = sim::parse_persistence(o.value("persistence", "always"));
    if (!mode || !o.contains("seed") || !o["seed"].is_number_unsigned()) return false;
    options.persistence = *mode;
    options.seed = o["seed"].get<std::uint64_t>();
    options.snapshot_interval_ms = int_field(o, "snapshot_interval_ms", options.snapshot_interval_ms);
    options.replication_lag_ms = int_field(o, "replication_lag_ms", options.replication_lag_ms);
    what = "a scenario run (\"" + header.value("title", "") + "\")";
    return true;
  }
  return false;
}

// One history line as steps (none for lines without a server effect). `run_ids`: the
// run_ids of the processes so far; `malformed_armed`: the epoch fault armed last was
// epoch_malformed (not epoch_fail).
bool add_steps(const Json& line, std::vector<scn::Step>& steps, std::vector<std::string>& run_ids,
               bool& malformed_armed, bool from_plan) {
  if (!line.is_object() || !line.contains("t") || !line["t"].is_number_integer()) return false;
  const std::int64_t at_ms = line["t"].get<std::int64_t>();  // the line's true time
  if (line.contains("call")) {
    if (!line["call"].is_array() || !line.contains("reply") || !line.contains("actor")) return false;
    scn::Call call;
    call.client = bytes_of(line["actor"]);
    for (const Json& arg : line["call"]) {
      if (!arg.is_string()) return false;
      call.argv.push_back(bytes_of(arg));
    }
    auto reply = reply_of(line["reply"]);
    if (!reply) return false;
    call.expect = scn::exact_pattern(*reply);
    if (line.value("lost", false)) steps.push_back({at_ms, 0, scn::Lose{call.client}});
    steps.push_back({at_ms, 0, std::move(call)});
    return true;
  }
  if (!line.contains("fault") || !line["fault"].is_string()) return true;  // verdict, phase, end
  const std::string fault = line["fault"].get<std::string>();
  const std::string run_id = line.contains("run_id") && line["run_id"].is_string() ? bytes_of(line["run_id"]) : "";
  if (fault == "start") run_ids.push_back(run_id);
  if (fault == "epoch_fail" || fault == "epoch_malformed") malformed_armed = fault == "epoch_malformed";
  if (fault == "restart" || fault == "failover") {
    // The run_id the process read: the step says it (`epoch RUN_ID`). Of a generated run,
    // every one: the scenario's seed draws run_ids of its own once the calls between
    // differ (a worker's draws, an adversarial client's), and a failure can hang on any two, not
    // only on a near one (one character off an earlier run_id, drawn on purpose): an
    // exemption that compares a prefix counts a lease across two run_ids sharing one, and
    // a minimized history that drops the step between them must keep both. Of a
    // scenario's run, exactly those its file gave (`given`): the rest its seed draws
    // again, so a minimized file re-recorded keeps the steps it had, no more.
    //
    // A process that read a run_id of the wrong shape had an epoch fault armed, whether or
    // not its module loaded (a core whose check is too loose loads it, and epoch.load
    // must break again on replay): the step gives the bytes it read (the world draws one
    // of several shapes, and a check too loose for one passes the others), `""` for an
    // empty read. An empty run_id is an empty read or a failed one: the fault armed last
    // says which. Arming either right before the start is the same as arming it when the
    // plan did; a fault the liveness phase disarmed before any start never shows here, as
    // it had no effect.
    const bool loaded = line.value("module", true);
    if (run_id.empty() && !malformed_armed) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::fail}});
    } else if (!sim::run_id_shape_ok(run_id)) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::malformed_text, run_id}});
    } else if (loaded && (from_plan || line.value("given", false))) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::run_id, run_id}});
    }
    run_ids.push_back(run_id);
    if (fault == "restart") {
      steps.push_back({at_ms, 0, scn::Restart{}});
    } else {
      steps.push_back({at_ms, 0, scn::Failover{}});
    }
  } else if (fault == "reload") {
    // a reload whose run_id read failed or was malformed (an epoch fault it met): the
    // step arms the same read right before it
    if (line.value("read_faulted", false)) {
      if (line.contains("read") && line["read"].is_string()) {
        steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::malformed_text, bytes_of(line["read"])}});
      } else {
        steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::fail}});
      }
    }
    steps.push_back({at_ms, 0, scn::Reload{}});
  } else if (fault == "replica" || fault == "primary") {
    steps.push_back({at_ms, 0, scn::ReplicaRole{fault == "replica"}});
  } else if (fault == "deny" || fault == "allow") {
    steps.push_back({at_ms, 0, scn::WriteDenied{line.contains("key") && line["key"].is_string() ? bytes_of(line["key"]) : ""}});
  } else if (fault == "clock_step") {
    steps.push_back({at_ms, 0, scn::ClockStep{int_field(line, "delta_ms", 0)}});
  } else if (fault == "clock_rate") {
    steps.push_back({at_ms, 0, scn::Drift{static_cast<double>(int_field(line, "rate_per_mille", 1000)) / 1000.0}});
  }
  // start (the first process), epoch_fail/epoch_malformed (see above), and the actors'
  // own events (worker_death, worker_pause, worker_resume, worker_clock, worker_start)
  // have no server effect: the calls they led to, or did not, are all in the history.
  return true;
}

}  // namespace

std::string export_scenario(const std::string& history_text, const std::vector<Violation>& violations) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < history_text.size();) {
    std::size_t end = history_text.find('\n', start);
    if (end == std::string::npos) end = history_text.size();
    lines.emplace_back(history_text.data() + start, end - start);
    start = end + 1;
  }
  if (lines.empty()) return {};
  scn::Scenario scenario;
  std::string what;
  bool from_plan = false;
  if (!read_header(Json::parse(lines[0], nullptr, false), scenario.options, what, from_plan)) return {};
  std::vector<std::string> run_ids;
  bool malformed_armed = false;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    if (!add_steps(Json::parse(lines[i], nullptr, false), scenario.steps, run_ids, malformed_armed, from_plan)) {
      return {};
    }
  }
  const std::int64_t last_ms = scenario.steps.empty() ? 0 : scenario.steps.back().time_ms;
  scenario.steps.push_back({last_ms, 0, scn::CheckInvariants{}});
  scenario.title = violations.empty() ? "replay of " + what
                                      : "replay: " + violations.front().describe();
  if (scn::find_defect(scenario)) return {};

  std::string out = "# Exported from the history of " + what + ".\n"
                    "# Every call is here with the reply the server gave, spelled out; faults are\n"
                    "# steps. Worker deaths, pauses and worker clock jumps are not: they have no\n"
                    "# server effect, and the calls they caused (or did not) are all here.\n";
  for (const Violation& v : violations) {
    // a comment ends at the newline: facts spanning lines would break the file; other
    // bytes outside printable ASCII (a binary payload's NUL, 0xff) are spelt \xHH, so the
    // file stays text
    out += "# broken: " + v.describe_line();
    out += "\n";
  }
  out += "\n";
  return out + scn::write_scenario(scenario);
}

}  // namespace trafikey::properties

