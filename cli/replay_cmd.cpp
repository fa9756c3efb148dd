// trafikey-sim replay FILE: rerun a history and prove it is the same, byte for byte.
#include <iostream>
#include <string_view>

#include "cli/commands.h"
#include "core/text.h"
#include "properties/checked_run.h"
#include "sim/history_read.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::cli {

namespace {
int replay_history(const std::string& file, const std::string& text) {
  std::string error;
  const auto header = sim::read_history_header(text, &error);
  if (!header) {
    std::cerr << file << ":" << error.substr(std::string_view("line ").size()) << "\n";
    return 2;
  }
  const std::string kind = header->value("kind", "");
  if (kind != "plan" || !header->contains("plan")) {
    std::cerr << file << ":1: history kind '" << kind << "' cannot be replayed by rerunning a plan"
              << (kind == "scenario"
                      ? " (a scenario's run: replay the scenario file it names, \"" + header->value("file", "") + "\")"
                      : std::string())
              << "\n";
    return 2;
  }
  auto plan = sim::parse_plan((*header)["plan"].dump(), &error);
  if (!plan) {
    std::cerr << file << ":1: " << error << "\n";
    return 2;
  }
  if (auto bad = sim::validate_plan(*plan); !bad.empty()) {
    std::cerr << file << ":1: " << bad << "\n";
    return 2;
  }
  const properties::CheckedRun checked = properties::run_checked(*plan, true);
  const sim::RunSummary& rerun = checked.summary;
  const auto lines = sim::history_lines(text);
  const auto again = sim::history_lines(rerun.history);
  const std::size_t n = std::max(lines.size(), again.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view expected = i < lines.size() ? lines[i] : "<end of file>";
    const std::string_view actual = i < again.size() ? again[i] : "<end of rerun>";
    if (expected != actual) {
      std::cout << file << ":" << i + 1 << ": first divergence\n"
                << "  expected: " << expected << "\n"
                << "  actual:   " << actual << "\n";
      return 1;
    }
  }
  std::cout << "replayed " << again.size() << " lines of " << file << ": every line matches\n";
  for (const auto& v : checked.violations) std::cout << "invariant broken: " << v.describe_line() << "\n";
  std::cout << "fingerprint " << rerun.fingerprint << "\n";
  return checked.failed() ? 1 : 0;
}
}  // namespace

void add_replay(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto report = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
"replay",
      "Rerun a history (history.jsonl) with every invariant checked; exit 0 only when every "
      "line and the fingerprint match and no invariant breaks");
  cmd->add_option("FILE", *file, "A history written by run or campaign, or a scenario file (.scn), which runs on the sim")->required();
  cmd->add_option("--report", *report,
                  "With a .scn: write the run's HTML report, the history line that broke an invariant marked");
  cmd->callback([file, report] {
    if (file->ends_with(".scn")) {  // a scenario file: run it on the sim
      exit_status() = run_scenario_files({*file}, *report);
      return;
    }
    if (!report->empty()) {
      std::cerr << "trafikey-sim replay: --report is for .scn files (for a history: trafikey-sim report)\n";
      exit_status() = 2;
      return;
    }
    const auto text = read_file(*file);
    if (!text) {
      std::cerr << "trafikey-sim replay: cannot read " << *file << "\n";
      exit_status() = 2;
      return;
    }
    exit_status() = replay_history(*file, *text);
  });
}

}  // namespace trafikey::cli
