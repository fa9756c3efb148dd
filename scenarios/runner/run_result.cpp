#include "scenarios/runner/run_result.h"

#include "sim/scenario/notation.h"

namespace trafikey::scenario {

std::string describe_failure(std::string_view file, const StepFailure& failure) {
  std::string out(file);
  if (failure.line > 0) out += ":" + std::to_string(failure.line);
  out += ": failed: " + failure.step + "\n";
  out += "  expected: " + failure.expected + "\n";
  out += "  actual:   " + failure.actual + "\n";
  if (!failure.invariant.empty()) out += "  invariant: " + failure.invariant + "\n";
  return out;
}

}  // namespace trafikey::scenario
