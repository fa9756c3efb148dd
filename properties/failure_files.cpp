#include "properties/failure_files.h"

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

FailureFiles write_failure(const sim::RunPlan& plan, const std::string& dir, const std::string& name,
                           const std::vector<Violation>& violations) {
  FailureFiles out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    out.error = "cannot create " + dir + ": " + ec.message();
    return out;
  }
  const CheckedRun rerun = run_checked(plan, true);
  const auto base = std::filesystem::path(dir) / name;
  out.history_path = base.string() + ".history.jsonl";
  std::ofstream history(out.history_path, std::ios::binary | std::ios::trunc);
  history << rerun.summary.history;
  if (!history) {
    out.error = "cannot write " + out.history_path;
    return out;
  }
  const std::string scn = export_scenario(rerun.summary.history, violations);
  if (!scn.empty()) {
    out.scenario_path = base.string() + ".scn";
    std::ofstream file(out.scenario_path, std::ios::binary | std::ios::trunc);
    file << scn;
    if (!file) out.error = "cannot write " + out.scenario_path;
  }
  return out;
}

}  // namespace trafikey::properties
