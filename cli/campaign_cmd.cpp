// trafikey-sim campaign: many generated runs, checked on every step, across threads.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <cstdio>
#include <regex>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <functional>
#include <mutex>
#include <optional>

#include "properties/campaign.h"
#include "properties/campaign_summary.h"
#include "properties/crash_guard.h"
#include "properties/coverage.h"
#include "cli/campaign_dashboard.h"
#include "cli/campaign_differential.h"
#include "cli/campaign_junit.h"
#include "core/invariants.h"
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
  double run_timeout = 300;  // seconds; 0: never a hang
  bool in_process = false;
  bool direct = false;
  bool coverage = false;  // the full coverage table too
  bool differential = false;  // each run on the sim and on a real server (campaign_differential.h)
  std::string server_bin;
  std::string module_path;
  int shrink_budget = 1000;
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

// The campaign in a few lines: runs, calls and time; the invariants judged; coverage as
// "N of M targets reached", with the targets the plans do not draw, and (on a pass) those
// never reached, named. (--coverage prints every target with its count.)
std::string brief_summary(const properties::CampaignResult& result, const properties::CampaignSummary& summary,
                          const properties::PlanSpace& space, double seconds) {
  std::int64_t calls = 0;
  for (auto c : result.calls_per_run) calls += c;
  char time[32];
  std::snprintf(time, sizeof time, "%.1f s", seconds);
  std::string out = "runs        " + std::to_string(result.passed) + " passed (" +
                    std::to_string(result.determinism_checked) + " of them twice for determinism), " +
                    std::to_string(calls) + " calls, " + time + "\n";
  int judged = 0;
  std::int64_t judgements = 0;
  std::string not_judged;
  for (const std::string_view id : invariant_ids) {
    const auto it = summary.judged.find(std::string(id));
    const bool seen = (it != summary.judged.end() && it->second > 0) ||
                      (id == "sim.determinism" && summary.determinism_checked > 0);
    if (it != summary.judged.end()) judgements += it->second;
    if (seen) {
      ++judged;
    } else {
      not_judged += (not_judged.empty() ? "" : ", ") + std::string(id);
    }
  }
  out += "invariants  " + std::to_string(judged) + " of " + std::to_string(invariant_ids.size()) + " judged, " +
         std::to_string(judgements) + " times" + (not_judged.empty() ? "" : "; not here: " + not_judged) + "\n";
  const auto& targets = properties::coverage_targets();
  int reached = 0;
  std::string never, not_drawn;
  for (const auto& t : targets) {
    if (properties::coverage_count(result, t) > 0) {
      ++reached;
      continue;
    }
    std::string& list = properties::drawn_in(space, t) ? never : not_drawn;
    list += (list.empty() ? "" : ", ") + t.family + " " + t.name;
  }
  out += "coverage    " + std::to_string(reached) + " of " + std::to_string(targets.size()) + " targets reached" +
         (not_drawn.empty() ? "" : "; not drawn by this campaign's plans: " + not_drawn) + "\n";
  // After a failure the runs stopped early: what they did not reach yet says little.
  if (!never.empty() && !result.failure) out += "never reached: " + never + "\n";
  return out;
}

// What the crash guard writes for a run that ended its process (see crashed()).
struct CrashFiles {
  std::string history;  // OUT/failure.history.jsonl: the shrunk plan's calls before the one in flight
  std::string plan;     // OUT/failure.plan.json
  std::string text;     // OUT/failure.crash.txt: what happened and how to reproduce it
  std::string replay;   // the command that reruns it (and ends the same way)
};

using Finish = std::function<int(const properties::CampaignResult&, const CrashFiles&)>;

