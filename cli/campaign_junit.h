// A campaign's summary as JUnit XML (campaign --junit, merge --junit): one test case per
// invariant, the failing one carrying the invariant, its facts and the replay command, and
// one that no run judged skipped (never a pass it did not earn).
#pragma once

#include <string>

#include "properties/campaign_summary.h"

namespace trafikey::cli {

// Writes FILE; empty on success, else why not. `replay` is the failure's replay command
// (empty when the campaign passed); `seconds` the wall time spent.
std::string write_campaign_junit(const properties::CampaignSummary& summary, const std::string& replay,
                                 double seconds, const std::string& path);

}  // namespace trafikey::cli
