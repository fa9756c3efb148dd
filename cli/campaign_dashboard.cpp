#include "cli/campaign_dashboard.h"

#include <algorithm>

#include "core/invariants.h"
#include "properties/coverage.h"

namespace trafikey::cli {

namespace {

using Coverage = properties::CampaignResult::RunCoverage;

reports::DashboardRun row_of(const Coverage& r) {
  reports::DashboardRun row;
  row.run = r.run;
  row.name = "run " + std::to_string(r.run);
  row.failed = r.failed;
  row.calls = r.calls;
  row.sim_ms = r.sim_ms;
  for (const auto& [state, n] : r.final_states) {
    if (state != "vanished") row.jobs += n;  // jobs the server still holds at the end
  }
  row.outcome = r.outcome;
  row.faults = r.faults;
  row.verdicts = r.verdicts;
  return row;
}

const std::map<std::string, std::int64_t>& counts_of(const properties::CampaignSummary& s, const std::string& family) {
  static const std::map<std::string, std::int64_t> none;
  if (family == "verdict") return s.verdicts;
  if (family == "edge") return s.edges;
  if (family == "fault") return s.faults_applied;
  if (family == "situation") return s.situations;
  return none;
}

}  // namespace

reports::CampaignDashboard dashboard_of_summary(const properties::CampaignSummary& s, const std::string& replay,
                                                bool failure_shown) {
  reports::CampaignDashboard d;
  d.subject = "seed " + std::to_string(s.seed) + ", " + std::to_string(s.passed + s.failed) + " runs" +
              (s.passed + s.failed < s.runs ? " of " + std::to_string(s.runs) : "") +
              (s.faults.empty() ? "" : ", faults " + s.faults) +
              (s.differential.empty() ? "" : ", each run compared with " + s.differential);
  d.runs = s.passed + s.failed;
  d.passed = s.passed;
  d.failed = s.failed;
  d.determinism_checked = s.determinism_checked;
  for (auto c : s.calls_per_run) d.calls += c;
  d.coverage_runs = s.passed;
  if (s.failure) {
    const auto& f = *s.failure;
    d.failures.push_back({"run " + std::to_string(f.run), f.invariant, f.facts,
                          "shrunk in " + std::to_string(f.shrink_steps) + " steps (" + std::to_string(f.shrink_tries) +
                              " candidates): " + std::to_string(f.original_calls) + " -> " +
                              std::to_string(f.shrunk_calls) + " calls",
                          replay, failure_shown ? "run-0" : ""});
    reports::DashboardRun row;
    row.run = f.run;
    row.name = "run " + std::to_string(f.run);
    row.anchor = failure_shown ? "run-0" : "";
    row.failed = true;
    row.why = f.invariant + ": " + f.facts;
    row.calls = f.original_calls;
    d.failing_runs.push_back(row);
  }
  // Coverage: the targets of properties/coverage.h, one chart per family; those the
  // campaign's plans never draw (its space is full_space(), --faults changes only its
  // kinds) are not drawn, rather than never reached.
  const properties::PlanSpace space = properties::full_space();
  const std::pair<const char*, const char*> families[] = {
      {"fault", "fault kinds"}, {"verdict", "sweep verdicts"}, {"edge", "state edges"}, {"situation", "situations"}};
  for (const auto& [family, title] : families) {
    reports::CoverageFamily chart{title, {}};
    for (const auto& t : properties::coverage_targets()) {
      if (t.family != family) continue;
      const auto& counts = counts_of(s, t.family);
      const auto total = counts.find(t.name);
      const auto runs = s.runs_reaching.find(t.family + " " + t.name);
      chart.bars.push_back({t.name, runs == s.runs_reaching.end() ? 0 : runs->second,
                            total == counts.end() ? 0 : total->second, properties::drawn_in(space, t)});
    }
    d.coverage.push_back(std::move(chart));
  }
  d.outcomes = s.outcomes;
  for (const auto& [edge, n] : s.edges) {
    const auto arrow = edge.find("->");
    if (arrow == std::string::npos) continue;
    d.edges[{edge.substr(0, arrow), edge.substr(arrow + 2)}].count += n;
  }
  for (const auto& [state, n] : s.final_states) {
    // "vanished" counts planned jobs the server does not hold at the end: not a state.
    if (n > 0 && state != "vanished") d.final_states[state] = n;
  }
  if (auto it = s.final_states.find("vanished"); it != s.final_states.end() && it->second > 0) {
    d.outcome_note = std::to_string(it->second) +
                     " planned jobs are not held by the server at the end (\"vanished\"; not drawn in the state graph).";
  }
  d.calls_histogram = s.calls_histogram;
  d.sim_ms_histogram = s.sim_ms_histogram;
  // Invariants: judged counts over the passing runs, the failure's invariant failed.
  for (std::string_view id : invariant_ids) {
    reports::CombinedInvariant c{{std::string(id), CheckStatus::not_judged, "", 0}, ""};
    if (auto it = s.judged.find(c.result.id); it != s.judged.end() && it->second > 0) {
      c.result.status = CheckStatus::passed;
      c.result.detail = "judged " + std::to_string(it->second) + " times";
    }
    if (id == "sim.determinism" && s.determinism_checked > 0) {
      c.result.status = CheckStatus::passed;
      c.result.detail = std::to_string(s.determinism_checked) + " runs run twice: the same fingerprint";
    }
    if (s.failure && s.failure->invariant == c.result.id) {
      c.result.status = CheckStatus::failed;
      c.result.detail = s.failure->facts;
      c.first_failed_in = "run " + std::to_string(s.failure->run);
    }
    d.invariants.push_back(std::move(c));
  }
  // A failure no invariant names: the crash guard's sim.crash or sim.hang (the run ended
  // its process or never returned), a row of its own.
  if (s.failure && std::find(invariant_ids.begin(), invariant_ids.end(), s.failure->invariant) == invariant_ids.end()) {
    reports::CombinedInvariant c{{s.failure->invariant, CheckStatus::failed, s.failure->facts, 0}, ""};
    c.first_failed_in = "run " + std::to_string(s.failure->run);
    d.invariants.push_back(std::move(c));
  }
  d.longest_max = properties::longest_runs_max;
  d.sample_max = properties::sample_runs_max;
  for (const auto& r : s.longest_runs) d.longest_runs.push_back(row_of(r));
  for (const auto& r : s.sample_runs) d.sample_runs.push_back(row_of(r));
  return d;
}

std::string write_summary_report(const properties::CampaignSummary& summary, const std::string& replay,
                                 const std::string& failure_history, const std::string& html_path,
                                 const std::string& md_path,
                                 const std::vector<properties::Violation>& failure_violations) {
  std::vector<reports::ReportInput> detailed;
  if (summary.failure && !failure_history.empty()) {
    const auto& f = *summary.failure;
    reports::ReportInput input;
    input.name = "run " + std::to_string(f.run) + " (shrunk)";
    input.history_text = failure_history;
    input.failure = reports::FailureInfo{f.invariant, f.facts, "", replay, 0};
    if (!failure_violations.empty()) {
      const auto& first = failure_violations.front();
      input.failure = reports::FailureInfo{first.invariant, first.describe(), "", replay, first.history_line};
    }
    input.replay_command = replay;
    detailed.push_back(std::move(input));
  }
  return reports::write_campaign_dashboard(dashboard_of_summary(summary, replay, !detailed.empty()), detailed,
                                           html_path, md_path);
}

std::string markdown_beside(const std::string& html_path) {
  std::string md = html_path;
  if (md.size() > 5 && md.ends_with(".html")) md.resize(md.size() - 5);
  return md + ".md";
}

}  // namespace trafikey::cli
