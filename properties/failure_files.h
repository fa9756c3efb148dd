// Failure artefacts: what a failing property or campaign leaves for the engineer — the
// failing run's history (replayable with `trafikey-sim replay`) and, when the scenario
// exporter is built in, the same history as a scenario file.
#pragma once

#include <string>
#include <vector>

#include "properties/checker.h"
#include "sim/plan.h"

namespace trafikey::properties {

struct FailureFiles {
  std::string history_path;   // DIR/NAME.history.jsonl
  std::string scenario_path;  // DIR/NAME.scn (empty when not written)
  std::string error;          // why nothing could be written
};

// Reruns `plan` with the history kept and writes the files under `dir` (created).
FailureFiles write_failure(const sim::RunPlan& plan, const std::string& dir, const std::string& name,
                           const std::vector<Violation>& violations);

// $TRAFIKEY_FAILURES, else "failures" under the current directory.
std::string failure_dir();

}  // namespace trafikey::properties