// The campaign's process ended by a signal or was stopped as hung: find the run (each run
// in flight rerun alone, in its own process), shrink it, write its files, rerun the runs
// before it for campaign.json's coverage, and report it as the campaign's failure.
int crashed(const properties::Supervised& ended, properties::Flight& flight, properties::CampaignOptions options,
            const CampaignArgs& args, const Finish& finish) {
  using properties::Supervised;
  // shared_flight() is reused by every probe below: what it says now, first
  const auto in_flight = properties::runs_in_flight(flight);
  const auto phase = static_cast<properties::FlightPhase>(flight.phase.load());
  const int failing = flight.failing_run.load();
  const int hung_run = ended.hung_lane >= 0 ? flight.lanes[ended.hung_lane].run.load() : -1;
  std::cout << "\n";
  if (ended.end == Supervised::End::hung) {
    std::cout << "HUNG: run " << hung_run << " was still in call " << flight.lanes[ended.hung_lane].call.load()
              << " after " << args.run_timeout << " s (--run-timeout); the campaign's process was stopped\n";
  } else {
    std::cout << "CRASHED: the campaign's process died by " << properties::signal_name(ended.signal);
    for (std::size_t k = 0; k < in_flight.size(); ++k) {
      std::cout << (k == 0 ? " with runs in flight: " : ", ") << "run " << in_flight[k].first << " (call "
                << in_flight[k].second << ")";
    }
    std::cout << "\n";
  }
  std::vector<int> candidates;
  if (phase != properties::FlightPhase::runs) {
    std::cout << "  it ended while " << (phase == properties::FlightPhase::shrinking ? "shrinking" : "writing the files of")
              << " the failure of run " << failing << " (a shrink candidate of it, or its minimization, ended it)\n";
    candidates.push_back(failing);
  } else {
    // Every run in flight, lowest first, the hung one among them: a lower run still in
    // flight when the process was stopped may hang or crash too, and the runs before the
    // one reported are rerun in this process below, so each of them must be known to end.
    for (const auto& [run, call] : in_flight) candidates.push_back(run);
    if (hung_run >= 0 && std::find(candidates.begin(), candidates.end(), hung_run) == candidates.end()) {
      candidates.push_back(hung_run);
      std::sort(candidates.begin(), candidates.end());
    }
  }
  std::optional<std::pair<int, properties::IsolatedRun>> found;
  for (const int run : candidates) {
    std::cout << "  run " << run << " rerun alone, in its own process: " << std::flush;
    auto probe = properties::run_isolated(properties::campaign_plan(options.space, options.seed, run), args.run_timeout);
    if (probe.how.end != Supervised::End::exited) {
      std::cout << (probe.how.end == Supervised::End::hung ? "hangs" : "dies by " + properties::signal_name(probe.how.signal))
                << " at call " << probe.call << "\n";
      found.emplace(run, std::move(probe));
      break;
    }
    std::cout << (probe.failed ? "breaks an invariant without ending its process" : "passes") << "\n";
  }
  if (!found) {
    std::cout << "  no run ends its process when run alone: the crash needs more than one run (state shared "
                 "between threads?) or a shrink candidate; rerun with --in-process under a debugger:\n"
              << "    gdb --args trafikey-sim campaign --runs " << options.runs << " --seed " << options.seed
              << " --parallel " << options.parallel << " --out " << args.out << " --in-process\n";
    return 1;
  }
  const int run = found->first;
  const properties::IsolatedRun& first = found->second;
  const properties::CampaignFailure failure = properties::crash_failure(options, run, first, args.run_timeout);
  std::cout << "FAILED run " << run << ": " << failure.violations.front().describe_line() << "\n";
  if (failure.invariant == "sim.crash") {
    std::cout << "  shrunk in " << failure.shrink_steps << " steps (" << failure.shrink_tries
              << " candidates, each in its own process): " << failure.original.faults.size() << " -> "
              << failure.shrunk.faults.size() << " faults, " << failure.original.jobs << " -> " << failure.shrunk.jobs
              << " jobs, call " << failure.original_calls << " -> " << failure.shrunk_calls << " in flight\n";
  } else {
    std::cout << "  not shrunk: each candidate that still hangs costs the whole --run-timeout\n";
  }
  using properties::FailureFile;
  const auto name = [](FailureFile file) {
    return properties::failure_file_name(properties::campaign_failure_name, file);
  };
  CrashFiles files;
  const auto dir = std::filesystem::path(args.out);
  files.history = (dir / name(FailureFile::history)).string();
  files.plan = (dir / name(FailureFile::plan)).string();
  files.text = (dir / name(FailureFile::crash)).string();
  files.replay = "trafikey-sim replay " + files.history;
  // The calls before the one in flight, from a child (this process must not make that call).
  const auto wrote = properties::supervise(
      [&] {
        sim::RunOptions keep;
        keep.keep_history_text = true;
        keep.stop_before_call = std::max<std::int64_t>(1, failure.shrunk_calls);
        const auto summary = sim::run_plan(failure.shrunk, keep);
        return properties::write_text_file(files.history, summary.history) ? 0 : 1;
      },
      flight, 0);
  if (wrote.end != Supervised::End::exited || wrote.status != 0) {
    std::cout << "  (" << files.history << " not written: its run ended its process before the call in flight)\n";
  }
  properties::write_text_file(files.plan, sim::plan_json(failure.shrunk) + "\n");
  const bool hang = failure.invariant == "sim.hang";
  // Names beside this file, not paths: the same text wherever the directory goes (merge copies it).
  const std::string replay_here = "trafikey-sim replay " + name(FailureFile::history);
  std::string text = "trafikey-sim campaign --runs " + std::to_string(options.runs) + " --seed " +
                     std::to_string(options.seed) + ": run " + std::to_string(run) +
                     (hang ? " never returned from a call\n" : " ended its process\n") +
                     failure.violations.front().describe_line() + "\n" +
                     "history: " + name(FailureFile::history) + ", beside this file (the " + (hang ? "" : "shrunk ") +
                     "run's calls before the one in flight; its first line is the plan)\n" +
                     "plan:    " + name(FailureFile::plan) + "\n" +
                     "reproduce, in this directory (reruns the plan, which ends " +
                     (hang ? "in the same hang" : "the same way") + " at call " +
                     std::to_string(failure.shrunk_calls) + "):\n  " + replay_here + "\n" +
                     "in a debugger:\n  gdb --args " + replay_here + "\n";
  properties::write_text_file(files.text, text);
  std::cout << "  history  " << files.history << "\n  plan     " << files.plan << "\n  crash    " << files.text
            << "\nreproduce with:\n  " << files.replay << "\n  (in a debugger: gdb --args " << files.replay << ")\n";
  // campaign.json is the fold of the runs before the failure: rerun them (they passed).
  std::cout << "campaign: rerunning runs 0.." << run - 1 << " for campaign.json's coverage\n" << std::flush;
  options.runs = run;
  options.keep_going = nullptr;
  options.flight = nullptr;
  properties::CampaignResult result = properties::run_campaign(options, {});
  ++result.started;
  ++result.failed;
  properties::CampaignResult::RunCoverage cov;
  cov.run = run;
  cov.failed = true;
  result.coverage.push_back(std::move(cov));
  result.failure = failure;
  return finish(result, files);
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
  cmd->add_option("--run-timeout", args->run_timeout,
                  "A run still in one call after SECONDS is a hang: the failure sim.hang, with the call "
                  "(default 300; 0: never)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--coverage", args->coverage,
                "Print every coverage target (properties/coverage.h) with how often the runs reached it, and "
                "the counts per fault kind, sweep verdict and state edge (by default: how many targets were "
                "reached, and those never reached by name; campaign.json and --report hold all of it)");
  cmd->add_flag("--direct", args->direct,
                "Judge every invariant directly on every call: the model's audit, about a tenth slower. By "
                "default a call the model predicted write for write has its per-job judgements (conserve, "
                "budget, stamp) established through the model's equality; every other call, start and "
                "phase end is judged directly, and so is every call where the server and the model differ");
  cmd->add_flag("--in-process", args->in_process,
                "Run in this process, without the crash guard (by default the runs go in a child process, "
                "so that a core that crashes or never returns is a failure with its run, call and files: "
                "sim.crash, sim.hang); for a debugger");
  cmd->add_flag("--differential", args->differential,
                "Run each generated run on the sim and, as the same steps, on a real server with the module "
                "that the command starts for it (--server-bin); every reply and the final keyspace must agree "
                "(sim.differential) and the real run's checks hold. Faults the real runner cannot do are left "
                "out of the plan space, by name; writes OUT/campaign.json and OUT/differential.json and, on a "
                "failure, the divergence minimized as OUT/failure.scn with the command that reproduces it");
  cmd->add_option("--server-bin", args->server_bin,
                  "With --differential: the valkey-server or redis-server binary to start, one per run");
  cmd->add_option("--module", args->module_path,
                  "With --differential: trafikey.so (default: the one built with this binary)");
  cmd->add_option("--shrink-budget", args->shrink_budget,
                  "With --differential: how many candidate runs (each on a fresh server) the minimizer of a "
                  "divergence may try (default 1000; 0: write the failing run unminimized)")
      ->check(CLI::Range(0, 1000000));
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
    if (!args->differential && (!args->server_bin.empty() || !args->module_path.empty() ||
                                cmd->count("--shrink-budget") > 0)) {
      std::cerr << "trafikey-sim campaign: --server-bin, --module and --shrink-budget go with --differential\n";
      exit_status() = 2;
      return;
    }
    if (args->differential) {
      for (const char* flag : {"--time-budget", "--direct", "--determinism-every"}) {
        if (cmd->count(flag) > 0) {
          std::cerr << "trafikey-sim campaign: " << flag << ": not with --differential (not built yet)\n";
          exit_status() = 2;
          return;
        }
      }
      if (args->server_bin.empty()) {
        std::cerr << "trafikey-sim campaign: --differential needs --server-bin PATH (a valkey-server or "
                     "redis-server)\n";
        exit_status() = 2;
        return;
      }
      if (!args->module_path.empty() && !std::filesystem::is_regular_file(args->module_path)) {
        std::cerr << "trafikey-sim campaign: --module: " << args->module_path << " is not a file\n";
        exit_status() = 2;
        return;
      }
      DifferentialCampaign d;
      d.runs = args->runs;
      d.seed = args->seed;
      d.parallel = args->parallel;
      d.shard = shard;
      d.out = args->out;
      d.faults = args->faults;
      d.server_bin = args->server_bin;
      d.module_path = args->module_path;
      d.shrink_budget = args->shrink_budget;
      d.report = args->report;
      d.junit = args->junit;
      exit_status() = run_differential_campaign(d);
      return;
    }
    if (args->time_budget > 0 && cmd->count("--runs") == 0) args->runs = 1000000;
    properties::CampaignOptions options;
    options.runs = args->runs;
    options.seed = args->seed;
    options.parallel = args->parallel;
    options.determinism_every = args->determinism_every;
    options.direct = args->direct;
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
    // On a terminal, one progress line rewritten in place; elsewhere (a CI log) a line at
    // most once a minute, so that a short campaign's log is its summary.
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::mutex progress_mutex;
    bool progress_open = false;  // the terminal's progress line still wants its newline
    auto last_logged = started_at;
    const bool budgeted = args->time_budget > 0;
    auto progress = [&](int done, int total) {
      std::lock_guard lock(progress_mutex);
      if (!tty) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last_logged < std::chrono::minutes(1)) return;
        last_logged = now;
        if (budgeted) {
          std::fprintf(stderr, "campaign: %d runs\n", done);
        } else {
          std::fprintf(stderr, "campaign: %d/%d runs\n", done, total);
        }
        return;
      }
      if (budgeted) {
        std::fprintf(stderr, "\rcampaign: %d runs", done);
      } else {
        std::fprintf(stderr, "\rcampaign: %d/%d runs (%d%%)", done, total, done * 100 / total);
      }
      progress_open = true;
    };
    if (budgeted) {
      std::cout << "campaign: runs from seed " << args->seed << " for " << args->time_budget
                << " s (at most " << args->runs << ")";
    } else {
      std::cout << "campaign: " << args->runs << " runs from seed " << args->seed;
    }
    if (shard) std::cout << ", shard " << shard->first << "/" << shard->second;
    std::cout << " on " << args->parallel << " thread(s); every invariant checked on every step"
              << (args->direct ? ", directly (--direct)\n" : "\n");
    // What a campaign's result leaves: campaign.json, the coverage, the failure's files,
    // the dashboard and JUnit; the exit status. `crash`: the failure ended its process,
    // and its files are written (crash_files below), not rerun here.
    auto finish = [&](const properties::CampaignResult& result, const CrashFiles* crash) -> int {
    if (progress_open) std::fputc('\n', stderr);

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
        std::cout << "junit       " << args->junit << "\n";
      } else {
        std::cout << "junit not written: " << error << "\n";
      }
    };

    std::cout << brief_summary(result, summary, options.space, seconds);
    if (args->coverage) {
      std::cout << "coverage over " << result.passed << " passing runs:\n"
                << "  faults  " << row(result.faults, sim::fault_kind_names()) << "\n"
                << "  verdicts" << row(result.verdicts, sim::sweep_verdict_names) << "\n"
                << "  edges   " << row(result.edges, allowed_transition_names) << "\n"
                << "coverage targets (properties/coverage.h):\n"
                << properties::coverage_table(result, options.space);
    }
    auto report = [&](const std::string& replay, const std::string& failure_history,
                      const std::vector<properties::Violation>& failure_violations) {
      if (args->report.empty()) return;
      const std::string error = write_summary_report(summary, replay, failure_history, args->report,
                                                     markdown_beside(args->report), failure_violations);
      if (error.empty()) {
        std::cout << "report      " << args->report << "\n";
      } else {
        std::cout << "report not written: " << error << "\n";
      }
    };
    if (!result.failure) {
      std::cout << "summary     " << json_path.string() << "\n";
      report("", "", {});
      junit("");
      std::cout << result.passed << " passed, 0 failed\n";
      return 0;
    }
    const auto& f = *result.failure;
    if (crash) {
      std::cout << "summary     " << json_path.string() << " (the runs before run " << f.run
                << " rerun for their coverage, then its failure)\n";
      report(crash->replay, read_file(crash->history).value_or(""), f.violations);
      junit(crash->replay);
      std::cout << result.passed << " passed, 1 failed\n";
      return 1;
    }
    std::cout << "FAILED run " << f.run << ": " << f.violations.front().describe_line() << "\n"
              << "  shrunk in " << f.shrink_steps << " steps (" << f.shrink_tries << " candidates): "
              << f.original.faults.size() << " -> " << f.shrunk.faults.size() << " faults, "
              << f.original.jobs << " -> " << f.shrunk.jobs << " jobs, " << f.original_calls << " -> "
              << f.shrunk_calls << " calls\n";
    if (options.flight) {
      options.flight->phase.store(static_cast<int>(properties::FlightPhase::files));
      // The run again, alone in a fresh process: a failure that needs the runs before it in
      // the same process is a core that keeps state between calls, and its files, replayed
      // alone, may pass. Said here, where the engineer reads the failure.
      const auto alone = properties::run_isolated(properties::campaign_plan(options.space, options.seed, f.run),
                                                  args->run_timeout);
      if (alone.how.end == properties::Supervised::End::exited && !alone.failed) {
        std::cout << "  NOT REPRODUCIBLE ALONE: run " << f.run << " passes when run by itself in a fresh "
                  << "process; it failed only after the runs before it in the same process: the core keeps "
                     "state between calls (a static, a cache, a thread_local), and the files below may not "
                     "replay\n";
      }
    }
    properties::FailureOptions write_options;
    write_options.progress = minimize_progress();
    const auto files = properties::write_failure(f.shrunk, args->out, std::string(properties::campaign_failure_name),
                                                 f.violations, write_options);
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
    return 1;
    };

    if (args->in_process) {
      exit_status() = finish(properties::run_campaign(options, progress), nullptr);
      return;
    }
    // The crash guard: the campaign in a child process, which this one waits for.
    properties::Flight& flight = properties::shared_flight();
    properties::reset(flight);
    options.flight = &flight;
    const auto ended = properties::supervise(
        [&] { return finish(properties::run_campaign(options, progress), nullptr); }, flight, args->run_timeout);
    if (ended.end == properties::Supervised::End::exited) {
      exit_status() = ended.status;
      return;
    }
    exit_status() = crashed(ended, flight, options, *args,
                            [&](const properties::CampaignResult& result, const CrashFiles& files) {
                              return finish(result, &files);
                            });
  });
}

}  // namespace trafikey::cli
