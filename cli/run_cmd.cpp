// trafikey-sim run: one generated run, written as DIR/history.jsonl.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "sim/plan.h"
#include "sim/run.h"
#include "reports/report.h"

namespace trafikey::cli {

namespace {
struct RunArgs {
  std::uint64_t seed = 1;
  std::optional<int> jobs, workers;
  int queues = 1;
  int wire2_workers = 0;
  std::optional<std::int64_t> duration_ms;
  std::string faults;
  std::string persistence;
  std::string out;
  std::string report;  // --report OUT.html (when reports/ is built)
};

std::string counts(const std::map<std::string, std::int64_t>& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k + " " + std::to_string(v);
  return s.empty() ? "none" : s;
}
}  // namespace

void add_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand("run", "Run one generated history and write DIR/history.jsonl");
  cmd->add_option("--seed", args->seed, "Seed of the run's PRNG (xoshiro256**)")->required();
  cmd->add_option("--jobs", args->jobs, "Jobs to add (default: drawn from the seed)")->check(CLI::Range(0, 100000));
  cmd->add_option("--workers", args->workers, "Workers (default: drawn)")->check(CLI::Range(1, 1000));
  cmd->add_option("--queues", args->queues, "Queues q, q2, ... the jobs are spread over (default 1)")
      ->check(CLI::Range(1, 9));
  cmd->add_option("--wire2", args->wire2_workers,
                  "The last N workers claim with WIRE 2 and hand in wire 2 tokens (EMQ §8; default 0)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--duration-ms", args->duration_ms, "Length of the safety phase, ms of true time (default 15000)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86400000}));
  cmd->add_option("--faults", args->faults,
                  "Fault kinds, comma-separated (default: none); " + sim::fault_list_help());
  cmd->add_option("--persistence", args->persistence, "always | everysec | snapshot | none (default always)");
  cmd->add_option("--out", args->out, "Directory for history.jsonl")->required();
  cmd->add_option("--report", args->report, "Also write an HTML report of the run (OUT.html)");
  cmd->callback([args] {
    sim::PlanChoices choices;
    choices.seed = args->seed;
    choices.jobs = args->jobs;
    choices.workers = args->workers;
    choices.safety_ms = args->duration_ms;
    choices.queues = args->queues;
    choices.wire2_workers = args->wire2_workers;
    std::string error;
    auto kinds = sim::parse_fault_list(args->faults, &error);
    if (!kinds) {
      std::cerr << "trafikey-sim run: --faults: " << error << " (" << sim::fault_list_help() << ")\n";
      exit_status() = 2;
      return;
    }
    choices.fault_kinds = *kinds;
    if (!args->persistence.empty()) {
      choices.persistence = sim::parse_persistence(args->persistence);
      if (!choices.persistence) {
        std::cerr << "trafikey-sim run: --persistence: '" << args->persistence
                  << "' is not one of always, everysec, snapshot, none\n";
        exit_status() = 2;
        return;
      }
    }
    const sim::RunPlan plan = sim::draw_plan(choices);
    std::error_code ec;
    std::filesystem::create_directories(args->out, ec);
    const std::string path = (std::filesystem::path(args->out) / "history.jsonl").string();
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (ec || !file) {
      std::cerr << "trafikey-sim run: --out: cannot write " << path << "\n";
      exit_status() = 2;
      return;
    }
    const sim::RunSummary summary = sim::run_plan(plan);
    file << summary.history;
    file.close();
    if (!file) {
      std::cerr << "trafikey-sim run: writing " << path << " failed\n";
      exit_status() = 2;
      return;
    }
    std::cout << "history  " << path << "\n"
              << "outcome  " << summary.outcome << " at t=" << summary.end_true_ms << " ms after "
              << summary.calls << " calls\n"
              << "jobs     " << counts(summary.jobs) << "\n"
              << "faults   " << counts(summary.faults) << "\n"
              << "verdicts " << counts(summary.verdicts) << "\n"
              << "fingerprint " << summary.fingerprint << "\n";
    if (!args->report.empty()) {
      reports::ReportInput input;
      input.name = input.source = path;
      input.history_text = summary.history;
      input.replay_command = "trafikey-sim replay " + path;
      if (auto bad = reports::write_report({input}, args->report); !bad.empty()) {
        std::cerr << "trafikey-sim run: --report: " << bad << "\n";
        exit_status() = 2;
        return;
      }
      std::cout << "report   " << args->report << "\n";
    }
    exit_status() = summary.outcome == "drained" ? 0 : 1;
  });
}

}  // namespace trafikey::cli
