#include "sim/scenario/run_result.h"

namespace trafikey::scenario {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::passed: return "passed";
    case Verdict::failed: return "failed";
    case Verdict::skipped: return "skipped";
  }
  return "?";
}

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
