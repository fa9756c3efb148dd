#include "cli/campaign_differential.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/campaign_dashboard.h"
#include "cli/campaign_junit.h"
#include "cli/minimize_progress.h"
#include "core/invariants.h"
#include "properties/campaign.h"
#include "properties/campaign_summary.h"
#include "properties/failure_file_names.h"
#include "properties/history_minimizer.h"
#include "properties/scenario_export.h"
#include "scenarios/runner/minimize_divergence.h"
#include "scenarios/runner/run_real.h"
#include "scenarios/runner/run_result.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::cli {

namespace {

using properties::FailureFile;

std::string failure_file(FailureFile file) {
  return properties::failure_file_name(properties::campaign_failure_name, file);
}

// Fault kinds the real runner cannot do (sim/scenario/scenario.h sim_only): a real
// server's run_id read never fails and is never malformed.
constexpr sim::FaultKind sim_only_kinds[] = {sim::FaultKind::epoch_fail, sim::FaultKind::epoch_malformed};

std::string kind_name(sim::FaultKind kind) {
  return std::string(sim::fault_kind_names()[static_cast<std::size_t>(kind)]);
}

bool sim_only_kind(sim::FaultKind kind) {
  return std::find(std::begin(sim_only_kinds), std::end(sim_only_kinds), kind) != std::end(sim_only_kinds);
}

// One run's outcome.
struct RunOutcome {
  int run = -1;
  bool failed = false;
  std::string what;          // the failure, as describe_failure prints it
  std::string invariant;     // the failure's (sim.differential, or a real check's)
  std::string scenario_text; // the exported scenario (kept for a failure)
  std::optional<scenario::Scenario> scenario;  // it parsed (for the minimizer)
  sim::RunPlan plan;
  std::int64_t calls = 0;    // calls on the sim (the real server's are the same)
  properties::CampaignResult::RunCoverage coverage;  // the sim run's, with what was judged
};

RunOutcome run_one(const properties::PlanSpace& space, std::uint64_t seed, int run,
                   const scenario::RealTarget& target) {
  RunOutcome out;
  out.run = run;
  sim::RunPlan plan;
  {
    // RapidCheck's generation keeps process-wide state: one plan drawn at a time (as the
    // campaign draws them, properties/campaign.cpp)
    static std::mutex generation;
    std::lock_guard lock(generation);
    plan = properties::campaign_plan(space, seed, run);
  }
  // A restart or failover at true time 0 comes at 1 ms, after the clock step to wall time
  // (below): a Redis 7.0 that loads an append-only file while its clock reads 0 ms asserts
  // (server.c whileBlockedCron: blocked_last_cron is the cached time, and 0 reads as
  // "never started"), and a failover restarts the promoted replica (RealSession::failover).
  for (sim::Fault& f : plan.faults) {
    const bool starts = f.kind() == sim::FaultKind::restart || f.kind() == sim::FaultKind::failover;
    if (f.at_ms == 0 && starts) f.at_ms = 1;
  }
  out.plan = plan;
  sim::RunOptions options;
  options.keep_history_text = true;
  const sim::RunSummary summary = sim::run_plan(plan, options);
  out.calls = summary.calls;
  out.coverage = properties::CampaignResult::RunCoverage::of(run, summary);
  properties::CampaignResult::RunCoverage& cov = out.coverage;
  std::string error;
  const auto exported = properties::export_scenario(summary.history, {}, &error);
  if (!exported) {
    out.failed = true;
    out.what = "its history does not export as a scenario: " + error;
    return out;
  }
  out.scenario_text = exported->text;
  out.scenario = exported->scenario;
  if (const std::string why = scenario::real_skip_reason(exported->scenario, target); !why.empty()) {
    out.failed = true;
    out.what = "its scenario has a step the real runner cannot take (the plan space should have left it out): " + why;
    return out;
  }
  const scenario::RunResult result = scenario::run_differential(exported->scenario, target);
  cov.judged = result.judged;
  if (result.status == CheckStatus::failed) {
    out.failed = true;
    out.invariant = result.failure && !result.failure->invariant.empty() ? result.failure->invariant
                                                                          : "sim.differential";
    out.what = result.failure ? scenario::describe_failure(failure_file(FailureFile::original_scenario), *result.failure)
                              : "failed";
    for (const auto& v : result.violations) out.what += "  broken: " + v.describe_line() + "\n";
  }
  cov.failed = out.failed;
  return out;
}

// The campaign's summary (campaign.json): the fold of every finished run in run order up
// to the first failure, as a sim campaign's (properties/campaign_summary.h), so that
// shards merge and the dashboard and JUnit read it.
properties::CampaignSummary summary_of(const DifferentialCampaign& args, const std::map<int, RunOutcome>& finished,
                                       const std::optional<RunOutcome>& failure) {
  properties::CampaignResult result;
  for (const auto& [run, o] : finished) {
    if (failure && run > failure->run) break;
    ++result.started;
    result.coverage.push_back(o.coverage);
    if (o.failed) {
      ++result.failed;
      continue;
    }
    ++result.passed;
    result.calls_per_run.push_back(o.calls);
  }
  properties::CampaignOptions options;
  options.seed = args.seed;
  options.runs = args.runs;
  options.determinism_every = 0;
  if (args.shard) {
    options.shard_index = args.shard->first;
    options.shard_count = args.shard->second;
  }
  properties::CampaignSummary s = properties::summarize(result, options, args.faults, args.shard.has_value());
  s.differential = args.server_bin;
  return s;
}

}  // namespace

