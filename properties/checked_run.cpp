#include "properties/checked_run.h"

namespace trafikey::properties {

CheckedRun run_checked(const sim::RunPlan& plan, bool keep_history_text, bool with_model) {
  Checker checker(with_model);
  return run_checked(plan, keep_history_text, checker);
}

CheckedRun run_checked(const sim::RunPlan& plan, bool keep_history_text, Checker& checker) {
  sim::RunOptions options;
  options.keep_history_text = keep_history_text;
  options.on_world = [&](sim::World& w) { w.set_observer(&checker); };
  options.should_stop = [&] { return checker.failed(); };
  options.before_end = [&](const sim::World& w, const std::string& outcome) {
    if (outcome != "stopped") checker.check_drain(w, outcome, plan.liveness_bound_ms());
  };
  CheckedRun out;
  out.summary = sim::run_plan(plan, options);
  out.violations = checker.violations();
  out.judged = checker.judged();
  out.edges = checker.graph().counts();
  return out;
}

}  // namespace trafikey::properties
