#include "reports/markdown.h"

#include "reports/overall.h"
#include "reports/run_counts.h"

namespace trafikey::reports {

std::string markdown_summary(const std::vector<RunView>& runs, const ReportOptions& options) {
  const StatusLine line = status_line(runs);
  std::string out = "**trafikey report: " + status_word(line.status) + "** \u2014 " + line.text +
                    "\n\n| invariant | result | detail |\n| --- | --- | --- |\n";
  for (const CombinedInvariant& c : combine_invariants(runs)) {
    const InvariantResult& r = c.result;
    const std::string& where = c.first_failed_in;
    std::string detail = r.detail;
    if (r.history_line > 0) detail += (detail.empty() ? "" : " ") + std::string("(line ") + std::to_string(r.history_line) + ")";
    if (!where.empty() && runs.size() > 1) detail = where + ": " + detail;
    out += "| `" + r.id + "` | " + (r.status == CheckStatus::failed ? "**failed**" : std::string(status_name(r.status))) +
           " | " + md_cell(detail) + " |\n";
  }
  std::int64_t calls = 0, lost = 0, errors = 0, grants = 0;
  std::map<std::string, std::int64_t> faults, verdicts, finals, edges, outcomes;
  for (const RunView& r : runs) {
    const RunModel& m = r.model;
    calls += static_cast<std::int64_t>(m.calls.size());
    lost += m.lost_replies;
    errors += m.error_replies;
    grants += static_cast<std::int64_t>(m.leases.size());
    for (const auto& [k, v] : faults_only(m)) faults[k] += v;
    for (const auto& [k, v] : m.verdict_counts) verdicts[k] += v;
    for (const auto& [k, v] : final_states(m)) finals[k] += v;
    for (const auto& [k, v] : edge_texts(m.edges)) edges[k] += v;
    ++outcomes[m.end_outcome.value_or("no end line")];
  }
  out += "\n| count | value |\n| --- | --- |\n";
  out += "| runs | " + std::to_string(runs.size()) + " (" + md_cell(counts_text(outcomes)) + ") |\n";
  out += "| calls | " + std::to_string(calls) + " (" + std::to_string(errors) + " errors, " + std::to_string(lost) +
         " replies lost) |\n";
  out += "| lease grants | " + std::to_string(grants) + " |\n";
  out += "| faults | " + md_cell(counts_text(faults)) + " |\n";
  out += "| verdicts | " + md_cell(counts_text(verdicts)) + " |\n";
  out += "| state edges | " + md_cell(counts_text(edges)) + " |\n";
  out += "| final states | " + md_cell(counts_text(finals)) + " |\n";
  std::int64_t shown = 0;
  for (const RunView& r : runs) {
    if (r.status != CheckStatus::failed || runs.size() == 1) continue;
    if (shown++ == 0) out += "\nFailing runs:\n\n";
    if (shown > 10) {
      out += "- \u2026\n";
      break;
    }
    out += "- `" + md_cell(r.input->name) + "`: " + md_cell(r.reason) + "\n";
  }
  if (runs.size() == 1 && runs[0].input->failure) {
    const FailureInfo& f = *runs[0].input->failure;
    if (!f.reproduce.empty()) out += "\nreproduce: `" + f.reproduce + "`\n";
    if (!f.replay_command.empty()) out += "\nreplay: `" + f.replay_command + "`\n";
  }
  if (!options.html_path.empty()) out += "\nFull report: `" + options.html_path + "`\n";
  return out;
}

std::string dashboard_markdown(const CampaignDashboard& d, const ReportOptions& options) {
  const char* word = d.failed ? "FAILED" : d.passed ? "PASSED" : "NOT JUDGED";
  std::string out = "**trafikey campaign: " + std::string(word) + "** \u2014 " + md_cell(d.subject) + ": " +
                    std::to_string(d.passed) + " passed, " + std::to_string(d.failed) + " failed, " +
                    std::to_string(d.calls) + " calls, " + std::to_string(d.determinism_checked) +
                    " run twice for determinism\n";
  for (const DashboardFailure& f : d.failures) {
    out += "\n- `" + md_cell(f.run_name) + "` broke `" + f.invariant + "`: " + md_cell(f.facts) + "\n";
    if (!f.replay_command.empty()) out += "  replay: `" + f.replay_command + "`\n";
  }
  const CoverageGaps gaps = coverage_gaps(d);
  out += "\n| count | value |\n| --- | --- |\n";
  out += "| outcomes | " + md_cell(counts_text(d.outcomes)) + " |\n";
  out += "| final states | " + md_cell(counts_text(d.final_states)) + " |\n";
  out += "| never reached | " + md_cell(gaps.never.empty() ? "none" : gaps.never) + " |\n";
  if (!gaps.outside.empty()) out += "| not drawn by this campaign | " + md_cell(gaps.outside) + " |\n";
  if (const auto stale = stale_wire2_refused(d)) {
    out += "| stale wire 2 calls refused | " + md_cell(stale_wire2_text(*stale)) + " |\n";
  }
  if (!options.html_path.empty()) out += "\nFull report: `" + options.html_path + "`\n";
  return out;
}

}  // namespace trafikey::reports
