#include "scenarios/runner/minimize_divergence.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "scenarios/runner/real_checks.h"
#include "scenarios/runner/run_sim.h"

namespace trafikey::scenario {

namespace {

bool is_check(const Step& step) {
  return std::holds_alternative<CheckRow>(step.action) || std::holds_alternative<CheckSet>(step.action) ||
         std::holds_alternative<CheckInvariants>(step.action);
}

std::int64_t calls_in(const std::vector<Step>& steps) {
  return std::count_if(steps.begin(), steps.end(), [](const Step& s) { return std::holds_alternative<Call>(s.action); });
}

// What makes a candidate's failure the input's: the invariant, the step's line, and for a
// failure at no step of the input (the final keyspace, the final check) what it names.
struct Identity {
  std::string invariant;
  int line = 0;
  std::string step;
  bool operator==(const Identity&) const = default;
};

// A real check that broke at a call and failed the final `check invariants` is named by
// that call's line (real_violation_line), so the steps after it can go.
Identity identity_of(const RunResult& r) {
  const StepFailure& f = *r.failure;
  if (f.line == 0 && !r.violations.empty() && r.violations.front().invariant == f.invariant) {
    if (const int line = real_violation_line(r.violations.front()); line > 0) return {f.invariant, line, {}};
  }
  return {f.invariant, f.line, f.line == 0 ? f.step : std::string()};
}

// A scenario as every test runs it: its action steps with their lines and no expected
// replies (a call the real server answers otherwise is then a divergence at that call,
// sim.differential, not a reply the file expected), and a `check invariants` at the end
// (so the real run's own checks are judged, at line 0).
Scenario as_tested(const Scenario& s) {
  Scenario out{s.title, s.options, {}};
  for (const Step& step : s.steps) {
    if (is_check(step)) continue;
    out.steps.push_back(step);
    if (auto* call = std::get_if<Call>(&out.steps.back().action)) call->expect.reset();
  }
  out.steps.push_back(Step{out.steps.empty() ? 0 : out.steps.back().time_ms, 0, CheckInvariants{}});
  return out;
}

std::vector<Step> actions(const Scenario& s) {
  std::vector<Step> out;
  std::copy_if(s.steps.begin(), s.steps.end(), std::back_inserter(out), [](const Step& step) { return !is_check(step); });
  return out;
}

}  // namespace

MinimizedDivergence minimize_divergence(const Scenario& failing, const RealTarget& target,
                                        const properties::MinimizeOptions& options) {
  MinimizedDivergence out;
  const Scenario input = as_tested(failing);
  const RunResult first = run_differential(input, target);
  if (first.status != CheckStatus::failed || !first.failure) {
    out.error = "the sim and the real server agree on its steps";
    return out;
  }
  out.failing = true;
  out.failure = *first.failure;
  const std::vector<Step> original = actions(input);
  out.steps_before = original.size();
  out.calls_before = calls_in(original);

  const Identity wanted = identity_of(first);
  const properties::SameFailure same = [&](const Scenario& candidate) -> std::optional<std::size_t> {
    const RunResult r = run_differential(as_tested(candidate), target);
    if (r.status != CheckStatus::failed || !r.failure || identity_of(r) != wanted) return std::nullopt;
    if (wanted.line == 0) return candidate.steps.size();
    for (std::size_t i = 0; i < candidate.steps.size(); ++i) {
      if (candidate.steps[i].line == wanted.line) return i + 1;
    }
    return std::nullopt;
  };
  // the sim's replies, for the pass that drops the CLAIMs that got nothing
  std::vector<Reply> replies;
  for (const CallTrace& call : run_on_sim(input, SimRunOptions{{}, false}).calls) replies.push_back(call.reply);
  const properties::MinimalSteps minimal = properties::minimize_steps(input, same, std::move(replies), options);
  out.replays = minimal.replays + 1;
  out.accepted = minimal.accepted;
  if (!minimal.failing) {
    out.error = "its steps stopped failing when run again (" + minimal.error + ")";
    return out;
  }
  out.one_minimal = minimal.one_minimal;
  out.steps_after = minimal.steps.size();
  out.calls_after = calls_in(minimal.steps);

  // Recorded on the sim: every reply the sim gives spelled out, then `check invariants`.
  Scenario draft{failing.title, failing.options, minimal.steps};
  draft.steps.push_back(Step{draft.steps.empty() ? 0 : draft.steps.back().time_ms, 0, CheckInvariants{}});
  std::string why;
  auto recorded = properties::record_scenario(draft, options.file_name, &out.history, &why);
  if (!recorded) {
    out.error = "the minimal steps do not write back as a scenario: " + why;
    return out;
  }
  properties::prepend_comment(
      *recorded, "# Minimized from " + std::to_string(out.steps_before) + " steps (" +
                     std::to_string(out.calls_before) + " calls) to " + std::to_string(out.steps_after) + " (" +
                     std::to_string(out.calls_after) + " calls) on which the sim and " + target.describe() +
                     " still disagree at the same step" +
                     (out.one_minimal ? ": removing any one step makes them agree there.\n"
                                      : "; the replay budget ran out before it was 1-minimal.\n"));
  out.scenario = std::move(recorded->scenario);
  out.text = std::move(recorded->text);
  const RunResult check = run_differential(out.scenario, target);
  if (check.status != CheckStatus::failed || !check.failure) {
    out.error = "the minimal file, with the sim's replies spelled out, passes on the real server";
    return out;
  }
  out.minimal_failure = *check.failure;
  return out;
}

}  // namespace trafikey::scenario
