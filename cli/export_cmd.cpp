// trafikey-sim export HISTORY -o FILE.scn: a history (from run, campaign, a failing
// property or a scenario run) as a scenario file that replays the same calls and faults,
// every reply spelled out, ending with `check invariants`.
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "properties/scenario_export.h"
#include "core/text.h"
#include "cli/commands.h"
#include "scenarios/runner/run_sim.h"

namespace trafikey::cli {

namespace {

struct ExportArgs {
  std::string history;
  std::string out;
};

int export_history(const ExportArgs& args) {
  const auto read = read_file(args.history);
  if (!read) {
    std::cout << "trafikey-sim export: cannot read " << args.history << "\n";
    return 2;
  }
  std::string why;
  auto exported = properties::export_scenario(*read, {}, &why);
  if (!exported) {
    const bool at_line = why.rfind("line ", 0) == 0;  // "line N: what" -> "FILE:N: what"
    std::cout << args.history << (at_line ? ":" + why.substr(5) : ": " + why)
              << " (the exporter reads a generated run's or a scenario run's history)\n";
    return 2;
  }
  // Replay it once on the sim: the first broken invariant names the file, and a reply that
  // differs from the history's would be a determinism bug worth knowing at once.
  std::vector<properties::Violation> violations;
  scenario::RunResult replay = scenario::run_on_sim(exported->scenario, {args.out, false}, &violations);
  if (!violations.empty()) {
    // the file names what broke; a divergence's line moves down with the comments added
    const int before = exported->scenario.steps.front().line;
    if (properties::note_violations(*exported, violations) && replay.failure) {
      replay.failure->line += exported->scenario.steps.front().line - before;
    }
  }
  std::ofstream out(args.out, std::ios::binary | std::ios::trunc);
  out << exported->text;
  if (!out) {
    std::cout << "trafikey-sim export: cannot write " << args.out << "\n";
    return 2;
  }
  std::cout << "wrote " << args.out << " (" << exported->scenario.steps.size() << " steps)\n";
  if (replay.failure && replay.failure->invariant.empty()) {
    std::cout << "the replay on the sim diverges from the history:\n"
              << scenario::describe_failure(args.out, *replay.failure);
    return 1;
  }
  std::cout << "on the sim every reply matches the history";
  if (!violations.empty()) std::cout << "; it breaks " << violations.front().describe_line();
  std::cout << "\n";
  return 0;
}

}  // namespace

void add_export(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "Write a history as a scenario file (.scn) that replays its calls and faults with every reply "
      "spelled out; exit 0 when the replay on the sim matches every reply, 1 when it does not");
  cmd->add_option("HISTORY", args->history, "A history.jsonl written by run, campaign or a failing property")->required();
  cmd->add_option("-o,--out", args->out, "The scenario file to write")->required();
  cmd->callback([args] { exit_status() = export_history(*args); });
}

}  // namespace trafikey::cli
