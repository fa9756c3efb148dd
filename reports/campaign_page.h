// The campaign overview: what several runs of one report were (a table of every run with
// its status, linked to its section when shown in full), what they exercised (coverage of
// fault kinds, sweep verdict kinds and state edges, with what no run hit in red), the
// distribution of run sizes, the state graph summed over all runs and the invariants over
// all runs. The runs themselves follow it as run sections (run_section.h).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "reports/page.h"
#include "reports/report.h"

namespace trafikey::reports {

// `detailed`: the indexes of the runs the page shows in full (they get a link).
std::string campaign_overview(const std::vector<RunView>& runs, const std::set<std::size_t>& detailed,
                              const ReportOptions& options);

}  // namespace trafikey::reports
