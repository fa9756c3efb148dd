// Failure artefacts: what a failing property or campaign leaves for the engineer, under
// DIR with the failure's NAME (the names: failure_file_names.h):
//   NAME.scn                     the minimal scenario (history_minimizer.h): what a
//                                reviewer reads; `trafikey-sim replay NAME.scn` fails at
//                                its final `check invariants` with the same invariant
//   NAME.history.jsonl           that scenario's replay (a `scenario` history)
//   NAME.original.history.jsonl  the failing plan's run, before minimization
//                                (`trafikey-sim replay` reruns the plan)
//   NAME.original.scn            the same run as a scenario, every step of it
//   NAME.plan.json               the plan
//   NAME.reproduce.txt           RapidCheck's `reproduce=` string, where there is one
// When the run cannot be minimized (its export does not break the invariant on a scenario
// replay, e.g. liveness.drain, judged only at a generated run's end), NAME.scn and
// NAME.history.jsonl are the original's, and `minimize_error` says why.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "properties/checker.h"
#include "properties/failure_file_names.h"
#include "properties/history_minimizer.h"
#include "sim/plan.h"

namespace trafikey::properties {

struct FailureFiles {
  std::string history_path;           // DIR/NAME.history.jsonl
  std::string scenario_path;          // DIR/NAME.scn (empty when not written)
  std::string original_history_path;  // DIR/NAME.original.history.jsonl
  std::string plan_path;              // DIR/NAME.plan.json
  std::string reproduce_path;         // DIR/NAME.reproduce.txt (empty when none)
  std::string error;                  // why something could not be written
  // The minimization: calls before and after, replays, and (minimize_error) why it did not
  // happen. minimized.failing false: NAME.scn is the unminimized export.
  Minimized minimized;
  std::string minimize_error;
  double minimize_seconds = 0;  // wall time of the minimization (for messages, never asserted)
};

struct FailureOptions {
  bool minimize = true;
  std::string reproduce;  // RapidCheck's reproduce string (empty: none)
  // progress of the minimization (history_minimizer.h), may be empty
  std::function<void(int, std::size_t, const char*)> progress;
};

// Reruns `plan` with the history kept, minimizes its history to the invariant of
// violations.front(), and writes the files above under `dir` (created).
FailureFiles write_failure(const sim::RunPlan& plan, const std::string& dir, const std::string& name,
                           const std::vector<Violation>& violations, const FailureOptions& options = {});

// Writes `text` to `path`; false when it could not.
bool write_text_file(const std::string& path, const std::string& text);

// $TRAFIKEY_FAILURES, else "failures" under the current directory.
std::string failure_dir();

}  // namespace trafikey::properties
