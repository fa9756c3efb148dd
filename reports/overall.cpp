#include "reports/overall.h"

#include <algorithm>

#include "core/text.h"

namespace trafikey::reports {

std::vector<CombinedInvariant> combine_invariants(const std::vector<RunView>& runs) {
  std::vector<CombinedInvariant> out;
  for (const RunView& run : runs) {
    for (const InvariantResult& r : run.invariants) {
      auto it = std::find_if(out.begin(), out.end(), [&](const CombinedInvariant& c) { return c.result.id == r.id; });
      if (it == out.end()) {
        out.push_back({{r.id, CheckStatus::not_judged, "", 0}, ""});
        it = out.end() - 1;
      }
      InvariantResult& c = it->result;
      if (r.status == CheckStatus::failed && c.status != CheckStatus::failed) {
        c = r;
        it->first_failed_in = run.input->name;
      } else if (r.status == CheckStatus::passed && c.status == CheckStatus::not_judged) {
        c.status = CheckStatus::passed;
      }
    }
  }
  return out;
}

StatusLine status_line(const std::vector<RunView>& runs) {
  StatusLine line;
  std::int64_t failed = 0, calls = 0;
  std::string first_fail;
  for (const RunView& r : runs) {
    calls += static_cast<std::int64_t>(r.model.calls.size());
    if (r.status == CheckStatus::failed) {
      if (failed++ == 0) first_fail = r.input->name + ": " + r.reason;
      line.status = CheckStatus::failed;
    } else if (r.status == CheckStatus::incomplete && line.status != CheckStatus::failed) {
      line.status = CheckStatus::incomplete;
    } else if (r.status == CheckStatus::passed && line.status == CheckStatus::not_judged) {
      line.status = CheckStatus::passed;
    }
  }
  std::int64_t f = 0, p = 0, n = 0;
  for (const CombinedInvariant& c : combine_invariants(runs)) {
    (c.result.status == CheckStatus::failed ? f : c.result.status == CheckStatus::passed ? p : n)++;
  }
  std::string& text = line.text;
  text = std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs") + ", " + std::to_string(calls) + " calls";
  if (runs.size() == 1 && line.status != CheckStatus::not_judged && line.status != CheckStatus::passed) {
    text += ", " + runs[0].reason;
  }
  if (runs.size() == 1 && runs[0].model.end_outcome) text += ", ended " + *runs[0].model.end_outcome;
  else if (failed) text += ", " + std::to_string(failed) + " failed (first: " + first_fail + ")";
  text += "; invariants: " + std::to_string(f) + " failed, " + std::to_string(p) + " passed, " + std::to_string(n) +
          " not judged";
  return line;
}

std::string status_word(CheckStatus status) { return upper(status_name(status)); }

}  // namespace trafikey::reports
