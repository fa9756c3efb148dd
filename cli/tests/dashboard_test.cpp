// The campaign dashboard of a campaign's summary (cli/campaign_dashboard.h), on a summary
// built in memory: a 100,000-run campaign's page stays under 600 KiB with every chart, its
// runs table is bounded (the failing run, the longest runs, a sample), and the same
// summary gives the same bytes, also after a round trip through campaign.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "cli/campaign_dashboard.h"
#include "properties/coverage.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::cli {
namespace {

using Coverage = properties::CampaignResult::RunCoverage;

std::size_t occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size())) ++n;
  return n;
}

// The run's counts of a target's family.
std::map<std::string, std::int64_t>& counts_of(Coverage& c, const properties::CoverageTarget& t) {
  return t.family == "fault" ? c.faults : t.family == "verdict" ? c.verdicts : t.family == "edge" ? c.edges : c.situations;
}

// A run that reached a quarter of the targets (a different quarter from run to run, so
// every target is reached), with names as long as the real ones.
Coverage synthetic_run(int run) {
  Coverage c;
  c.run = run;
  c.calls = 5 + (static_cast<long long>(run) * 7919) % 4000;
  c.sim_ms = 800 + (static_cast<long long>(run) * 104729) % 90000;
  c.outcome = run % 97 == 0 ? "liveness-bound-exceeded" : "drained";
  c.determinism_checked = run % 10 == 0;
  int k = 0;
  for (const auto& t : properties::coverage_targets()) {
    if ((run + k++) % 4 != 0) continue;
    counts_of(c, t)[t.name] = 1 + run % 5;
  }
  c.final_states = {{"done", 20}, {"dead", 3}, {"pending", 1}, {"vanished", 2}};
  c.judged = {{"queue.fence", 40}, {"epoch.stamp", 12}};
  return c;
}

// The summary of a campaign of `runs` runs whose run `failing` (if >= 0) failed.
properties::CampaignSummary synthetic_summary(int runs, int failing) {
  properties::CampaignResult result;
  result.coverage.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    if (i == failing) {
      Coverage c;
      c.run = i;
      c.failed = true;
      result.coverage.push_back(std::move(c));
      break;
    }
    result.coverage.push_back(synthetic_run(i));
  }
  if (failing >= 0) {
    properties::CampaignFailure f;
    f.run = failing;
    f.invariant = "queue.fence";
    f.violations = {properties::Violation{"queue.fence", 3, 9, 0, "two live tokens for job j3"}};
    f.original_calls = 900;
    f.shrunk_calls = 14;
    result.failure = f;
  }
  properties::CampaignOptions options;
  options.runs = runs;
  options.seed = 7;
  return properties::summarize(result, options, "", false);
}

std::string page(const properties::CampaignSummary& s, const std::string& history = {}) {
  std::vector<reports::ReportInput> detailed;
  if (!history.empty()) {
    reports::ReportInput in;
    in.name = "run (shrunk)";
    in.history_text = history;
    detailed.push_back(in);
  }
  std::string error;
  const auto report = reports::render_campaign_dashboard(
      dashboard_of_summary(s, "trafikey-sim replay out/failure.scn", !detailed.empty()), detailed, {}, &error);
  EXPECT_TRUE(report) << error;
  return report ? report->html : std::string();
}

// A generated run's history: what a failure's shrunk history looks like on the page.
std::string a_history() {
  sim::PlanChoices choices;
  choices.seed = 5;
  choices.fault_kinds = {sim::FaultKind::restart, sim::FaultKind::worker_death};
  return sim::run_plan(sim::draw_plan(choices)).history;
}

