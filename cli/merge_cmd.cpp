// trafikey-sim merge DIR... --out DIR: the shards of one campaign (campaign --shard I/N)
// joined into the campaign.json the unsharded campaign writes, byte for byte, with the
// first failure's replay files copied beside it.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/campaign_dashboard.h"
#include "cli/campaign_junit.h"
#include "cli/commands.h"
#include "core/text.h"
#include "properties/campaign_summary.h"
#include "properties/failure_file_names.h"

namespace trafikey::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> dirs;
  std::string out;
  std::string report;
  std::string junit;
};

int merge(const MergeArgs& args) {
  const auto started_at = std::chrono::steady_clock::now();
  std::vector<properties::ShardInput> shards;
  for (const auto& dir : args.dirs) {
    const auto path = std::filesystem::path(dir) / "campaign.json";
    const auto text = read_file(path.string());
    if (!text) {
      std::cerr << "trafikey-sim merge: " << dir << ": cannot read " << path.string() << "\n";
      return 2;
    }
    std::string error;
    auto summary = properties::parse_summary(*text, error);
    if (!summary) {
      std::cerr << "trafikey-sim merge: " << dir << ": " << path.string() << " is not a campaign summary: "
                << error << "\n";
      return 2;
    }
    shards.push_back({dir, std::move(*summary)});
  }
  const auto merged = properties::merge_shards(shards);
  if (!merged.merged) {
    std::cerr << "trafikey-sim merge: " << merged.error << "\n";
    return 2;
  }
  const auto& s = *merged.merged;
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec) {
    std::cerr << "trafikey-sim merge: --out: cannot create " << args.out << ": " << ec.message() << "\n";
    return 2;
  }
  const auto json_path = std::filesystem::path(args.out) / "campaign.json";
  std::ofstream(json_path, std::ios::binary) << properties::summary_json(s);
  std::int64_t calls = 0;
  for (auto c : s.calls_per_run) calls += c;
  std::cout << "merged " << shards.size() << " shards of seed " << s.seed << ", " << s.runs << " runs: "
            << s.passed << " passing runs (" << calls << " calls, " << s.determinism_checked
            << " run twice for determinism)\n"
            << "summary  " << json_path.string() << "\n";
  std::string replay, history;
  if (s.failure) {
    // Copy the failing shard's replay files (failure.*) beside the merged summary.
    using properties::FailureFile;
    for (const FailureFile file : properties::all_failure_files) {
      const std::string name = properties::failure_file_name(properties::campaign_failure_name, file);
      const auto from = std::filesystem::path(merged.failure_dir) / name;
      if (!std::filesystem::exists(from)) continue;
      const auto to = std::filesystem::path(args.out) / name;
      std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
      if (ec) {
        std::cerr << "trafikey-sim merge: cannot copy " << from.string() << ": " << ec.message() << "\n";
        return 2;
      }
      if (replay.empty() || file == FailureFile::scenario) {
        // a differential campaign's failure reproduces only against its server
        replay = s.differential.empty()
                     ? "trafikey-sim replay " + to.string()
                     : "trafikey-sim scenario --differential --server-bin " + s.differential + " " + to.string();
      }
      if (file == FailureFile::history) history = read_file(to.string()).value_or("");
    }
    const auto& f = *s.failure;
    std::cout << "FAILED run " << f.run << " (from " << merged.failure_dir << "): " << f.facts << "\n";
    if (!replay.empty()) std::cout << "replay with:\n  " << replay << "\n";
  }
  if (!args.report.empty()) {
    const std::string error = write_summary_report(s, replay, history, args.report, markdown_beside(args.report));
    std::cout << (error.empty() ? "report   " + args.report : "report not written: " + error) << "\n";
  }
  if (!args.junit.empty()) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count();
    const std::string error = write_campaign_junit(s, replay, seconds, args.junit);
    std::cout << (error.empty() ? "junit    " + args.junit : "junit not written: " + error) << "\n";
  }
  std::cout << s.passed << " passed, " << s.failed << " failed\n";
  return s.failed > 0 ? 1 : 0;
}

}  // namespace

void add_merge(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Join the shard directories of one campaign (campaign --shard I/N) into the campaign.json "
      "the unsharded campaign writes, with the first failure's replay files; refuses shards of "
      "different campaigns, a missing or a doubled shard");
  cmd->add_option("dirs", args->dirs, "Shard directories (each with its campaign.json)")->required();
  cmd->add_option("--out", args->out, "Directory for the merged campaign.json and replay files")->required();
  cmd->add_option("--report", args->report,
                  "Write the campaign dashboard of the merged campaign (OUT.html, with the failure's shrunk "
                  "history in full when it failed) and OUT.md");
  cmd->add_option("--junit", args->junit, "Write JUnit XML: one test case per invariant");
  cmd->callback([args] { exit_status() = merge(*args); });
}

}  // namespace trafikey::cli
