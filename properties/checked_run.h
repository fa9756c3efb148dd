// run_checked: a generated run with the invariant checker attached to every step, stopped
// at the first violation. The one way properties, campaigns and self-tests run a plan.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "properties/checker.h"
#include "sim/run.h"

namespace trafikey::properties {

struct CheckedRun {
  sim::RunSummary summary;
  std::vector<Violation> violations;
  std::map<std::string, std::int64_t> judged;
  std::map<std::string, std::int64_t> edges;  // state-graph edge counts from the server's rows
  bool failed() const { return !violations.empty(); }
};

// with_model false: every invariant but verb.model (the bench's measure of the model's cost)
CheckedRun run_checked(const sim::RunPlan& plan, bool keep_history_text, bool with_model = true);
// The same with a checker of the caller's (fresh: one per run).
CheckedRun run_checked(const sim::RunPlan& plan, bool keep_history_text, Checker& checker);

}  // namespace trafikey::properties