TEST(Dashboard, a_100000_run_campaign_page_stays_under_600_KiB_with_its_charts) {
  const auto summary = synthetic_summary(100000, -1);
  ASSERT_EQ(summary.passed, 100000);
  const std::string html = page(summary);
  EXPECT_LT(html.size(), 600u * 1024u) << "the page of 100,000 runs";
  EXPECT_EQ(occurrences(html, "<svg class=\"chart coverage-chart\""), 4u) << "faults, verdicts, edges, situations";
  EXPECT_EQ(occurrences(html, "<svg class=\"chart hist\""), 2u) << "calls and simulated ms per run";
  EXPECT_EQ(occurrences(html, "<g class=\"target"), properties::coverage_targets().size());
  // the histograms hold every run once each
  const std::regex bar("<rect class=\"bar\"[^>]*><title>[0-9]+(\u2013[0-9]+)? (calls|simulated ms): ([0-9]+) run");
  std::map<std::string, std::int64_t> runs_in_bars;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), bar); it != std::sregex_iterator(); ++it) {
    runs_in_bars[(*it)[2]] += std::stoll((*it)[3]);
  }
  EXPECT_EQ(runs_in_bars["calls"], 100000);
  EXPECT_EQ(runs_in_bars["simulated ms"], 100000);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(Dashboard, a_failed_campaign_page_opens_with_the_failure_and_its_replay_command) {
  const auto summary = synthetic_summary(100000, 99990);
  const std::string html = page(summary, a_history());
  EXPECT_LT(html.size(), 600u * 1024u);
  const auto failures = html.find("<h3 id=\"failures\">Failures</h3>");
  ASSERT_NE(failures, std::string::npos);
  EXPECT_LT(failures, html.find("<h3 id=\"coverage\">")) << "failures come first";
  EXPECT_NE(html.find("<b>run 99990</b> broke <code>queue.fence</code>: queue.fence at call 3 (history line 9), t=0: "
                      "two live tokens for job j3"),
            std::string::npos);
  EXPECT_NE(html.find("<pre class=\"replay\">trafikey-sim replay out/failure.scn</pre>"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#run-0\">its history in full, below</a>"), std::string::npos);
  EXPECT_NE(html.find("id=\"run-0\""), std::string::npos) << "the shrunk history follows in full";
}

TEST(Dashboard, a_target_the_campaigns_plans_never_draw_is_grey_and_apart_from_those_never_reached) {
  // Every target reached but two: large-run, which the campaign's plans never draw (large
  // runs are the All property's), and the fault restart, which they draw.
  Coverage c;
  c.calls = 10;
  c.outcome = "drained";
  for (const auto& t : properties::coverage_targets()) {
    if (t.name != "large-run" && t.name != "restart") counts_of(c, t)[t.name] = 1;
  }
  properties::CampaignResult result;
  result.coverage.push_back(c);
  properties::CampaignOptions options;
  options.runs = 1;
  const auto summary = properties::summarize(result, options, "", false);
  std::string error;
  const auto report = reports::render_campaign_dashboard(dashboard_of_summary(summary, "", false), {}, {}, &error);
  ASSERT_TRUE(report) << error;
  const std::string& html = report->html;
  EXPECT_NE(html.find("<g class=\"target outside\"><title>large-run: not drawn by this campaign</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<g class=\"target uncovered\"><title>restart: never reached</title>"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<g class=\"target uncovered\">"), 1u) << "only restart in red";
  EXPECT_NE(html.find("<p class=\"uncovered\">Never reached: restart</p>"), std::string::npos) << html;
  EXPECT_NE(html.find("coverage gate requires them): large-run</p>"), std::string::npos);
  EXPECT_NE(report->markdown.find("| never reached | restart |"), std::string::npos) << report->markdown;
  EXPECT_NE(report->markdown.find("| not drawn by this campaign | large-run |"), std::string::npos);
}

TEST(Dashboard, the_runs_table_is_collapsed_and_lists_the_failing_the_longest_and_a_sample) {
  const auto summary = synthetic_summary(100000, 99990);
  const auto d = dashboard_of_summary(summary, "", false);
  const auto rows = reports::table_runs(d);
  ASSERT_EQ(d.failing_runs.size(), 1u);
  EXPECT_EQ(rows.front().first->run, 99990);
  EXPECT_EQ(rows.front().second, "failing");
  EXPECT_EQ(d.longest_runs.size(), properties::longest_runs_max);
  EXPECT_EQ(d.sample_runs.size(), properties::sample_runs_max);
  EXPECT_LE(rows.size(), 1 + properties::longest_runs_max + properties::sample_runs_max);
  // The longest: no run outside the list has more calls than the shortest in it.
  std::int64_t shortest_listed = d.longest_runs.back().calls, most_unlisted = 0;
  for (int i = 0; i < 99990; ++i) {
    const Coverage c = synthetic_run(i);
    const bool listed = std::any_of(d.longest_runs.begin(), d.longest_runs.end(),
                                    [&](const reports::DashboardRun& r) { return r.run == i; });
    if (!listed) most_unlisted = std::max(most_unlisted, c.calls);
  }
  EXPECT_GE(shortest_listed, most_unlisted);
  for (std::size_t i = 1; i < d.longest_runs.size(); ++i) EXPECT_GE(d.longest_runs[i - 1].calls, d.longest_runs[i].calls);
  // The sample spreads over the campaign, not its first runs.
  int late = 0;
  for (const auto& r : d.sample_runs) late += r.run >= 50000;
  EXPECT_GT(late, 5);
  EXPECT_LT(late, 35);
  // Each run once, collapsed under <details>.
  std::set<int> seen;
  for (const auto& [run, why] : rows) EXPECT_TRUE(seen.insert(run->run).second) << run->run;
  const std::string html = page(summary);
  EXPECT_EQ(occurrences(html, "<tr class=\"listed-"), rows.size());
  const auto details = html.find("<details class=\"runs-table\"");
  ASSERT_NE(details, std::string::npos);
  EXPECT_LT(details, html.find("<tr class=\"listed-"));
  EXPECT_EQ(html.find("<details class=\"runs-table\" open"), std::string::npos) << "collapsed";
}

TEST(Dashboard, the_same_summary_gives_the_same_bytes_also_read_back_from_campaign_json) {
  const auto summary = synthetic_summary(3000, 2500);
  std::string error;
  const auto parsed = properties::parse_summary(properties::summary_json(summary), error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(properties::summary_json(*parsed), properties::summary_json(summary));
  EXPECT_EQ(page(*parsed), page(summary));
  // and the bytes are the summary's: another failing run, or one run fewer, is another page
  EXPECT_NE(page(synthetic_summary(3000, 2400)), page(summary));
  EXPECT_NE(page(synthetic_summary(2999, -1)), page(synthetic_summary(3000, -1)));
}

}  // namespace
}  // namespace trafikey::cli
