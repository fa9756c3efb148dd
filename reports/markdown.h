// The Markdown summary of a report, to fit a pull-request comment: the status line, the
// invariant table over all runs, the counts summed over all runs, the failing runs (up to
// ten), how to reproduce a single failing run, and the path of the HTML; and a campaign
// dashboard's.
#pragma once

#include <string>
#include <vector>

#include "reports/campaign_page.h"
#include "reports/page.h"
#include "reports/report.h"

namespace trafikey::reports {

std::string markdown_summary(const std::vector<RunView>& runs, const ReportOptions& options);

// A campaign dashboard's summary: the status line, each failure with its replay command,
// the counts, the coverage targets never reached, and the path of the HTML.
std::string dashboard_markdown(const CampaignDashboard& dashboard, const ReportOptions& options);

}  // namespace trafikey::reports
