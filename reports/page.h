// The parts every report page shares: the invariant ids, the page frame and its CSS, and
// rendering one history (the per-run section) so the campaign and diff pages reuse it.
#pragma once

#include "core/invariants.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "reports/history_model.h"
#include "reports/report.h"

namespace trafikey::reports {

// The ids of shared spec INVARIANTS.md, in the page's order.
using trafikey::invariant_ids;  // core/invariants.h

// <!DOCTYPE html> ... <body> with the shared CSS; and the closing tags.
std::string page_begin(std::string_view title);
std::string page_end();

// A run parsed, with its invariant table resolved (every id of invariant_ids, then any
// other id the input named) and its status.
struct RunView {
  const ReportInput* input = nullptr;
  RunModel model;
  std::vector<InvariantResult> invariants;
  std::string status;  // "fail", "pass", "ok" (nothing judged), "incomplete" (no end line)
  std::string reason;  // one line: why fail / what passed
};

// nullopt and *error "SOURCE:LINE: what" when the history does not parse.
std::optional<RunView> view_run(const ReportInput& input, std::string* error);

// Writes `text` to `path` (binary, truncating; creates missing parent directories);
// false when it could not.
bool write_text(const std::string& path, const std::string& text);

// Markdown table cell: pipes escaped, newlines flattened.
std::string md_cell(std::string_view text);

}  // namespace trafikey::reports
