#include "properties/failure_files.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "properties/checked_run.h"
#include "properties/scenario_export.h"

namespace trafikey::properties {

std::string failure_dir() {
  const char* env = std::getenv("TRAFIKEY_FAILURES");
  return env && *env ? std::string(env) : (std::filesystem::current_path() / "failures").string();
}

bool write_text_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  return static_cast<bool>(file);
}

FailureFiles write_failure(const sim::RunPlan& plan, const std::string& dir, const std::string& name,
                           const std::vector<Violation>& violations, const FailureOptions& options) {
  FailureFiles out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    out.error = "cannot create " + dir + ": " + ec.message();
    return out;
  }
  const auto path_of = [&](FailureFile file) {
    return (std::filesystem::path(dir) / failure_file_name(name, file)).string();
  };
  auto write = [&](const std::string& path, const std::string& text) {
    if (!write_text_file(path, text) && out.error.empty()) out.error = "cannot write " + path;
  };
  const CheckedRun rerun = run_checked(plan, true);
  out.plan_path = path_of(FailureFile::plan);
  write(out.plan_path, sim::plan_json(plan) + "\n");
  out.original_history_path = path_of(FailureFile::original_history);
  write(out.original_history_path, rerun.summary.history);
  // the run as a scenario, once: the original file is it titled after the violations, and
  // the minimizer starts from it as it came
  const auto exported = export_scenario(rerun.summary.history_header, rerun.summary.history_events, {});
  std::string original_scn;
  if (exported) {
    ExportedScenario original = *exported;
    if (note_violations(original, violations)) original_scn = std::move(original.text);
  }
  if (!original_scn.empty()) write(path_of(FailureFile::original_scenario), original_scn);
  if (!options.reproduce.empty()) {
    out.reproduce_path = path_of(FailureFile::reproduce);
    write(out.reproduce_path, options.reproduce + "\n");
  }

  std::string history = rerun.summary.history, scn = original_scn;
  if (!options.minimize) {
    out.minimize_error = "not asked for";
  } else if (violations.empty()) {
    out.minimize_error = "no invariant broke";
  } else {
    MinimizeOptions m;
    m.invariant = violations.front().invariant;
    m.file_name = failure_file_name(name, FailureFile::scenario);
    m.progress = options.progress;
    const auto started = std::chrono::steady_clock::now();
    if (exported) {
      out.minimized = minimize_scenario(exported->scenario, m);
    } else {
      out.minimized.error = "not a history this build can write as a scenario";
    }
    out.minimize_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!out.minimized.failing) {
      out.minimize_error = "the run as a scenario does not break " + m.invariant + " first: " + out.minimized.error;
    } else if (!out.minimized.error.empty()) {
      out.minimize_error = out.minimized.error;
    } else {
      history = out.minimized.history;
      scn = out.minimized.text;
    }
  }
  out.history_path = path_of(FailureFile::history);
  write(out.history_path, history);
  if (!scn.empty()) {
    out.scenario_path = path_of(FailureFile::scenario);
    write(out.scenario_path, scn);
  }
  return out;
}

}  // namespace trafikey::properties
