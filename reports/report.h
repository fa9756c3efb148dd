// Reports: histories in, one self-contained HTML page and a Markdown summary out.
//
// A report reads histories (sim/history.h) and whatever the caller knows beyond them (a
// failing invariant and how to reproduce it, an invariant table). The HTML has inline CSS
// and SVG only: no script, no network. The Markdown fits a pull-request comment: a status
// line, the invariant table, the counts and the path of the HTML. The same inputs give
// the same bytes: nothing reads the clock, the environment (beyond whether Graphviz `dot`
// is on PATH) or an unordered container. See shared design ARCHITECTURE "Reports".
//
// Errors are values: a history that does not parse yields "NAME:LINE: what", never an
// exception.
//
// Where the code lives: page.h (the frame every page shares, a run's view and status),
// run_section.h (one run in full, which the report and the baseline comparison both
// render), campaign_page.h (the overview of several runs), markdown.h (the summary),
// report.cpp (this entry: the report page put together), diff.cpp (the comparison).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/invariants.h"

namespace trafikey::reports {

// One row of the invariant table (ids of shared spec INVARIANTS.md).
struct InvariantResult {
  std::string id;
  CheckStatus status = CheckStatus::not_judged;  // passed, failed or not_judged
  std::string detail;             // one line, shown beside the result
  std::int64_t history_line = 0;  // 1-based line of the failing step; 0: none
};

struct FailureInfo {
  std::string invariant;  // the id that failed
  std::string message;
  std::string reproduce;       // RapidCheck's reproduce= string, when a property failed
  std::string replay_command;  // e.g. "trafikey-sim replay out/fail/history.jsonl"
  std::int64_t history_line = 0;
};

struct ReportInput {
  std::string name;          // the run's title; a file's path for files (matched by --baseline)
  std::string history_text;  // the whole JSON Lines text
  std::optional<FailureInfo> failure;
  // Absent: every id shows "not judged" (except the failure's invariant, "failed").
  std::optional<std::vector<InvariantResult>> invariants;
  std::string replay_command;  // how to rerun it, shown when non-empty
  std::string source;          // the file the text came from, for messages; empty: name
};

struct ReportOptions {
  bool use_dot = true;                 // draw the state graph with `dot` when on PATH
  std::size_t detailed_runs_max = 20;  // runs shown in full; failing runs always are
  std::size_t timeline_jobs_max = 200;
  std::string html_path;  // the path the Markdown names (write_* fill it in)
};

struct Report {
  std::string html;
  std::string markdown;
};

// One input: the run's report; several: a campaign report (overview, coverage, the
// distribution of run sizes, then each run). nullopt and *error when a history is bad.
std::optional<Report> render_report(const std::vector<ReportInput>& inputs,
                                    const ReportOptions& options, std::string* error);

// What changed from `baseline` to `candidate`, matching inputs by name: per name in both,
// the first differing call line (reply, call or timing), the sweep verdicts, the final
// rows, then the candidate run in full (the same run section as a report's); names in
// only one are listed. Identical inputs report "no differences".
std::optional<Report> render_baseline_diff(const std::vector<ReportInput>& baseline,
                                           const std::vector<ReportInput>& candidate,
                                           const ReportOptions& options, std::string* error);

// Render and write: the HTML to html_path, the Markdown to md_path when not empty
// (missing parent directories are created).
// Returns "" on success, else a message naming what failed. These are what the run,
// scenario and campaign commands call for --report.
std::string write_report(const std::vector<ReportInput>& inputs, const std::string& html_path,
                         const std::string& md_path = {}, ReportOptions options = {});
std::string write_baseline_diff(const std::vector<ReportInput>& baseline,
                                const std::vector<ReportInput>& candidate,
                                const std::string& html_path, const std::string& md_path = {},
                                ReportOptions options = {});

}  // namespace trafikey::reports
