// The HTML report and the Markdown summary, read as files: what a reviewer gets.
#include <gtest/gtest.h>

#include <regex>

#include "core/invariants.h"
#include "reports/campaign_page.h"
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

// The short form a reader sees, cut here from the token's three parts (EMQ §8), not by the
// reports library: "<attempts>-<the run_id's first 6 characters>…-<n>".
std::string short_form(const std::string& token) {
  const std::size_t first = token.find('-'), last = token.rfind('-');
  return token.substr(0, first + 1) + token.substr(first + 1, 6) + "\u2026" + token.substr(last);
}

TEST(Report, a_wire_2_token_is_shown_short_with_the_whole_of_it_in_its_title) {
  const testing::Wire2Run run = testing::claimed_on_wire_2();
  ASSERT_TRUE(std::regex_match(run.token, std::regex("1-[0-9a-f]{40}-[1-9][0-9]*"))) << run.token;
  const std::string html = render({input("wire2", run.history)}).html;
  const std::string shown = short_form(run.token);
  const std::string code = "<code class=\"wire2\" title=\"" + run.token + "\">" + shown + "</code>";
  // the table: each call that handed out or carried it, the token short, whole in its title
  const auto row = [&](const char* verb, const char* answer) {
    return "<td>j1</td><td>" + std::string(verb) + "</td><td>" + code + "</td><td>" + answer + "</td>";
  };
  EXPECT_NE(html.find(row("EMQ.CLAIM", "granted")), std::string::npos) << html;
  EXPECT_NE(html.find(row("EMQ.EXTEND", "extended")), std::string::npos);
  EXPECT_NE(html.find(row("EMQ.COMPLETE", "completed")), std::string::npos);
  EXPECT_NE(html.find(row("EMQ.COMPLETE", "refused")), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"answer-refused\">"), std::string::npos);
  EXPECT_EQ(occurrences(html, code), 4u) << "the wire 1 calls of j2 are not listed";
  // the timeline: the bar named by the short token, its tooltip with the whole of it
  EXPECT_NE(html.find("j1 token " + shown + ": granted by EMQ.CLAIM (w1)"), std::string::npos);
  EXPECT_NE(html.find("; handed out wire 2 token " + run.token), std::string::npos);
  EXPECT_NE(html.find("; carried wire 2 token " + run.token), std::string::npos) << "the extension";
  EXPECT_NE(html.find("j1: EMQ.COMPLETE with token " + shown + " answered 0"), std::string::npos);
  // a wire 1 grant reads as it always did
  EXPECT_NE(html.find("j2 token 1: granted by EMQ.CLAIM (w2)"), std::string::npos);
}

TEST(Report, a_run_all_on_wire_1_shows_no_wire_2_tokens) {
  const std::string html = render({input("crossed", crossed_restart_then_extended())}).html;
  EXPECT_EQ(html.find("wire2-box"), std::string::npos);
  EXPECT_EQ(html.find("<code class=\"wire2\""), std::string::npos);
  EXPECT_EQ(html.find("wire 2 token"), std::string::npos);
  EXPECT_NE(html.find("j1 token 1: granted by EMQ.CLAIM"), std::string::npos);
}

// A campaign's coverage of the driver's situations, the four stale wire 2 ones with
// occurrences (their totals) other than the runs that reached them.
CampaignDashboard campaign_with_stale_wire2(bool with_wire2) {
  CampaignDashboard d;
  d.subject = "seed 1, 10 runs";
  d.runs = d.passed = d.coverage_runs = 10;
  CoverageFamily situations{"situations", {{"sweep-at-a-deadline", 4, 9, true}}};
  if (with_wire2) {
    situations.bars.push_back({"wire2-stale-refused-after-restart", 2, 3, true});
    situations.bars.push_back({"wire2-stale-refused-after-failover", 1, 2, true});
    situations.bars.push_back({"wire2-stale-refused-after-failback", 0, 0, true});
    situations.bars.push_back({"wire2-stale-refused-after-script-claim", 3, 5, true});
  }
  d.coverage = {{"fault kinds", {{"restart", 6, 11, true}}}, situations};
  return d;
}

TEST(Report, a_campaign_says_how_many_stale_wire_2_calls_were_refused) {
  std::string error;
  const auto r = render_campaign_dashboard(campaign_with_stale_wire2(true), {}, {}, &error);
  ASSERT_TRUE(r) << error;
  const std::string figures = "10 (after a restart 3, a failover 2, a failback 0, a scripted re-claim 5)";
  EXPECT_NE(r->html.find("<p class=\"wire2-stale\"><b>Stale wire 2 calls refused</b>: " + figures + "</p>"),
            std::string::npos)
      << r->html;
  EXPECT_NE(r->markdown.find("| stale wire 2 calls refused | " + figures + " |"), std::string::npos)
      << r->markdown;

  // a dashboard whose coverage counts no such situation (a report of histories) says nothing
  const auto none = render_campaign_dashboard(campaign_with_stale_wire2(false), {}, {}, &error);
  ASSERT_TRUE(none) << error;
  EXPECT_EQ(none->html.find("Stale wire 2"), std::string::npos);
  EXPECT_EQ(none->markdown.find("stale wire 2"), std::string::npos);
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