int run_differential_campaign(const DifferentialCampaign& args) {
  const auto started = std::chrono::steady_clock::now();
  properties::PlanSpace space = properties::full_space();
  if (!args.faults.empty()) {
    std::string error;
    auto kinds = sim::parse_fault_list(args.faults, &error);
    if (!kinds) {
      std::cerr << "trafikey-sim campaign: --faults: " << error << " (" << sim::fault_list_help() << ")\n";
      return 2;
    }
    for (const sim::FaultKind kind : *kinds) {
      if (sim_only_kind(kind)) {
        std::cerr << "trafikey-sim campaign: --faults: " << kind_name(kind)
                  << " is sim-only: a real server's run_id read never fails (--differential leaves it out)\n";
        return 2;
      }
    }
    space.kinds = *kinds;
  }
  std::vector<std::string> left_out;
  for (const sim::FaultKind kind : sim_only_kinds) left_out.push_back(kind_name(kind));
  std::erase_if(space.kinds, sim_only_kind);
  // Every run's server clock at wall time from the start (PlanSpace::wall_clock_per_mille):
  // a Redis 7.0 that loads an append-only file while its clock reads 0 ms or less asserts
  // (server.c whileBlockedCron: blocked_last_cron is the cached time, and 0 reads as "not
  // started"), and the runner holds its clock at the sim's server time, which a run's
  // clock steps take below 0. Small clocks stay the sim campaign's.
  space.wall_clock_per_mille = 1000;
  std::erase_if(space.kinds_drawn_last, sim_only_kind);
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec) {
    std::cerr << "trafikey-sim campaign: --out: cannot create " << args.out << ": " << ec.message() << "\n";
    return 2;
  }

  scenario::RealTarget target;
  target.server_bin = args.server_bin;
  target.module_path = args.module_path.empty() ? TRAFIKEY_MODULE_PATH : args.module_path;

  // The runs of this campaign (or shard), taken in order by `parallel` lanes.
  std::vector<int> runs;
  for (int i = 0; i < args.runs; ++i) {
    if (!args.shard || i % args.shard->second == args.shard->first) runs.push_back(i);
  }
  std::cout << "campaign: " << runs.size() << " runs from seed " << args.seed;
  if (args.shard) std::cout << ", shard " << args.shard->first << "/" << args.shard->second;
  std::cout << ", each on the sim and on " << target.describe() << " (" << args.parallel
            << " at once); every reply and the final keyspace compared\n"
            << "left out of the plan space (the real runner cannot do them): fault kinds "
            << left_out[0] << ", " << left_out[1]
            << "; a server clock near 0 (every run's starts at wall time); a restart or failover at time 0 (at 1 ms)\n"
            << std::flush;

  std::atomic<std::size_t> next{0};
  std::atomic<int> done{0};
  std::atomic<bool> stop{false};
  std::atomic<int> failed{0};
  std::atomic<std::int64_t> calls{0};
  std::mutex mutex;
  std::optional<RunOutcome> failure;   // the lowest failing run seen
  std::map<int, RunOutcome> finished;  // every finished run (a passing one without its scenario)
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto last_logged = started;
  auto lane = [&] {
    while (!stop.load()) {
      const std::size_t k = next.fetch_add(1);
      if (k >= runs.size()) return;
      RunOutcome o = run_one(space, args.seed, runs[k], target);
      calls += o.calls;
      const int finished_runs = ++done;
      std::lock_guard lock(mutex);
      if (o.failed) {
        ++failed;
        if (!failure || o.run < failure->run) failure = o;
        stop = true;
      }
      o.scenario_text.clear();
      o.scenario.reset();
      finished.emplace(o.run, std::move(o));
      const auto now = std::chrono::steady_clock::now();
      if (tty) {
        std::fprintf(stderr, "\rcampaign --differential: %d/%zu runs", finished_runs, runs.size());
      } else if (now - last_logged >= std::chrono::minutes(1)) {
        std::fprintf(stderr, "campaign --differential: %d/%zu runs\n", finished_runs, runs.size());
        last_logged = now;
      }
    }
  };
  std::vector<std::thread> lanes;
  for (int j = 0; j < std::max(1, args.parallel); ++j) lanes.emplace_back(lane);
  for (std::thread& t : lanes) t.join();
  if (tty) std::fputc('\n', stderr);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  const int passed = done.load() - failed.load();
  nlohmann::json summary = {{"kind", "differential"},
                            {"seed", args.seed},
                            {"runs", args.runs},
                            {"server", target.describe()},
                            {"passed", passed},
                            {"failed", failed.load()},
                            {"calls", calls.load()},
                            {"left_out", left_out}};
  if (args.shard) summary["shard"] = std::to_string(args.shard->first) + "/" + std::to_string(args.shard->second);
  const auto dir = std::filesystem::path(args.out);
  std::printf("runs        %d of %zu agreed, %lld calls on each side, %.1f s (%.0f real calls/s, %.1f runs/min)\n",
              passed, runs.size(), static_cast<long long>(calls.load()), seconds,
              seconds > 0 ? static_cast<double>(calls.load()) / seconds : 0.0,
              seconds > 0 ? 60.0 * done.load() / seconds : 0.0);
  // A campaign that finished fewer runs than it was given, with no failure to say why, has
  // not passed (a lane that died, a broken build): never exit 0 on it.
  if (!failure && static_cast<std::size_t>(done.load()) != runs.size()) {
    std::cout << "INCOMPLETE: " << done.load() << " of " << runs.size() << " runs finished\n";
    return 1;
  }

  properties::CampaignSummary campaign = summary_of(args, finished, failure);
  std::string replay, history;
  if (failure) {
    std::ofstream(dir / failure_file(FailureFile::original_scenario), std::ios::binary) << failure->scenario_text;
    std::ofstream(dir / failure_file(FailureFile::plan), std::ios::binary) << sim::plan_json(failure->plan) << "\n";
    std::cout << "FAILED run " << failure->run << ":\n" << failure->what << (failure->what.ends_with('\n') ? "" : "\n");
    std::string scenario_text = failure->scenario_text;  // unminimized, unless the minimizer gives one
    properties::FailureSummary f{failure->run, failure->invariant, failure->what, 0, 0, failure->calls, failure->calls};
    if (failure->scenario && args.shrink_budget > 0) {
      std::cout << "minimizing its divergence (each try runs on a fresh server; --shrink-budget "
                << args.shrink_budget << ")\n"
                << std::flush;
      properties::MinimizeOptions mo;
      mo.replay_budget = args.shrink_budget;
      mo.file_name = failure_file(FailureFile::scenario);
      mo.progress = minimize_progress();
      const scenario::MinimizedDivergence m = scenario::minimize_divergence(*failure->scenario, target, mo);
      minimize_progress_done();
      if (m.failing && m.error.empty()) {
        scenario_text = m.text;
        history = m.history;
        f.invariant = m.failure.invariant.empty() ? "sim.differential" : m.failure.invariant;
        f.facts = scenario::describe_failure(failure_file(FailureFile::scenario), m.minimal_failure);
        f.shrink_steps = m.accepted;
        f.shrink_tries = m.replays;
        f.shrunk_calls = m.calls_after;
        std::cout << "  minimized from " << m.steps_before << " steps (" << m.calls_before << " calls) to "
                  << m.steps_after << " (" << m.calls_after << " calls) in " << m.replays << " tries"
                  << (m.one_minimal ? ", 1-minimal" : ", the budget ran out before it was 1-minimal") << ":\n"
                  << f.facts;
      } else {
        std::cout << "  not minimized: " << (m.error.empty() ? "it does not fail again" : m.error) << "\n";
      }
    }
    const auto file = dir / failure_file(FailureFile::scenario);
    std::ofstream(file, std::ios::binary) << scenario_text;
    if (!history.empty()) std::ofstream(dir / failure_file(FailureFile::history), std::ios::binary) << history;
    campaign.failure = f;
    replay = "trafikey-sim scenario --differential --server-bin " + args.server_bin +
             (args.module_path.empty() ? "" : " --module " + args.module_path) + " " +
             file.string();
    summary["failure"] = {{"run", failure->run}, {"what", f.facts}, {"file", file.filename().string()}};
    std::cout << "  scenario " << file.string() << "\nreproduce with:\n  " << replay << "\n";
  }
  std::ofstream(dir / "campaign.json", std::ios::binary) << properties::summary_json(campaign);
  std::ofstream(dir / "differential.json", std::ios::binary) << summary.dump(2) << "\n";
  std::cout << "summary     " << (dir / "campaign.json").string() << ", " << (dir / "differential.json").string()
            << "\n";
  int status = failure ? 1 : 0;
  if (!args.report.empty()) {
    const std::string error = write_summary_report(campaign, replay, history, args.report, markdown_beside(args.report));
    std::cout << (error.empty() ? "report      " + args.report : "report not written: " + error) << "\n";
    if (!error.empty()) status = std::max(status, 2);
  }
  if (!args.junit.empty()) {
    const std::string error = write_campaign_junit(campaign, replay, seconds, args.junit);
    std::cout << (error.empty() ? "junit       " + args.junit : "junit not written: " + error) << "\n";
    if (!error.empty()) status = std::max(status, 2);
  }
  std::cout << passed << " passed, " << failed.load() << " failed\n";
  return status;
}

}  // namespace trafikey::cli
