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

#include "core/invariants.h"
#include "properties/campaign.h"
#include "properties/scenario_export.h"
#include "scenarios/runner/run_real.h"
#include "scenarios/runner/run_result.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::cli {

namespace {

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
  std::string scenario_text; // the exported scenario (kept for a failure)
  std::int64_t calls = 0;    // calls on the sim (the real server's are the same)
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
  plan.real_steps_only = true;
  // A restart or failover at true time 0 comes at 1 ms, after the clock step to wall time
  // (below): a Redis 7.0 that loads an append-only file while its clock reads 0 ms asserts
  // (server.c whileBlockedCron: blocked_last_cron is the cached time, and 0 reads as
  // "never started"), and a failover restarts the promoted replica (RealSession::failover).
  for (sim::Fault& f : plan.faults) {
    const bool starts = f.kind() == sim::FaultKind::restart || f.kind() == sim::FaultKind::failover;
    if (f.at_ms == 0 && starts) f.at_ms = 1;
  }
  sim::RunOptions options;
  options.keep_history_text = true;
  const sim::RunSummary summary = sim::run_plan(plan, options);
  out.calls = summary.calls;
  std::string error;
  const auto exported = properties::export_scenario(summary.history, {}, &error);
  if (!exported) {
    out.failed = true;
    out.what = "its history does not export as a scenario: " + error;
    return out;
  }
  out.scenario_text = exported->text;
  if (const std::string why = scenario::real_skip_reason(exported->scenario, target); !why.empty()) {
    out.failed = true;
    out.what = "its scenario has a step the real runner cannot take (the plan space should have left it out): " + why;
    return out;
  }
  const scenario::RunResult result = scenario::run_differential(exported->scenario, target);
  if (result.status == CheckStatus::failed) {
    out.failed = true;
    out.what = result.failure ? scenario::describe_failure("failure.scn", *result.failure) : "failed";
    for (const auto& v : result.violations) out.what += "  broken: " + v.describe_line() + "\n";
  }
  return out;
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
  target.module_path = args.module_path;

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
            << "; the adversarial client's calls to a replica and under an ACL; a server clock near 0 (every run's starts at wall time); a restart or failover at time 0 (at 1 ms)\n"
            << std::flush;

  std::atomic<std::size_t> next{0};
  std::atomic<int> done{0};
  std::atomic<bool> stop{false};
  std::atomic<int> failed{0};
  std::atomic<std::int64_t> calls{0};
  std::mutex mutex;
  std::optional<RunOutcome> failure;  // the lowest failing run seen
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto last_logged = started;
  auto lane = [&] {
    while (!stop.load()) {
      const std::size_t k = next.fetch_add(1);
      if (k >= runs.size()) return;
      RunOutcome o = run_one(space, args.seed, runs[k], target);
      calls += o.calls;
      const int finished = ++done;
      std::lock_guard lock(mutex);
      if (o.failed) {
        ++failed;
        if (!failure || o.run < failure->run) failure = std::move(o);
        stop = true;
      }
      const auto now = std::chrono::steady_clock::now();
      if (tty) {
        std::fprintf(stderr, "\rcampaign --differential: %d/%zu runs", finished, runs.size());
      } else if (now - last_logged >= std::chrono::minutes(1)) {
        std::fprintf(stderr, "campaign --differential: %d/%zu runs\n", finished, runs.size());
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
  if (failure) {
    const auto file = dir / "failure.scn";
    std::ofstream(file, std::ios::binary) << failure->scenario_text;
    summary["failure"] = {{"run", failure->run}, {"what", failure->what}, {"file", "failure.scn"}};
    std::cout << "FAILED run " << failure->run << ":\n" << failure->what
              << (failure->what.ends_with('\n') ? "" : "\n");
    if (!failure->scenario_text.empty()) {
      std::cout << "  scenario " << file.string() << "\nreproduce with:\n  trafikey-sim scenario --differential --server-bin "
                << args.server_bin << " " << file.string() << "\n";
    }
  }
  std::ofstream(dir / "differential.json", std::ios::binary) << summary.dump(2) << "\n";
  std::cout << "summary     " << (dir / "differential.json").string() << "\n"
            << passed << " passed, " << failed.load() << " failed\n";
  return failure ? 1 : 0;
}

}  // namespace trafikey::cli
