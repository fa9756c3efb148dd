// trafikey-sim shrink FILE [--out DIR]: minimize a failing scenario or history to the few
// steps that still break the same invariant (properties/history_minimizer.h) and write it
// as DIR/STEM.min.scn, every reply spelled out, with its replay's history beside it.
// Exit 0: the minimal file is written; 1: the input breaks no invariant (or not the one
// asked for) on the sim, so there is nothing to minimize; 2: a bad argument or an
// unreadable, unparsable file (named, with its line).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/minimize_progress.h"
#include "core/invariants.h"
#include "core/text.h"
#include "properties/checker.h"
#include "properties/failure_files.h"
#include "properties/history_minimizer.h"
#include "sim/history_read.h"
#include "sim/scenario/parse.h"

namespace trafikey::cli {

namespace {

struct ShrinkArgs {
  std::string file;
  std::string out = ".";
  std::string invariant;
  int budget = properties::MinimizeOptions{}.replay_budget;
};

int shrink(const ShrinkArgs& args) {
  const auto& ids = properties::invariant_ids();
  const bool known = std::any_of(ids.begin(), ids.end(), [&](const auto& info) {
    return info.id == args.invariant && info.judged_by_checker;
  });
  if (!args.invariant.empty() && !known) {
    std::cerr << "trafikey-sim shrink: --invariant " << args.invariant
              << ": not an invariant the checker judges (core/invariants.h)\n";
    return 2;
  }
  if (args.budget < 1) {
    std::cerr << "trafikey-sim shrink: --budget must be at least 1\n";
    return 2;
  }
  const auto text = read_file(args.file);
  if (!text) {
    std::cerr << "trafikey-sim shrink: cannot read " << args.file << "\n";
    return 2;
  }
  const std::filesystem::path input(args.file);
  std::string stem = input.filename().string();
  for (const char* ext : {".scn", ".jsonl", ".history"}) {
    if (stem.size() > std::string(ext).size() && stem.ends_with(ext)) stem.resize(stem.size() - std::string(ext).size());
  }
  properties::MinimizeOptions options;
  options.invariant = args.invariant;
  options.replay_budget = args.budget;
  const std::string name = stem + ".min";  // STEM.min.scn and STEM.min.history.jsonl
  options.file_name = properties::failure_file_name(name, properties::FailureFile::scenario);
  options.progress = minimize_progress();
  const auto started = std::chrono::steady_clock::now();
  properties::Minimized minimal;
  if (args.file.ends_with(".scn")) {
    auto parsed = scenario::parse_scenario(*text, args.file);
    if (!parsed.ok()) {
      std::cerr << scenario::to_string(parsed.error()) << "\n";
      return 2;
    }
    minimal = properties::minimize_scenario(parsed.value(), options);
  } else {
    if (!sim::read_history_header(*text, nullptr)) {
      std::cerr << args.file << ":1: not a trafikey history or a .scn scenario\n";
      return 2;
    }
    minimal = properties::minimize_history(*text, options);
  }
  minimize_progress_done();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!minimal.failing) {
    std::cout << args.file << ": nothing to minimize: " << minimal.error << "\n";
    return 1;
  }
  if (!minimal.error.empty()) {  // a determinism bug, not the input's fault
    std::cout << args.file << ": internal error: " << minimal.error << "\n";
    return 1;
  }
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec) {
    std::cerr << "trafikey-sim shrink: --out: cannot create " << args.out << ": " << ec.message() << "\n";
    return 2;
  }
  const auto scn_path = (std::filesystem::path(args.out) / options.file_name).string();
  const auto history_path =
      (std::filesystem::path(args.out) / properties::failure_file_name(name, properties::FailureFile::history)).string();
  for (const auto& [path, body] : {std::pair{scn_path, &minimal.text}, std::pair{history_path, &minimal.history}}) {
    if (!properties::write_text_file(path, *body)) {
      std::cerr << "trafikey-sim shrink: cannot write " << path << "\n";
      return 2;
    }
  }
  std::cout << args.file << ": " << minimal.invariant << " kept; " << minimal.calls_before << " -> "
            << minimal.calls_after << " calls, " << minimal.steps_before << " -> " << minimal.steps_after
            << " steps (" << minimal.replays << " replays, " << std::fixed;
  std::cout.precision(2);
  std::cout << seconds << " s)" << (minimal.one_minimal ? "" : "; the budget ran out before it was 1-minimal")
            << "\n  " << minimal.violations.front().describe_line() << "\n"
            << "wrote " << scn_path << "\n      " << history_path << "\n"
            << "replay with:\n  trafikey-sim replay " << scn_path << "\n";
  return 0;
}

}  // namespace

void add_shrink(CLI::App& app) {
  auto args = std::make_shared<ShrinkArgs>();
  CLI::App* cmd = app.add_subcommand(
      "shrink",
      "Minimize a failing scenario (.scn) or history (.jsonl) to the steps that still break the same "
      "invariant, 1-minimal, written as DIR/STEM.min.scn with every reply spelled out; exit 0 when "
      "written, 1 when the input breaks no invariant on the sim, 2 for a bad argument or file");
  cmd->add_option("FILE", args->file, "A scenario file (.scn) or a history (history.jsonl)")->required();
  cmd->add_option("--out", args->out, "Directory for STEM.min.scn and STEM.min.history.jsonl (default: .)");
  cmd->add_option("--invariant", args->invariant,
                  "The invariant to keep (default: the first the input breaks); the input must break it first");
  cmd->add_option("--budget", args->budget, "Candidate replays at most (default 20000)");
  cmd->callback([args] { exit_status() = shrink(*args); });
}

}  // namespace trafikey::cli
