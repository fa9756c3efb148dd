// The HTML report and the Markdown summary, read as files: what a reviewer gets.
#include <gtest/gtest.h>

#include <regex>

#include "core/invariants.h"
#include "reports/html.h"
#include "reports/report.h"
#include "reports/tests/fixtures.h"

namespace trafikey::reports {
namespace {

using testing::claim_grants;
using testing::crossed_restart_then_extended;
using testing::input;
using testing::occurrences;

Report render(const std::vector<ReportInput>& inputs, ReportOptions options = {}) {
  std::string error;
  auto r = render_report(inputs, options, &error);
  EXPECT_TRUE(r) << error;
  return r ? *r : Report{};
}

TEST(Report, the_same_input_gives_the_same_bytes) {
  const std::vector<ReportInput> one{input("crossed", crossed_restart_then_extended())};
  EXPECT_EQ(render(one).html, render(one).html);
  EXPECT_EQ(render(one).markdown, render(one).markdown);
  const std::vector<ReportInput> campaign{
      input("a", testing::generated_run(3, {sim::FaultKind::restart, sim::FaultKind::clock_step})),
      input("b", testing::generated_run(4, {sim::FaultKind::worker_death})), one[0]};
  const Report first = render(campaign);
  const Report second = render(campaign);
  EXPECT_EQ(first.html, second.html);
  EXPECT_EQ(first.markdown, second.markdown);
}

TEST(Report, the_page_is_self_contained) {
  const std::string html = render({input("crossed", crossed_restart_then_extended())}).html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg")) << "only the SVG namespace";
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("<style>"), std::string::npos);
}

TEST(Report, the_timeline_draws_one_bar_per_lease_grant) {
  for (const std::string& history :
       {crossed_restart_then_extended(), testing::generated_run_with_restart(),
        testing::generated_run(42, {sim::FaultKind::restart, sim::FaultKind::failover, sim::FaultKind::clock_step,
                                    sim::FaultKind::worker_death, sim::FaultKind::lost_reply})}) {
    const std::string html = render({input("run", history)}).html;
    EXPECT_GT(claim_grants(history), 0u);
    EXPECT_EQ(occurrences(html, "<rect class=\"lease"), claim_grants(history));
  }
}

TEST(Report, an_extension_takes_the_colour_of_the_incarnation_that_restamped_it) {
  const std::string html = render({input("crossed", crossed_restart_then_extended())}).html;
  ASSERT_EQ(occurrences(html, "<rect class=\"extension"), 1u);
  const std::size_t at = html.find("<rect class=\"extension");
  const std::string rect = html.substr(at, html.find('>', at) - at);
  EXPECT_NE(rect.find("fill=\"" + std::string(incarnation_colour(2)) + "\""), std::string::npos) << rect;
  EXPECT_EQ(occurrences(html, "class=\"ext-mark\""), 1u) << "the extension is marked";
}

TEST(Report, a_restart_draws_a_marker_across_all_jobs) {
  const std::string history = testing::generated_run_with_restart();
  const std::string html = render({input("run", history)}).html;
  const std::size_t restarts = occurrences(history, "\"fault\":\"restart\"");
  ASSERT_GT(restarts, 0u);
  EXPECT_EQ(occurrences(html, "<g class=\"marker marker-restart\">"), restarts);
}

TEST(Report, each_sweep_verdict_is_a_labelled_mark) {
  const std::string html = render({input("crossed", crossed_restart_then_extended())}).html;
  EXPECT_EQ(occurrences(html, "<g class=\"verdict verdict-exempt\">"), 1u);
  EXPECT_EQ(occurrences(html, "<g class=\"verdict verdict-counted-dead\">"), 1u);
  EXPECT_NE(html.find(">exempt</text>"), std::string::npos);
  EXPECT_NE(html.find(">dead</text>"), std::string::npos);
  EXPECT_NE(html.find("sweep verdict exempt at t=1200 st=1200 inc 2 (stamped by inc 1"), std::string::npos);
}

TEST(Report, the_x_axis_is_true_time_and_tooltips_carry_server_time) {
  const std::string history = testing::generated_run(5, {sim::FaultKind::clock_step});
  const std::string html = render({input("run", history)}).html;
  EXPECT_NE(html.find("true time t (ms)"), std::string::npos);
  EXPECT_NE(html.find("<g class=\"marker marker-clock_step\">"), std::string::npos);
  EXPECT_NE(html.find("<polyline class=\"clock\""), std::string::npos);
  // every lease's tooltip names t, st and the incarnation
  const std::regex lease_title("<rect class=\"lease[^>]*><title>[^<]* at t=[0-9]+ st=[0-9]+ inc [0-9]+");
  EXPECT_EQ(static_cast<std::size_t>(std::distance(
                std::sregex_iterator(html.begin(), html.end(), lease_title), std::sregex_iterator())),
            claim_grants(history));
}

TEST(Report, every_invariant_is_not_judged_when_the_input_has_no_table) {
  const std::string html = render({input("crossed", crossed_restart_then_extended())}).html;
  EXPECT_EQ(occurrences(html, "<span class=\"result-not-judged\">not judged</span>"), invariant_ids.size());
  EXPECT_NE(html.find("<code>sim.differential</code>"), std::string::npos);
}

TEST(Report, a_failure_names_its_invariant_and_links_the_failing_step) {
  ReportInput in = input("failing", crossed_restart_then_extended());
  in.failure = FailureInfo{"epoch.counted", "j1 counted although stamped by incarnation 2",
                           "reproduce=BchVYWxs", "trafikey-sim replay out/fail/history.jsonl", 9};
  std::vector<InvariantResult> table{{"epoch.exempt", CheckStatus::passed, "", 0},
                                     {"queue.fence", CheckStatus::passed, "", 0}};
  in.invariants = table;
  const Report r = render({in});
  EXPECT_NE(r.html.find("<span class=\"result-failed\">failed</span>"), std::string::npos);
  EXPECT_EQ(occurrences(r.html, "<span class=\"result-passed\">passed</span>"), 2u);
  EXPECT_EQ(occurrences(r.html, "<span class=\"result-not-judged\">not judged</span>"), invariant_ids.size() - 3);
  EXPECT_NE(r.html.find("<a href=\"#r0-L9\">line 9</a>"), std::string::npos);
  EXPECT_NE(r.html.find("<div class=\"hl failing\" id=\"r0-L9\">"), std::string::npos);
  EXPECT_NE(r.html.find("reproduce=BchVYWxs"), std::string::npos);
  EXPECT_NE(r.html.find("trafikey-sim replay out/fail/history.jsonl"), std::string::npos);
  EXPECT_EQ(r.markdown.rfind("**trafikey report: FAILED**", 0), 0u) << r.markdown;
  EXPECT_NE(r.markdown.find("| `epoch.counted` | **failed** | j1 counted although stamped by incarnation 2 (line 9) |"),
            std::string::npos)
      << r.markdown;
}

TEST(Report, the_markdown_has_a_status_line_the_invariant_table_counts_and_the_html_path) {
  ReportOptions o;
  o.html_path = "out/crossed/report.html";
  const std::string md = render({input("crossed", crossed_restart_then_extended())}, o).markdown;
  EXPECT_EQ(md.rfind("**trafikey report: NOT JUDGED** \u2014 1 run, ", 0), 0u) << md;
  EXPECT_NE(md.find("| invariant | result | detail |\n| --- | --- | --- |\n"), std::string::npos);
  EXPECT_NE(md.find("| `epoch.exempt` | not judged |  |"), std::string::npos);
  EXPECT_EQ(occurrences(md, "| not judged |"), invariant_ids.size());
  EXPECT_NE(md.find("| verdicts | counted-dead 1, exempt 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| lease grants | 3 |"), std::string::npos) << md;
  EXPECT_NE(md.find("Full report: `out/crossed/report.html`"), std::string::npos);
}

TEST(Report, several_histories_show_the_dashboard_coverage_charts_and_the_distribution_of_run_sizes) {
  std::vector<ReportInput> runs;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    runs.push_back(input("seed-" + std::to_string(seed),
                         testing::generated_run(seed, {sim::FaultKind::restart, sim::FaultKind::worker_death})));
  }
  const Report r = render(runs);
  EXPECT_NE(r.html.find("<h2>Campaign: 6 histories</h2>"), std::string::npos);
  EXPECT_EQ(occurrences(r.html, "<svg class=\"chart coverage-chart\""), 3u);
  for (const char* chart : {"fault kinds", "sweep verdicts", "state edges"}) {
    EXPECT_NE(r.html.find("<figcaption>" + std::string(chart) + "</figcaption>"), std::string::npos) << chart;
  }
  EXPECT_NE(r.html.find("<g class=\"target uncovered\"><title>failover: never reached</title>"), std::string::npos)
      << "never planned here";
  ASSERT_NE(r.html.find("<svg class=\"chart hist\""), std::string::npos);
  // the calls histogram's bars hold every run once
  const std::regex bar("<rect class=\"bar\"[^>]*><title>[0-9]+(\u2013[0-9]+)? calls: ([0-9]+) run");
  std::size_t runs_in_bars = 0;
  for (auto it = std::sregex_iterator(r.html.begin(), r.html.end(), bar); it != std::sregex_iterator(); ++it) {
    runs_in_bars += std::stoul((*it)[2]);
  }
  EXPECT_EQ(runs_in_bars, 6u);
  EXPECT_EQ(occurrences(r.html, "<svg class=\"timeline\""), 6u);
  EXPECT_EQ(r.markdown.rfind("**trafikey report: NOT JUDGED** \u2014 6 runs, ", 0), 0u) << r.markdown;
}

TEST(Report, a_campaign_shows_only_the_first_runs_in_full_and_every_failing_one) {
  std::vector<ReportInput> runs;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    runs.push_back(input("seed-" + std::to_string(seed), testing::generated_run(seed, {})));
  }
  runs[3].failure = FailureInfo{"queue.fence", "two live tokens", "", "", 5};
  ReportOptions o;
  o.detailed_runs_max = 2;
  const std::string html = render(runs, o).html;
  EXPECT_EQ(occurrences(html, "<svg class=\"timeline\""), 3u);
  EXPECT_NE(html.find("id=\"run-3\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"run-2\""), std::string::npos);
}

TEST(Report, a_bad_history_is_an_error_naming_the_file_and_line) {
  ReportInput in = input("bad", crossed_restart_then_extended() + "{\"t\":\"late\"}\n");
  in.source = "dir/bad.jsonl";
  std::string error;
  EXPECT_FALSE(render_report({in}, {}, &error));
  const std::size_t lines = testing::lines_of(in.history_text).size();
  EXPECT_EQ(error, "dir/bad.jsonl:" + std::to_string(lines) + ": field \"t\" (true time) must be an integer");
}

}  // namespace
}  // namespace trafikey::reports
