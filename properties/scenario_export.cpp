#include "properties/scenario_export.h"


#include <algorithm>
#include <cmath>

#include <optional>
#include <string_view>

#include "sim/history.h"
#include "sim/history_read.h"
#include "sim/plan.h"
#include "sim/run_id.h"
#include "sim/scenario/reply_pattern.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/token_names.h"
#include "sim/scenario/write.h"

namespace trafikey::properties {

namespace {

namespace scn = trafikey::scenario;
using sim::HistoryJson;
using sim::HistoryLine;

std::int64_t int_field(const HistoryJson& j, const char* name, std::int64_t fallback) {
  return j.contains(name) && j[name].is_number_integer() ? j[name].get<std::int64_t>() : fallback;
}

// The options and a one-line description of what ran, from the header line.
bool read_header(const HistoryJson& header, scn::Options& options, std::string& what, bool& from_plan) {
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
    const HistoryJson& o = header["options"];
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
void add_steps(const HistoryLine& line, std::vector<scn::Step>& steps, std::vector<std::string>& run_ids,
               bool& malformed_armed, bool from_plan) {
  const std::int64_t at_ms = line.at.true_ms;  // the line's true time
  if (line.kind == HistoryLine::Kind::call) {
    scn::Call call;
    call.client = line.actor;
    call.argv = line.argv;
    call.expect = scn::exact_pattern(line.reply);
    if (line.lost) steps.push_back({at_ms, 0, scn::Lose{call.client}});
    steps.push_back({at_ms, 0, std::move(call)});
    return;
  }
  if (line.kind != HistoryLine::Kind::fault) return;  // verdict, phase, end
  const std::string& fault = line.name;
  const std::string run_id = line.text("run_id").value_or("");
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
    const bool loaded = line.flag("module", true);
    if (run_id.empty() && !malformed_armed) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::fail}});
    } else if (!sim::run_id_shape_ok(run_id)) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::malformed_text, run_id}});
    } else if (loaded && (from_plan || line.flag("given", false))) {
      steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::run_id, run_id}});
    }
    run_ids.push_back(run_id);
    if (fault == "restart") {
      steps.push_back({at_ms, 0, scn::Restart{}});
    } else {
      steps.push_back({at_ms, 0, scn::Failover{}});
    }
  } else if (fault == "failback") {
    // one with no standby changed nothing (a plan's failback whose failover shrank away)
    if (line.flag("standby", true)) steps.push_back({at_ms, 0, scn::Failback{}});
  } else if (fault == "reload") {
    // a reload whose run_id read failed or was malformed (an epoch fault it met): the
    // step arms the same read right before it
    if (line.flag("read_faulted", false)) {
      if (const auto read = line.text("read")) {
        steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::malformed_text, *read}});
      } else {
        steps.push_back({at_ms, 0, scn::EpochFault{scn::EpochFault::Kind::fail}});
      }
    }
    steps.push_back({at_ms, 0, scn::Reload{}});
  } else if (fault == "replica" || fault == "primary") {
    steps.push_back({at_ms, 0, scn::ReplicaRole{fault == "replica"}});
  } else if (fault == "deny" || fault == "allow") {
    steps.push_back({at_ms, 0, scn::WriteDenied{line.text("key").value_or("")}});
  } else if (fault == "clock_step") {
    steps.push_back({at_ms, 0, scn::ClockStep{line.integer("delta_ms").value_or(0)}});
  } else if (fault == "clock_rate") {
    steps.push_back({at_ms, 0, scn::Drift{static_cast<double>(line.integer("rate_per_mille").value_or(1000)) / 1000.0}});
  }
  // start (the first process), epoch_fail/epoch_malformed (see above), and the actors'
  // own events (worker_death, worker_pause, worker_resume, worker_clock, worker_start)
  // have no server effect: the calls they led to, or did not, are all in the history.
}


// The file: what ran, the violations, then the scenario; its steps numbered by their lines.
void write_file(ExportedScenario& e, const std::vector<Violation>& violations) {
  std::string out = "# Exported from the history of " + e.what + ".\n"
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
  // wire 2 tokens by name (token_names.h) in the text only: the steps keep them spelt out,
  // so the minimizer's passes (which drop steps and rename clients) never change what a
  // name means; the file replays the same either way
  e.text = out + scn::write_scenario(scn::name_tokens(e.scenario));
  scn::number_steps(e.scenario, e.text);
}

std::string title_of(const std::string& what, const std::vector<Violation>& violations) {
  return violations.empty() ? "replay of " + what : "replay: " + violations.front().describe();
}

}  // namespace

std::optional<ExportedScenario> export_scenario(std::string_view history_text, const std::vector<Violation>& violations,
                                                std::string* error) {
  const auto fail = [&](const std::string& why) -> std::optional<ExportedScenario> {
    if (error) *error = why;
    return std::nullopt;
  };
  std::string why;
  const auto history = sim::read_history(history_text, &why);
  if (!history) return fail(why);
  return export_scenario(history->header, history->events, violations, error);
}

std::optional<ExportedScenario> export_scenario(const HistoryJson& header, const std::vector<HistoryLine>& events,
                                                const std::vector<Violation>& violations, std::string* error) {
  const auto fail = [&](const std::string& why) -> std::optional<ExportedScenario> {
    if (error) *error = why;
    return std::nullopt;
  };
  ExportedScenario e;
  bool from_plan = false;
  if (!read_header(header, e.scenario.options, e.what, from_plan)) {
    return fail("line 1: a history of kind '" + header.value("kind", "") +
                "' this build cannot write as a scenario (a plan's or a scenario's run is)");
  }
  std::vector<std::string> run_ids;
  bool malformed_armed = false;
  for (const HistoryLine& line : events) add_steps(line, e.scenario.steps, run_ids, malformed_armed, from_plan);
  const std::int64_t last_ms = e.scenario.steps.empty() ? 0 : e.scenario.steps.back().time_ms;
  e.scenario.steps.push_back({last_ms, 0, scn::CheckInvariants{}});
  e.scenario.title = title_of(e.what, violations);
  if (const auto defect = scn::find_defect(e.scenario)) return fail("the history does not write as a scenario: " + *defect);
  write_file(e, violations);
  return e;
}

bool note_violations(ExportedScenario& exported, const std::vector<Violation>& violations) {
  const std::string before = exported.scenario.title;
  exported.scenario.title = title_of(exported.what, violations);
  if (scn::find_defect(exported.scenario)) {
    exported.scenario.title = before;
    return false;
  }
  write_file(exported, violations);
  return true;
}

void prepend_comment(ExportedScenario& exported, const std::string& comment) {
  exported.text.insert(0, comment);
  scn::number_steps(exported.scenario, exported.text);
}

}  // namespace trafikey::properties
