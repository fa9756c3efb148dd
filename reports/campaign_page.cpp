#include "reports/campaign_page.h"

#include <algorithm>
#include <cmath>

#include "reports/html.h"
#include "reports/overall.h"
#include "reports/run_counts.h"
#include "reports/state_graph.h"

namespace trafikey::reports {

namespace {

// What a campaign's coverage lists even when no run hit it.
constexpr std::string_view fault_kinds[] = {"restart",      "failover",     "clock_step",
                                            "clock_rate",   "worker_clock", "worker_death",
                                            "worker_pause", "lost_reply",   "epoch_fail",
                                            "epoch_malformed", "row_delete", "lane_mark",
                                            "upgrade",      "reload"};
constexpr std::string_view sweep_verdict_kinds[] = {"exempt", "counted-recovered", "counted-dead", "ghost",
                                              "lane"};
// Calls per run, binned (about sqrt(runs) bins, at most 20).
std::string histogram(const std::vector<RunView>& runs) {
  std::vector<std::int64_t> sizes;
  for (const RunView& r : runs) sizes.push_back(static_cast<std::int64_t>(r.model.calls.size()));
  const std::int64_t lo = *std::min_element(sizes.begin(), sizes.end());
  const std::int64_t hi = *std::max_element(sizes.begin(), sizes.end());
  const std::int64_t bins = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(sizes.size())))), 1, 20);
  const std::int64_t bin_w = std::max<std::int64_t>(1, (hi - lo + bins) / bins);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(bins), 0);
  for (std::int64_t s : sizes) ++counts[static_cast<std::size_t>(std::min((s - lo) / bin_w, bins - 1))];
  const std::int64_t top = *std::max_element(counts.begin(), counts.end());
  const double w = 640, h = 170, base = 140, bar_w = (w - 40) / static_cast<double>(bins);
  std::string out = "<svg class=\"hist\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(w) + " " + num(h) +
                    "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\" aria-label=\"calls per run\">\n";
  for (std::int64_t b = 0; b < bins; ++b) {
    const std::int64_t n = counts[static_cast<std::size_t>(b)];
    const double bh = top ? 120.0 * static_cast<double>(n) / static_cast<double>(top) : 0;
    const double x0 = 30 + bar_w * static_cast<double>(b);
    const std::int64_t from = lo + b * bin_w, to = from + bin_w - 1;
    out += "<rect class=\"bar\" x=\"" + num(x0 + 1) + "\" y=\"" + num(base - bh) + "\" width=\"" + num(bar_w - 2) +
           "\" height=\"" + num(bh) + "\"><title>" + std::to_string(from) + "\u2013" + std::to_string(to) + " calls: " +
           std::to_string(n) + (n == 1 ? " run" : " runs") + "</title></rect>";
    if (n) {
      out += "<text x=\"" + num(x0 + bar_w / 2) + "\" y=\"" + num(base - bh - 3) + "\" text-anchor=\"middle\">" +
             std::to_string(n) + "</text>";
    }
    out += "<text x=\"" + num(x0 + bar_w / 2) + "\" y=\"" + num(base + 12) + "\" text-anchor=\"middle\">" +
           std::to_string(from) + "</text>\n";
  }
  out += "<line class=\"base\" x1=\"30\" y1=\"" + num(base) + "\" x2=\"" + num(w - 10) + "\" y2=\"" + num(base) +
         "\"/><text x=\"" + num(w - 10) + "\" y=\"" + num(h - 4) +
         "\" text-anchor=\"end\">calls per run (bin start)</text></svg>\n";
  return out;
}

}  // namespace

