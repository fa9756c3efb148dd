#include "reports/campaign_page.h"

#include <algorithm>
#include <span>

#include "reports/html.h"
#include "reports/markdown.h"
#include "reports/run_counts.h"
#include "reports/run_section.h"
#include "reports/state_graph.h"
#include "core/states.h"
#include "sim/plan.h"
#include "sim/world.h"
#include "sim/run_stats.h"
#include "sim/situations.h"

namespace trafikey::reports {

namespace {

// What a report of histories lists even when no run hit it (a campaign's summary lists
// properties/coverage.h's targets instead).
// A report of histories lists at most this many failing runs in its table.
constexpr std::size_t failing_rows_max = 100;

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string run_row(const DashboardRun& r, const std::string& listed) {
  const std::string name = r.anchor.empty() ? esc(r.name) : "<a href=\"#" + r.anchor + "\">" + esc(r.name) + "</a>";
  return "<tr class=\"listed-" + listed + "\"><td class=\"n\">" + std::to_string(r.run) + "</td><td>" + name +
         "</td><td>" + listed + "</td><td>" + status_badge(r.failed ? CheckStatus::failed : CheckStatus::passed) +
         "</td><td class=\"n\">" + std::to_string(r.calls) + "</td><td class=\"n\">" + ms_label(r.sim_ms) +
         "</td><td class=\"n\">" + std::to_string(r.jobs) + "</td><td>" + esc(r.outcome.empty() ? "\u2014" : r.outcome) +
         "</td><td>" + esc(r.failed && !r.why.empty() ? r.why : counts_text(r.faults)) + "</td><td>" +
         esc(counts_text(r.verdicts)) + "</td></tr>\n";
}

std::string failures_html(const CampaignDashboard& d) {
  std::string out = "<h3 id=\"failures\">Failures</h3>\n";
  if (d.failures.empty()) {
    return out + "<p class=\"no-failure\">No run failed: every invariant held on every step of " +
           plural(d.passed, "run", "runs") + ".</p>\n";
  }
  for (const DashboardFailure& f : d.failures) {
    out += "<div class=\"failure\"><p><b>" + esc(f.run_name) + "</b> broke <code>" + esc(f.invariant) + "</code>: " +
           esc(f.facts) + "</p>\n";
    if (!f.shrunk.empty()) out += "<p class=\"note\">" + esc(f.shrunk) + "</p>\n";
    if (!f.replay_command.empty()) {
      out += "<p>Replay it with:</p><pre class=\"replay\">" + esc(f.replay_command) + "</pre>\n";
    }
    if (!f.anchor.empty()) out += "<p><a href=\"#" + f.anchor + "\">its history in full, below</a></p>\n";
    out += "</div>\n";
  }
  return out;
}

std::string coverage_html(const CampaignDashboard& d) {
  std::string out = "<h3 id=\"coverage\">Coverage</h3>\n<p class=\"note\">Each bar: the share of the " +
                    plural(d.coverage_runs, "run", "runs") +
                    " that reached the target, with how often it occurred in all of them; in red: never reached.</p>\n"
                    "<div class=\"charts\">\n";
  for (const CoverageFamily& family : d.coverage) {
    out += "<figure><figcaption>" + esc(family.title) + "</figcaption>\n" +
           coverage_chart_svg(family.title, family.bars, d.coverage_runs) + "</figure>\n";
  }
  out += "</div>\n";
  const CoverageGaps gaps = coverage_gaps(d);
  if (!gaps.never.empty()) out += "<p class=\"uncovered\">Never reached: " + esc(gaps.never) + "</p>\n";
  if (!gaps.outside.empty()) {
    out += "<p class=\"note outside\">Not drawn by this campaign's plans, by design (the property suite's "
           "plans reach them, and its coverage gate requires them): " + esc(gaps.outside) + "</p>\n";
  }
  if (const auto stale = stale_wire2_refused(d)) {
    out += "<p class=\"wire2-stale\"><b>Stale wire 2 calls refused</b>: " + esc(stale_wire2_text(*stale)) +
           "</p>\n";
  }
  return out;
}

std::string invariants_html(const CampaignDashboard& d) {
  std::string out = "<h3 id=\"invariants\">Invariants, all runs</h3>\n<table class=\"invariants\"><tr><th>invariant"
                    "</th><th>result</th><th>first failing run</th><th>detail</th></tr>\n";
  for (const CombinedInvariant& c : d.invariants) {
    const InvariantResult& r = c.result;
    out += "<tr><td><code>" + esc(r.id) + "</code></td><td>" + status_cell(r.status) + "</td><td>" +
           esc(c.first_failed_in) + "</td><td>" + esc(r.detail) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string runs_table_html(const CampaignDashboard& d) {
  const auto rows = table_runs(d);
  std::string out = "<details class=\"runs-table\" id=\"runs\"><summary><b>Runs</b>: " + std::to_string(rows.size()) +
                    " of " + std::to_string(d.runs) + " listed (" +
                    plural(static_cast<std::int64_t>(d.failing_runs.size()), "failing run", "failing runs") +
                    ", the " + std::to_string(d.longest_runs.size()) + " with the most calls, a sample of " +
                    std::to_string(d.sample_runs.size()) + ")</summary>\n"
                    "<p class=\"note\">The sample is the same for the same runs, whichever threads or shards ran "
                    "them (the runs whose index hashes lowest, sim/run_stats.h). Time: the run's length in "
                    "simulated time.</p>\n<table class=\"runs\"><tr><th>#</th><th>run</th><th>listed as</th><th>"
                    "status</th><th>calls</th><th>sim time</th><th>jobs</th><th>outcome</th><th>faults (failing: why)"
                    "</th><th>verdicts</th></tr>\n";
  for (const auto& [run, listed] : rows) out += run_row(*run, listed);
  return out + "</table>\n</details>\n";
}

// The bars of `names` in that order, then any other name the runs hit.
std::vector<CoverageBar> in_order(const std::map<std::string, CoverageBar>& bars, std::span<const std::string_view> names) {
  std::vector<CoverageBar> out;
  for (std::string_view name : names) out.push_back(bars.at(std::string(name)));
  for (const auto& [k, b] : bars) {
    if (std::find(std::begin(names), std::end(names), k) == std::end(names)) out.push_back(b);
  }
  return out;
}

DashboardRun row_of(const RunView& v, std::size_t k, const std::set<std::size_t>& detailed) {
  DashboardRun r;
  r.run = static_cast<int>(k);
  r.name = v.input->name;
  if (detailed.count(k)) r.anchor = "run-" + std::to_string(k);
  r.failed = v.status == CheckStatus::failed;
  if (r.failed) r.why = v.reason;
  r.calls = static_cast<std::int64_t>(v.model.calls.size());
  r.sim_ms = v.model.end_true_ms;
  r.jobs = static_cast<std::int64_t>(v.model.jobs.size());
  r.outcome = v.model.end_outcome.value_or("");
  r.faults = faults_only(v.model);
  r.verdicts = v.model.verdict_counts;
  return r;
}

}  // namespace

CoverageGaps coverage_gaps(const CampaignDashboard& d) {
  CoverageGaps gaps;
  for (const CoverageFamily& family : d.coverage) {
    for (const CoverageBar& b : family.bars) {
      if (b.total > 0) continue;
      std::string& list = b.drawn ? gaps.never : gaps.outside;
      list += (list.empty() ? "" : ", ") + b.name;
    }
  }
  return gaps;
}

std::optional<StaleWire2Refused> stale_wire2_refused(const CampaignDashboard& d) {
  using sim::Situation;
  StaleWire2Refused out;
  const std::pair<Situation, std::int64_t StaleWire2Refused::*> parts[] = {
      {Situation::wire2_stale_after_restart, &StaleWire2Refused::restart},
      {Situation::wire2_stale_after_failover, &StaleWire2Refused::failover},
      {Situation::wire2_stale_after_failback, &StaleWire2Refused::failback},
      {Situation::wire2_stale_after_script_claim, &StaleWire2Refused::script_claim}};
  bool found = false;
  for (const CoverageFamily& family : d.coverage) {
    for (const CoverageBar& b : family.bars) {
      for (const auto& [situation, part] : parts) {
        if (b.name != sim::situation_name(situation)) continue;
        // every occurrence, not the runs reaching it: each is one stale token handed in,
        // which wire 2 must answer with 0 (the checker holds every run to that)
        out.*part += b.total;
        found = true;
      }
    }
  }
  if (!found) return std::nullopt;
  return out;
}

std::string stale_wire2_text(const StaleWire2Refused& r) {
  return std::to_string(r.total()) + " (after a restart " + std::to_string(r.restart) +
         ", a failover " + std::to_string(r.failover) + ", a failback " + std::to_string(r.failback) +
         ", a scripted re-claim " + std::to_string(r.script_claim) + ")";
}

std::vector<std::pair<const DashboardRun*, std::string>> table_runs(const CampaignDashboard& d) {
  std::vector<std::pair<const DashboardRun*, std::string>> out;
  std::set<int> listed;
  auto add = [&](const std::vector<DashboardRun>& runs, const char* why) {
    for (const DashboardRun& r : runs) {
      if (listed.insert(r.run).second) out.emplace_back(&r, why);
    }
  };
  add(d.failing_runs, "failing");
  add(d.longest_runs, "longest");
  add(d.sample_runs, "sample");
  return out;
}

std::string campaign_dashboard_html(const CampaignDashboard& d, const ReportOptions& options) {
  std::string out = "<section class=\"campaign\" id=\"campaign\">\n<h2>Campaign: " + esc(d.subject) + "</h2>\n";
  out += "<div class=\"tiles\"><div class=\"tile\"><b>" + std::to_string(d.runs) + "</b>runs</div><div class=\"tile\"><b>" +
         std::to_string(d.passed) + "</b>passed</div><div class=\"tile" + (d.failed ? " tile-failed" : "") + "\"><b>" +
         std::to_string(d.failed) + "</b>failed</div><div class=\"tile\"><b>" + std::to_string(d.calls) +
         "</b>calls</div><div class=\"tile\"><b>" + std::to_string(d.determinism_checked) +
         "</b>run twice (determinism)</div></div>\n";
  out += failures_html(d);
  out += coverage_html(d);
  out += "<h3 id=\"distributions\">Distributions</h3>\n<div class=\"charts\"><figure><figcaption>run size: calls per "
         "run</figcaption>\n" +
         histogram_svg(d.calls_histogram, "calls") +
         "</figure><figure><figcaption>run length: simulated ms per run (the run's own clock, not wall-clock "
         "time)</figcaption>\n" +
         histogram_svg(d.sim_ms_histogram, "simulated ms") + "</figure></div>\n";
  out += "<h3 id=\"outcomes\">How the runs ended</h3>\n<table class=\"outcomes\"><tr><th>outcome</th><th>runs</th></tr>";
  for (const auto& [outcome, n] : d.outcomes) {
    out += "<tr><td>" + esc(outcome) + "</td><td class=\"n\">" + std::to_string(n) + "</td></tr>";
  }
  out += "</table>\n";
  if (!d.outcome_note.empty()) out += "<p class=\"note\">" + esc(d.outcome_note) + "</p>\n";
  out += "<h3>State graph, all runs</h3>\n" + state_graph_html(d.edges, d.final_states, "all-", options.use_dot);
  out += invariants_html(d);
  out += runs_table_html(d);
  return out + "</section>\n";
}

CampaignDashboard dashboard_of_runs(const std::vector<RunView>& runs, const std::set<std::size_t>& detailed) {
  CampaignDashboard d;
  d.subject = plural(static_cast<std::int64_t>(runs.size()), "history", "histories");
  d.runs = static_cast<std::int64_t>(runs.size());
  d.coverage_runs = d.runs;
  std::map<std::string, CoverageBar> faults, verdicts, edges;
  for (std::string_view f : sim::fault_kind_names()) faults[std::string(f)].name = f;
  for (std::string_view v : sim::sweep_verdict_names) verdicts[std::string(v)].name = v;
  for (std::string_view e : allowed_transition_names) edges[std::string(e)].name = e;
  auto reach = [](std::map<std::string, CoverageBar>& bars, const std::map<std::string, std::int64_t>& counts) {
    for (const auto& [k, n] : counts) {
      CoverageBar& b = bars[k];
      b.name = k;
      b.runs += n > 0;
      b.total += n;
    }
  };
  std::map<std::int64_t, std::int64_t> calls_buckets, sim_ms_buckets;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const RunView& v = runs[k];
    const RunModel& m = v.model;
    const DashboardRun row = row_of(v, k, detailed);
    d.calls += row.calls;
    if (v.status == CheckStatus::failed) {
      ++d.failed;
      const FailureInfo* f = v.input->failure ? &*v.input->failure : nullptr;
      std::string invariant;
      for (const InvariantResult& r : v.invariants) {
        if (r.status == CheckStatus::failed && invariant.empty()) invariant = r.id;
      }
      const std::string replay = !v.input->replay_command.empty() ? v.input->replay_command
                                 : f                             ? f->replay_command
                                                                 : "";
      d.failures.push_back({v.input->name, invariant.empty() ? "(no invariant)" : invariant,
                            f && !f->message.empty() ? f->message : v.reason, "", replay, row.anchor});
      if (d.failing_runs.size() < failing_rows_max) d.failing_runs.push_back(row);
    } else if (v.status == CheckStatus::passed) {
      ++d.passed;
    }
    reach(faults, row.faults);
    reach(verdicts, m.verdict_counts);
    reach(edges, edge_texts(m.edges));
    for (const auto& [key, e] : m.edges) {
      EdgeCount& sum = d.edges[key];
      sum.count += e.count;
      for (const auto& [cause, n] : e.by_cause) sum.by_cause[cause] += n;
    }
    for (const auto& [state, n] : final_states(m)) d.final_states[state] += n;
    ++d.outcomes[m.end_outcome.value_or("no end line")];
    ++calls_buckets[sim::bucket_of(row.calls)];
    ++sim_ms_buckets[sim::bucket_of(row.sim_ms)];
    sim::keep_first(d.longest_runs, row, d.longest_max, [](const DashboardRun& a, const DashboardRun& b) {
      return sim::longer_run(a.calls, a.run, b.calls, b.run);
    });
    sim::keep_first(d.sample_runs, row, d.sample_max,
                    [](const DashboardRun& a, const DashboardRun& b) { return sim::sampled_before(a.run, b.run); });
  }
  d.coverage = {{"fault kinds", in_order(faults, sim::fault_kind_names())},
                {"sweep verdicts", in_order(verdicts, sim::sweep_verdict_names)},
                {"state edges", in_order(edges, allowed_transition_names)}};
  d.calls_histogram.assign(calls_buckets.begin(), calls_buckets.end());
  d.sim_ms_histogram.assign(sim_ms_buckets.begin(), sim_ms_buckets.end());
  d.invariants = combine_invariants(runs);
  return d;
}

std::optional<Report> render_campaign_dashboard(const CampaignDashboard& d, const std::vector<ReportInput>& detailed,
                                                const ReportOptions& options, std::string* error) {
  std::vector<RunView> views;
  for (const ReportInput& in : detailed) {
    auto v = view_run(in, error);
    if (!v) return std::nullopt;
    views.push_back(std::move(*v));
  }
  const CheckStatus status = d.failed ? CheckStatus::failed : d.passed ? CheckStatus::passed : CheckStatus::not_judged;
  std::string line = plural(d.runs, "run", "runs") + ", " + std::to_string(d.calls) + " calls, " +
                     std::to_string(d.passed) + " passed, " + std::to_string(d.failed) + " failed";
  if (!d.failures.empty()) {
    line += " (first: " + d.failures.front().run_name + ": " + d.failures.front().invariant + ")";
  }
  const std::string title = "trafikey campaign \u2014 " + d.subject;
  std::string out = page_begin(title);
  out += "<header><h1>" + esc(title) + "</h1>\n<p class=\"status-line status-" + std::string(status_class(status)) +
         "\"><b>" + status_word(status) + "</b> \u2014 " + esc(line) + "</p>\n<p class=\"note\"><a href=\"#failures\">"
         "failures</a> \u00b7 <a href=\"#coverage\">coverage</a> \u00b7 <a href=\"#distributions\">distributions</a> "
         "\u00b7 <a href=\"#invariants\">invariants</a> \u00b7 <a href=\"#runs\">runs</a></p></header>\n";
  out += campaign_dashboard_html(d, options);
  for (std::size_t k = 0; k < views.size(); ++k) out += run_section(views[k], k, options);
  out += "<footer><p class=\"note\">Written by <code>trafikey-sim</code> from a campaign summary" +
         std::string(views.empty() ? "" : " and " + plural(static_cast<std::int64_t>(views.size()), "history",
                                                             "histories")) +
         ". Invariant ids: shared spec INVARIANTS.md. Same input, same bytes.</p></footer>\n";
  out += page_end();
  return Report{std::move(out), dashboard_markdown(d, options)};
}

std::string write_campaign_dashboard(const CampaignDashboard& d, const std::vector<ReportInput>& detailed,
                                     const std::string& html_path, const std::string& md_path, ReportOptions options) {
  options.html_path = html_path;
  std::string error;
  auto report = render_campaign_dashboard(d, detailed, options, &error);
  if (!report) return error;
  if (!write_text(html_path, report->html)) return html_path + ": cannot write the report";
  if (!md_path.empty() && !write_text(md_path, report->markdown)) return md_path + ": cannot write the summary";
  return {};
}

}  // namespace trafikey::reports
