// The Markdown summary of a report, to fit a pull-request comment: the status line, the
// invariant table over all runs, the counts summed over all runs, the failing runs (up to
// ten), how to reproduce a single failing run, and the path of the HTML.
#pragma once

#include <string>
#include <vector>

#include "reports/page.h"
#include "reports/report.h"

namespace trafikey::reports {

std::string markdown_summary(const std::vector<RunView>& runs, const ReportOptions& options);

}  // namespace trafikey::reports
