// The campaign dashboard: what many runs were, on one page that stays small however many
// runs there are (a 100,000-run campaign's page is well under 600 KiB).
//
// In this order: the failures, each with its invariant, its facts and the command that
// replays it (linked to its run shown in full below the dashboard); coverage as charts
// (fault kinds, sweep verdicts, state edges, the driver's situations: the runs that
// reached each target of properties/coverage.h, what none reached in red, or in grey when
// the campaign's plans do not draw it by design) and, under them, the stale wire 2 calls
// refused (stale_wire2_refused); the
// distributions of run size (calls) and of run length in simulated time (ms of the run,
// never wall-clock time) as histograms; how runs ended; the state graph summed over the
// runs; the invariants over the runs; and the runs table, collapsed in a <details> and
// bounded: the failing runs, the longest runs (most calls) and a deterministic sample
// (sim/run_stats.h), each row saying why it is listed.
//
// A dashboard is built from a campaign's summary (trafikey-sim campaign, merge, or
// report on a campaign.json: cli/campaign_dashboard.h) or from the runs of a report of
// several histories (dashboard_of_runs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reports/charts.h"
#include "reports/overall.h"
#include "reports/page.h"
#include "reports/report.h"

namespace trafikey::reports {

// One row of the runs table.
struct DashboardRun {
  int run = 0;              // the run's index in the campaign (or among the report's histories)
  std::string name;         // "run 17", or a history's file name
  std::string anchor;       // "run-3" when the page shows the run in full; else empty
  bool failed = false;
  std::string why;          // a failing run: its invariant and facts
  std::int64_t calls = 0, sim_ms = 0, jobs = 0;
  std::string outcome;
  std::map<std::string, std::int64_t> faults, verdicts;
};

struct DashboardFailure {
  std::string run_name;        // "run 17"
  std::string invariant, facts;
  std::string shrunk;          // "shrunk in 12 steps (40 candidates): 830 -> 25 calls"; may be empty
  std::string replay_command;  // may be empty
  std::string anchor;          // the run shown in full ("run-0"); may be empty
};

struct CoverageFamily {
  std::string title;  // "fault kinds"
  std::vector<CoverageBar> bars;
};

struct CampaignDashboard {
  std::string subject;  // "seed 1, 100000 runs" or "12 histories"
  std::int64_t runs = 0, passed = 0, failed = 0, determinism_checked = 0, calls = 0;
  std::vector<DashboardFailure> failures;
  std::vector<CoverageFamily> coverage;
  std::int64_t coverage_runs = 0;  // the runs the coverage is over (100 % of a bar)
  std::map<std::string, std::int64_t> outcomes;
  std::string outcome_note;  // a line under the outcomes; may be empty
  std::map<EdgeKey, EdgeCount> edges;
  std::map<std::string, std::int64_t> final_states;
  std::vector<std::pair<std::int64_t, std::int64_t>> calls_histogram, sim_ms_histogram;
  std::vector<CombinedInvariant> invariants;
  // The runs table: each list in its own order (failing by run, longest by calls, the
  // sample by sim/run_stats.h's sample order); a run in several is listed once.
  std::vector<DashboardRun> failing_runs, longest_runs, sample_runs;
  std::size_t longest_max = 10, sample_max = 40;  // what the lists were bounded to
};

// The names of the coverage targets no run reached, comma-separated in page order: `never`
// those the plans draw (shown in red), `outside` those they do not draw by design.
struct CoverageGaps {
  std::string never, outside;
};
CoverageGaps coverage_gaps(const CampaignDashboard& dashboard);

// The lease verb calls with a stale wire 2 token the runs' servers refused (EMQ §8), read
// from the driver's situations in the coverage (sim/situations.h, wire2-stale-refused-*),
// by what made the token stale: the last loss of calls (a restart, a failover, a failback)
// or a scripted claim since. nullopt when the coverage has none of those targets (a report
// of histories counts no situations).
struct StaleWire2Refused {
  std::int64_t restart = 0, failover = 0, failback = 0, script_claim = 0;
  std::int64_t total() const { return restart + failover + failback + script_claim; }
};
std::optional<StaleWire2Refused> stale_wire2_refused(const CampaignDashboard& dashboard);
// "7 (after a restart 3, a failover 2, a failback 0, a scripted re-claim 2)": the figures
// the page and the Markdown summary both show after "stale wire 2 calls refused".
std::string stale_wire2_text(const StaleWire2Refused& refused);

// The runs of the table in page order with why each is listed ("failing", "longest",
// "sample"): failing, then longest, then sample, each run once.
std::vector<std::pair<const DashboardRun*, std::string>> table_runs(const CampaignDashboard& dashboard);

// The dashboard's <section id="campaign">.
std::string campaign_dashboard_html(const CampaignDashboard& dashboard, const ReportOptions& options);

// The dashboard of a report's runs (several histories): `detailed` are the indexes the
// page shows in full (they get a link).
CampaignDashboard dashboard_of_runs(const std::vector<RunView>& runs, const std::set<std::size_t>& detailed);

// A whole page: the dashboard, then `detailed` (a failure's shrunk history, ...) in full
// as run-0, run-1, ...; and its Markdown summary. nullopt and *error when a history does
// not parse.
std::optional<Report> render_campaign_dashboard(const CampaignDashboard& dashboard,
                                                const std::vector<ReportInput>& detailed,
                                                const ReportOptions& options, std::string* error);

// Render and write the HTML to html_path and, when md_path is not empty, the Markdown;
// "" on success, else what failed.
std::string write_campaign_dashboard(const CampaignDashboard& dashboard, const std::vector<ReportInput>& detailed,
                                     const std::string& html_path, const std::string& md_path = {},
                                     ReportOptions options = {});

}  // namespace trafikey::reports
