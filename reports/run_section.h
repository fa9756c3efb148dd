// One run in full: a section with its status, the failure (when any), its facts and
// parameters, the timeline with its legend, the invariant table, the state graph, the
// counts, the final rows, the header as written and every history line with an anchor.
// The report page renders each detailed run through it, and so does the baseline
// comparison for each history that changed.
#pragma once

#include <cstddef>
#include <string>

#include "reports/page.h"
#include "reports/report.h"

namespace trafikey::reports {

// `index`: the run's number on its page, for its id ("run-3") and its line anchors
// ("r3-L57", reports/html.h line_anchor), unique on the page.
std::string run_section(const RunView& run, std::size_t index, const ReportOptions& options);

}  // namespace trafikey::reports
