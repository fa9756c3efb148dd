// trafikey-sim campaign: many generated runs, checked on every step, across threads.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <cstdio>
#include <regex>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>

#include "properties/campaign.h"
#include "properties/campaign_summary.h"
#include "properties/coverage.h"
#include "cli/campaign_dashboard.h"
#include "cli/campaign_junit.h"
#include "core/states.h"
#include "core/text.h"
#include "properties/failure_files.h"
#include "sim/world.h"
#include "cli/commands.h"
#include "cli/minimize_progress.h"
#include "sim/plan.h"

namespace trafikey::cli {

namespace {

struct CampaignArgs {
  int runs = 100;
  std::uint64_t seed = 1;
  int parallel = 1;
  std::string out;
  std::string faults;
  int determinism_every = 10;
  std::string report;
  std::string shard;        // "I/N"
  double time_budget = 0;   // seconds; 0: none
  std::string junit;
};

// "I/N" with 0 <= I < N; nullopt otherwise.
std::optional<std::pair<int, int>> parse_shard(const std::string& text) {
  static const std::regex form(R"(([0-9]{1,9})/([0-9]{1,9}))");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  const int index = std::stoi(m[1].str()), count = std::stoi(m[2].str());
  if (count < 1 || index >= count) return std::nullopt;
  return std::pair{index, count};
}

std::string row(const std::map<std::string, std::int64_t>& counts,
                std::span<const std::string_view> expected) {
  std::string s;
  for (const auto k : expected) {
    auto it = counts.find(std::string(k));
    s += "  " + std::string(k) + " " + std::to_string(it == counts.end() ? 0 : it->second);
  }
  for (const auto& [k, n] : counts) {
    if (std::find(expected.begin(), expected.end(), std::string_view(k)) == expected.end()) s += "  " + k + " " + std::to_string(n);
  }
  return s;
}


}  // namespace

void add_campaign(CLI::App& app) {
  auto args = std::make_shared<CampaignArgs>();
  CLI::App* cmd = app.add_subcommand(
      "campaign",
      "Run many generated histories with every invariant checked on every step; stop at the "
      "first failure, shrink it and write a replayable file");
  cmd->add_option("--runs", args->runs, "Generated runs (default 100)")->check(CLI::Range(1, 10000000));
  cmd->add_option("--seed", args->seed, "Campaign seed: the same seed gives the same runs (default 1)");
  cmd->add_option("--parallel", args->parallel, "Threads, whole runs per thread (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--out", args->out, "Directory for campaign.json and, on failure, the replay files")
      ->required();
  cmd->add_option("--faults", args->faults,
                  "Restrict fault kinds, comma-separated (default: every kind); " + sim::fault_list_help());
  cmd->add_option("--determinism-every", args->determinism_every,
                  "Run every Nth history twice and compare fingerprints (0: never; default 10)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--report", args->report,
                  "Write the campaign dashboard: OUT.html (failures with their replay commands, coverage "
                  "charts, run size and length histograms, a bounded runs table) and OUT.md");
  cmd->add_option("--shard", args->shard,
                  "Run only shard I of N (0-based): the runs i with i % N == I, each as the whole "
                  "campaign runs it; `trafikey-sim merge` joins the N directories");
  cmd->add_option("--time-budget", args->time_budget,
                  "Start runs until SECONDS have passed (--runs caps them, default 1000000); prints "
                  "how many ran and the command that reruns exactly those")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--junit", args->junit,
                  "Write JUnit XML: one test case per invariant, a failure with its facts and replay command");
  cmd->callback([args, cmd] {
    const auto started_at = std::chrono::steady_clock::now();
    std::optional<std::pair<int, int>> shard;
    if (cmd->count("--shard") > 0) {
      shard = parse_shard(args->shard);
      if (!shard) {
        std::cerr << "trafikey-sim campaign: --shard: expected I/N with N >= 1 and 0 <= I < N, got '"
                  << args->shard << "'\n";
        exit_status() = 2;
        return;
      }
      if (args->time_budget > 0) {
        std::cerr << "trafikey-sim campaign: --time-budget: cannot be combined with --shard (a "
                     "shard must run all of its runs for merge)\n";
        exit_status() = 2;
        return;
      }
    }
    if (args->time_budget > 0 && cmd->count("--runs") == 0) args->runs = 1000000;
    properties::CampaignOptions options;
    options.runs = args->runs;
    options.seed = args->seed;
    options.parallel = args->parallel;
    options.determinism_every = args->determinism_every;
    if (shard) {
      options.shard_index = shard->first;
      options.shard_count = shard->second;
    }
    if (args->time_budget > 0) {
      const auto deadline =
          started_at + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(args->time_budget));
      // Run 0 always starts, so that there is a campaign to rerun.
      auto first = std::make_shared<std::atomic<bool>>(true);
      options.keep_going = [deadline, first] {
        return first->exchange(false) || std::chrono::steady_clock::now() < deadline;
      };
    }
    if (!args->faults.empty()) {
      std::string error;
      auto kinds = sim::parse_fault_list(args->faults, &error);
      if (!kinds) {
        std::cerr << "trafikey-sim campaign: --faults: " << error << " (" << sim::fault_list_help() << ")\n";
        exit_status() = 2;
        return;
      }
      options.space.kinds = *kinds;
    }
    std::error_code ec;
    std::filesystem::create_directories(args->out, ec);
    if (ec) {
      std::cerr << "trafikey-sim campaign: --out: cannot create " << args->out << ": " << ec.message() << "\n";
      exit_status() = 2;
      return;
    }
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::mutex progress_mutex;
    int last_tenth = -1;
    const bool budgeted = args->time_budget > 0;
    auto progress = [&](int done, int total) {
      std::lock_guard lock(progress_mutex);
      if (budgeted) {
        if (tty) std::fprintf(stderr, "\rcampaign: %d runs", done);
        return;
      }
      if (tty) {
        std::fprintf(stderr, "\rcampaign: %d/%d runs (%d%%)", done, total, done * 100 / total);
        if (done == total) std::fputc('\n', stderr);
      } else if (done * 10 / total != last_tenth) {
        last_tenth = done * 10 / total;
        std::fprintf(stderr, "campaign: %d/%d runs\n", done, total);
      }
    };
    if (budgeted) {
      std::cout << "campaign: runs from seed " << args->seed << " for " << args->time_budget
                << " s (at most " << args->runs << ")";
    } else {
      std::cout << "campaign: " << args->runs << " runs from seed " << args->seed;
    }
    if (shard) std::cout << ", shard " << shard->first << "/" << shard->second;
    std::cout << " on " << args->parallel << " thread(s); every invariant checked on every step\n";
    const properties::CampaignResult result = properties::run_campaign(options, progress);
    if (tty) std::fputc('\n', stderr);

    auto summary = properties::summarize(result, options, args->faults, shard.has_value());
    if (budgeted) {
      // The runs finished are runs 0..K-1: record K, so that this file is the one the
      // rerun command below writes.
      summary.runs = result.started;
      std::string rerun = "trafikey-sim campaign --runs " + std::to_string(result.started) + " --seed " +
                          std::to_string(args->seed);
      if (!args->faults.empty()) rerun += " --faults " + args->faults;
      if (args->determinism_every != 10) rerun += " --determinism-every " + std::to_string(args->determinism_every);
      rerun += " --out " + args->out;
      std::cout << (result.failure ? "stopped at a failure within the time budget: " : "time budget spent: ")
                << result.started << " runs (runs 0.." << result.started - 1
                << " of seed " << args->seed << "); rerun exactly these with:\n  " << rerun << "\n";
    }
    const auto json_path = std::filesystem::path(args->out) / "campaign.json";
    std::ofstream(json_path, std::ios::binary) << properties::summary_json(summary);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count();
    auto junit = [&](const std::string& replay) {
      if (args->junit.empty()) return;
      const std::string error = write_campaign_junit(summary, replay, seconds, args->junit);
      if (error.empty()) {
        std::cout << "junit    " << args->junit << "\n";
      } else {
        std::cout << "junit not written: " << error << "\n";
      }
    };

    std::int64_t calls = 0;
    for (auto c : result.calls_per_run) calls += c;
    std::cout << "coverage over " << result.passed << " passing runs (" << calls << " calls, "
              << result.determinism_checked << " run twice for determinism):\n"
              << "  faults  " << row(result.faults, sim::fault_kind_names()) << "\n"
              << "  verdicts" << row(result.verdicts, sim::sweep_verdict_names) << "\n"
              << "  edges   " << row(result.edges, allowed_transition_names) << "\n"
              << "coverage targets (properties/coverage.h):\n" << properties::coverage_table(result);
    auto report = [&](const std::string& replay, const std::string& failure_history,
                      const std::vector<properties::Violation>& failure_violations) {
      if (args->report.empty()) return;
      const std::string error = write_summary_report(summary, replay, failure_history, args->report,
                                                     markdown_beside(args->report), failure_violations);
      if (error.empty()) {
        std::cout << "report   " << args->report << "\n";
      } else {
        std::cout << "report not written: " << error << "\n";
      }
    };
    if (!result.failure) {
      std::cout << "summary  " << json_path.string() << "\n";
      report("", "", {});
      junit("");
      std::cout << result.passed << " passed, 0 failed\n";
      exit_status() = 0;
      return;
    }
    const auto& f = *result.failure;
    std::cout << "FAILED run " << f.run << ": " << f.violations.front().describe_line() << "\n"
              << "  shrunk in " << f.shrink_steps << " steps (" << f.shrink_tries << " candidates): "
              << f.original.faults.size() << " -> " << f.shrunk.faults.size() << " faults, "
              << f.original.jobs << " -> " << f.shrunk.jobs << " jobs, " << f.original_calls << " -> "
              << f.shrunk_calls << " calls\n";
    properties::FailureOptions write_options;
    write_options.progress = minimize_progress();
    const auto files = properties::write_failure(f.shrunk, args->out, "failure", f.violations, write_options);
    minimize_progress_done();
    if (files.minimize_error.empty()) {
      const auto& m = files.minimized;
      std::cout << "  minimized: " << m.calls_before << " -> " << m.calls_after << " calls, " << m.steps_before
                << " -> " << m.steps_after << " steps (" << m.replays << " replays)\n";
    } else {
      std::cout << "  not minimized: " << files.minimize_error << "\n";
    }
    if (!files.error.empty()) std::cout << "  (" << files.error << ")\n";
    std::cout << "  history  " << files.history_path << "\n"
              << "  original " << files.original_history_path << " (the shrunk plan's run; "
              << files.plan_path << ")\n";
    if (!files.scenario_path.empty()) std::cout << "  scenario " << files.scenario_path << "\n";
    const std::string replay =
        "trafikey-sim replay " + (files.scenario_path.empty() ? files.history_path : files.scenario_path);
    std::cout << "replay with:\n  " << replay << "\n";
    report(replay, read_file(files.history_path).value_or(""),
           files.minimize_error.empty() ? files.minimized.violations : f.violations);
    junit(replay);
    std::cout << result.passed << " passed, 1 failed\n";
    exit_status() = 1;
  });
}

}  // namespace trafikey::cli
