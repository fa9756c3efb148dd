// The parts every report page shares: the invariant ids, the page frame and its CSS, a
// run's view (its history parsed, its invariant table resolved, its status) and how a
// status is shown. One run in full is reports/run_section.h, which the report page (one
// run or a campaign) and the baseline comparison both render.
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

// A status as the pages show it: its CSS class suffix ("passed", "not-judged", ...), a
// badge (`<span class="badge status-passed">passed</span>`) and an invariant table cell
// (`<span class="result-passed">passed</span>`).
std::string_view status_class(CheckStatus status);
std::string status_badge(CheckStatus status);
std::string status_cell(CheckStatus status);

// A run parsed, with its invariant table resolved (every id of invariant_ids, then any
// other id the input named) and its status.
struct RunView {
  const ReportInput* input = nullptr;
  RunModel model;
  std::vector<InvariantResult> invariants;
  // failed; passed (some invariant judged, none broken); not_judged (it ended well but
  // nothing judged it); incomplete (the history has no end line).
  CheckStatus status = CheckStatus::not_judged;
  std::string reason;  // one line: why it failed / what passed
};

// nullopt and *error "SOURCE:LINE: what" when the history does not parse.
std::optional<RunView> view_run(const ReportInput& input, std::string* error);

// Writes `text` to `path` (binary, truncating; creates missing parent directories);
// false when it could not.
bool write_text(const std::string& path, const std::string& text);

// Markdown table cell: pipes escaped, newlines flattened.
std::string md_cell(std::string_view text);

}  // namespace trafikey::reports
