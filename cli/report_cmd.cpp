// trafikey-sim report: histories in, one HTML page (and a Markdown summary) out; or, with
// --baseline, what changed between two directories of histories (reports/report.h).
#include <iostream>
#include <memory>

#include <filesystem>

#include "cli/campaign_dashboard.h"
#include "core/text.h"
#include "properties/campaign_summary.h"
#include "properties/failure_file_names.h"
#include "reports/load.h"
#include "reports/report.h"
#include "cli/commands.h"

namespace trafikey::cli {

namespace {
struct ReportArgs {
  std::vector<std::string> files;
  std::string out;
  std::string md;
  std::string baseline;
};

// A campaign.json: its dashboard, with the failure's history beside it (failure.*) in full.
int summary_report(const std::string& file, const ReportArgs& args) {
  const auto text = read_file(file);
  if (!text) {
    std::cerr << "trafikey-sim report: " << file << ": cannot read the file\n";
    return 2;
  }
  std::string error;
  const auto summary = properties::parse_summary(*text, error);
  if (!summary) {
    std::cerr << "trafikey-sim report: " << file << ": not a campaign summary (campaign.json): " << error << "\n";
    return 2;
  }
  std::string replay, history;
  if (summary->failure) {
    const auto dir = std::filesystem::path(file).parent_path();
    using properties::FailureFile;
    for (const FailureFile file : {FailureFile::history, FailureFile::scenario}) {
      const auto path = dir / properties::failure_file_name(properties::campaign_failure_name, file);
      if (!std::filesystem::exists(path)) continue;
      replay = "trafikey-sim replay " + path.string();
      if (file == FailureFile::history) history = read_file(path.string()).value_or("");
    }
  }
  if (auto bad = write_summary_report(*summary, replay, history, args.out, args.md); !bad.empty()) {
    std::cerr << "trafikey-sim report: " << bad << "\n";
    return 2;
  }
  std::cout << "report  " << args.out << " (the dashboard of " << file << ")\n";
  if (!args.md.empty()) std::cout << "summary " << args.md << "\n";
  return 0;
}

int report(const ReportArgs& args) {
  std::string error;
  if (!args.baseline.empty()) {
    if (args.files.size() != 1) {
      std::cerr << "trafikey-sim report: --baseline OLD_DIR takes exactly one NEW_DIR (got "
                << args.files.size() << ")\n";
      return 2;
    }
    auto old_runs = reports::load_dir_relative(args.baseline, &error);
    if (!old_runs) {
      std::cerr << "trafikey-sim report: " << error << "\n";
      return 2;
    }
    auto new_runs = reports::load_dir_relative(args.files[0], &error);
    if (!new_runs) {
      std::cerr << "trafikey-sim report: " << error << "\n";
      return 2;
    }
    if (auto bad = reports::write_baseline_diff(*old_runs, *new_runs, args.out, args.md); !bad.empty()) {
      std::cerr << "trafikey-sim report: " << bad << "\n";
      return 2;
    }
    std::cout << "comparison " << args.out << "\n";
    if (!args.md.empty()) std::cout << "summary    " << args.md << "\n";
    return 0;
  }
  for (const auto& file : args.files) {
    if (!file.ends_with(".json")) continue;
    if (args.files.size() != 1) {
      std::cerr << "trafikey-sim report: " << file << ": a campaign.json is reported alone, not with other files\n";
      return 2;
    }
    return summary_report(file, args);
  }
  auto inputs = reports::load_inputs(args.files, &error);
  if (!inputs) {
    std::cerr << "trafikey-sim report: " << error << "\n";
    return 2;
  }
  if (auto bad = reports::write_report(*inputs, args.out, args.md); !bad.empty()) {
    std::cerr << "trafikey-sim report: " << bad << "\n";
    return 2;
  }
  std::cout << "report  " << args.out << " (" << inputs->size()
            << (inputs->size() == 1 ? " history)\n" : " histories)\n");
  if (!args.md.empty()) std::cout << "summary " << args.md << "\n";
  return 0;
}
}  // namespace

void add_report(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Render histories as one self-contained HTML report (timelines, invariants, state graph); "
      "with --baseline OLD_DIR NEW_DIR, what changed between two runs of the same histories");
  cmd->add_option("FILE", args->files,
                  "history.jsonl files, or directories holding *.jsonl histories (with --baseline: NEW_DIR); or "
                  "one campaign.json: the campaign's dashboard")
      ->required();
  cmd->add_option("-o,--out", args->out, "The HTML file to write")->required();
  cmd->add_option("--md", args->md, "Also write a Markdown summary (for a pull-request comment)");
  cmd->add_option("--baseline", args->baseline, "Compare: the directory of the baseline run (OLD_DIR)");
  cmd->callback([args] { exit_status() = report(*args); });
}

}  // namespace trafikey::cli
