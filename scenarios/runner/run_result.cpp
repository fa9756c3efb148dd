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

std::string field_list(const std::vector<FieldCheck>& fields,
                       const std::vector<std::optional<std::string>>& values) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ' ';
    out += write_word(fields[i].field) + "=" + (values[i] ? write_word(*values[i]) : "-");
  }
  return out;
}

std::string id_list(const std::vector<std::string>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? " " : "") + write_word(ids[i]);
  return out + "]";
}

}  // namespace trafikey::scenario