std::string campaign_overview(const std::vector<RunView>& runs, const std::set<std::size_t>& detailed,
                              const ReportOptions& options) {
  std::string out = "<section class=\"campaign\" id=\"campaign\">\n<h2>Campaign: " + std::to_string(runs.size()) +
                    " runs</h2>\n<table class=\"runs\"><tr><th>#</th><th>run</th><th>status</th><th>kind</th><th>seed</th>"
                    "<th>calls</th><th>jobs</th><th>end t</th><th>outcome</th><th>faults</th><th>verdicts</th></tr>\n";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const RunView& r = runs[k];
    const RunModel& m = r.model;
    const std::string name = detailed.count(k) ? "<a href=\"#run-" + std::to_string(k) + "\">" + esc(r.input->name) + "</a>"
                                                : esc(r.input->name);
    const auto seed = m.seed();
    out += "<tr><td class=\"n\">" + std::to_string(k) + "</td><td>" + name + "</td><td>" + status_badge(r.status) +
           "</td><td>" + esc(m.kind) + "</td><td class=\"n\">" + (seed ? std::to_string(*seed) : "") +
           "</td><td class=\"n\">" + std::to_string(m.calls.size()) + "</td><td class=\"n\">" +
           std::to_string(m.jobs.size()) + "</td><td class=\"n\">" + std::to_string(m.end_true_ms) + "</td><td>" +
           esc(m.end_outcome.value_or("\u2014")) + "</td><td>" + esc(counts_text(faults_only(m))) + "</td><td>" +
           esc(counts_text(m.verdict_counts)) + "</td></tr>\n";
  }
  out += "</table>\n";
  if (detailed.size() < runs.size()) {
    out += "<p class=\"note\">" + std::to_string(runs.size() - detailed.size()) +
           " runs are listed only (the first " + std::to_string(options.detailed_runs_max) +
           " and every failing run are shown in full).</p>\n";
  }

  // Coverage: what the campaign exercised, with what it never hit in red.
  struct Cover {
    std::int64_t runs = 0, total = 0;
  };
  std::map<std::string, Cover> faults, verdicts, edges;
  for (std::string_view f : fault_kinds) faults[std::string(f)];
  for (std::string_view v : sweep_verdict_kinds) verdicts[std::string(v)];
  std::map<EdgeKey, EdgeCount> all_edges;
  std::map<std::string, std::int64_t> all_finals;
  for (const RunView& r : runs) {
    for (const auto& [k, v] : faults_only(r.model)) {
      faults[k].runs += v > 0;
      faults[k].total += v;
    }
    for (const auto& [k, v] : r.model.verdict_counts) {
      verdicts[k].runs += v > 0;
      verdicts[k].total += v;
    }
    for (const auto& [k, e] : r.model.edges) {
      Cover& c = edges[k.first + "\u2192" + k.second];
      c.runs += e.count > 0;
      c.total += e.count;
      EdgeCount& sum = all_edges[k];
      sum.count += e.count;
      for (const auto& [cause, n] : e.by_cause) sum.by_cause[cause] += n;
    }
    for (const auto& [state, n] : final_states(r.model)) all_finals[state] += n;
  }
  for (const auto& [from, to] : std::initializer_list<std::pair<const char*, const char*>>{
           {"pending", "active"}, {"active", "pending"}, {"active", "done"}, {"active", "dead"}}) {
    edges[std::string(from) + "\u2192" + to];
  }
  auto cover_table = [&](const char* title, const std::map<std::string, Cover>& m) {
    std::string t = "<table class=\"coverage\"><tr><th>" + std::string(title) +
                    "</th><th>runs</th><th>occurrences</th></tr>";
    for (const auto& [k, c] : m) {
      t += "<tr><td" + std::string(c.total ? "" : " class=\"uncovered\"") + ">" + esc(k) + "</td><td class=\"n\">" +
           std::to_string(c.runs) + "</td><td class=\"n\">" + std::to_string(c.total) + "</td></tr>";
    }
    return t + "</table>";
  };
  out += "<h3>Coverage</h3>\n<p class=\"note\">In red: never exercised by any run of this campaign.</p>\n"
         "<div style=\"display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start\">" +
         cover_table("fault kind", faults) + cover_table("verdict kind", verdicts) + cover_table("state edge", edges) +
         "</div>\n";
  out += "<h3>Run sizes</h3>\n" + histogram(runs);
  out += "<h3>State graph, all runs</h3>\n" + state_graph_html(all_edges, all_finals, "all-", options.use_dot);

  out += "<h3>Invariants, all runs</h3>\n<table class=\"invariants\"><tr><th>invariant</th><th>result</th><th>first "
         "failing run</th><th>detail</th></tr>\n";
  for (const CombinedInvariant& c : combine_invariants(runs)) {
    const InvariantResult& r = c.result;
    out += "<tr><td><code>" + esc(r.id) + "</code></td><td>" + status_cell(r.status) + "</td><td>" +
           esc(c.first_failed_in) + "</td><td>" + esc(r.detail) + "</td></tr>\n";
  }
  out += "</table>\n</section>\n";
  return out;
}

}  // namespace trafikey::reports
