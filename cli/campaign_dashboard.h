// A campaign's summary (campaign.json) as the campaign dashboard (reports/campaign_page.h):
// what `campaign --report`, `merge --report` and `report DIR/campaign.json` write. The page
// is drawn from the summary alone (its coverage, histograms and bounded run lists), so it is
// the same for a campaign and for the merge of its shards, and stays small for any number
// of runs; the failure's shrunk history, when there is one, follows it in full.
#pragma once

#include <string>
#include <vector>

#include "properties/campaign_summary.h"
#include "properties/checker.h"
#include "reports/campaign_page.h"

namespace trafikey::cli {

// `replay`: the failure's replay command ("" when none); `failure_shown`: the failure's
// history follows the dashboard as run-0.
reports::CampaignDashboard dashboard_of_summary(const properties::CampaignSummary& summary,
                                                const std::string& replay, bool failure_shown);

// Writes the dashboard to html_path and its Markdown to md_path (none when empty), with
// the failure's history (`failure_history`, may be empty) in full after it. "" on
// success, else what failed. `failure_violations`: those of `failure_history` (the
// minimized run's, whose lines differ from the shrunk plan's), when known: the report
// marks the line of the first.
std::string write_summary_report(const properties::CampaignSummary& summary, const std::string& replay,
                                 const std::string& failure_history, const std::string& html_path,
                                 const std::string& md_path,
                                 const std::vector<properties::Violation>& failure_violations = {});

// OUT.md beside OUT.html (what campaign and merge write with --report OUT.html).
std::string markdown_beside(const std::string& html_path);

}  // namespace trafikey::cli
