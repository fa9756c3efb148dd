#include "reports/page.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "reports/html.h"

namespace trafikey::reports {

namespace {

constexpr std::string_view css = R"CSS(
body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:24px;max-width:1280px}
h1{font-size:22px;margin:0 0 10px}h2{font-size:18px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:36px}
h3{font-size:15px;margin:22px 0 6px}p.note{color:#656d76;font-size:12px;margin:4px 0}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre{background:#f6f8fa;padding:8px;overflow:auto}
.status-line{font-size:16px;padding:8px 12px;border-radius:6px;border:1px solid;margin:8px 0}
.status-failed{background:#ffebe9;border-color:#ff8182}.status-passed{background:#dafbe1;border-color:#4ac26b}
.status-not-judged{background:#ddf4ff;border-color:#54aeff}.status-incomplete{background:#fff8c5;border-color:#d4a72c}
.badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:12px;font-weight:600;border:1px solid}
.result-passed{color:#1a7f37;font-weight:600}.result-failed{color:#cf222e;font-weight:700}.result-not-judged{color:#656d76}
.failure{border-left:4px solid #cf222e;background:#fff5f5;padding:8px 12px;margin:8px 0}
.uncovered{color:#cf222e;font-weight:600}
code.wire2{cursor:help;border-bottom:1px dotted #8c959f}tr.answer-refused td{color:#cf222e}
svg.timeline{max-width:100%;height:auto;font-family:inherit;display:block}
svg .row{fill:#ffffff}svg .row.odd{fill:#f3f5f7}
svg .grid{stroke:#e4e8ec;stroke-width:1}svg .tick,svg .axis-title{font-size:10px;fill:#656d76}
svg .row-label{font-size:11px;fill:#1f2328}svg .row-label.small{font-size:9px;fill:#656d76}
svg .lease,svg .extension{stroke:#1f2328;stroke-width:.6}
svg .lease.lost,svg .extension.lost{stroke-dasharray:3 2;stroke-width:1.6}
svg .rolled-back{opacity:.4}svg .unused{opacity:.22}
svg .expired{stroke:#cf222e;stroke-width:1.6;stroke-dasharray:2 2}
svg .ext-mark{stroke:#1f2328;stroke-width:2}
svg .end{font-size:13px;font-weight:700}svg .end.completed{fill:#1a7f37}svg .end.requeued{fill:#9a6700}
svg .end.failed-dead{fill:#cf222e}svg .end.rolled-back{fill:#656d76}
svg .verdict path{stroke:#1f2328;stroke-width:1}
svg .verdict text{font-size:10px;font-weight:700;paint-order:stroke;stroke:#ffffff;stroke-width:3px;fill:#1f2328}
svg .verdict-exempt path{fill:#ffffff}svg .verdict-counted-recovered path{fill:#d4a72c}
svg .verdict-counted-dead path{fill:#cf222e}svg .verdict-ghost path{fill:#8c959f}svg .verdict-lane path{fill:#54aeff}
svg .refused{fill:#ffffff;stroke:#cf222e;stroke-width:1.2}svg .row-edit{fill:#1f2328}svg .add{fill:#8c959f}
svg .marker line{stroke-width:1.5;stroke:#57606a}svg .marker text{font-size:9px;fill:#57606a}
svg .marker-restart line{stroke:#cf222e}svg .marker-restart text{fill:#cf222e;font-weight:700}
svg .marker-failover line{stroke:#8250df}svg .marker-failover text{fill:#8250df;font-weight:700}
svg .marker-failback line{stroke:#8250df;stroke-dasharray:6 2}svg .marker-failback text{fill:#8250df;font-weight:700}
svg .marker-clock_step line{stroke:#bc4c00;stroke-dasharray:5 2}svg .marker-clock_step text{fill:#bc4c00}
svg .marker-clock_rate line{stroke:#bc4c00;stroke-dasharray:1 2}svg .marker-clock_rate text{fill:#bc4c00}
svg .marker-worker_death line{stroke:#1f2328;stroke-width:2}svg .marker-worker_death text{fill:#1f2328;font-weight:700}
svg .marker-worker_pause line,svg .marker-worker_resume line,svg .marker-worker_start line{stroke:#8c959f;stroke-dasharray:4 3}
svg .marker-worker_clock line{stroke:#d4a72c;stroke-dasharray:2 3}
svg .marker-epoch_fail line,svg .marker-epoch_malformed line{stroke:#953800;stroke-dasharray:1 3}
svg .phase-liveness{fill:#ddf4ff;opacity:.55}svg .phase-label{font-size:9px;fill:#0969da}
svg .strip{fill:#f6f8fa}svg .zero{stroke:#d0d7de}svg .clock{fill:none;stroke:#bc4c00;stroke-width:1.5}
svg .inc{stroke:#ffffff;stroke-width:1}svg .inc-label{font-size:10px;fill:#ffffff;font-weight:700;paint-order:stroke;stroke:#1f2328;stroke-width:2px}
.legend{font-size:12px;margin:6px 0}.legend span{display:inline-block;margin:2px 14px 2px 0}
.swatch{display:inline-block;width:16px;height:10px;border:1px solid #1f2328;vertical-align:middle;margin-right:4px}
.history{max-height:520px;overflow:auto;border:1px solid #d0d7de;padding:4px}
.hl{white-space:pre-wrap;word-break:break-all;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:11px}
.hl a{color:#656d76;text-decoration:none;display:inline-block;min-width:4em}
.hl:target{background:#fff8c5}.hl.failing{background:#ffebe9;border-left:3px solid #cf222e}
.graph svg{max-width:100%;height:auto}
svg.hist .bar{fill:#4e79a7}svg.hist text{font-size:10px;fill:#656d76}svg.hist .base{stroke:#8c959f}
svg.chart{max-width:100%;height:auto;font-family:inherit}svg.chart .axis{font-size:10px;fill:#656d76}
svg.coverage-chart .label{font-size:11px;fill:#1f2328}svg.coverage-chart .figures{font-size:11px;fill:#656d76}
svg.coverage-chart .track{fill:#eef1f4}svg.coverage-chart .cover-bar{fill:#59a14f}
svg.coverage-chart .uncovered .label,svg.coverage-chart .uncovered .figures{fill:#cf222e;font-weight:700}
svg.coverage-chart .outside .figures{font-style:italic}
.charts{display:flex;flex-wrap:wrap;gap:8px 28px;align-items:flex-start}.charts figure{margin:0}
figcaption{font-size:12px;font-weight:600;margin:4px 0}
.tiles{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0}.tile{border:1px solid #d0d7de;border-radius:6px;padding:6px 14px;color:#656d76;font-size:12px}
.tile b{display:block;font-size:20px;color:#1f2328}.tile-failed{border-color:#ff8182;background:#ffebe9}
pre.replay{border:1px solid #d0d7de}.no-failure{color:#1a7f37;font-weight:600}
details.runs-table summary{cursor:pointer;margin:16px 0 6px}
)CSS";

}  // namespace

std::string page_begin(std::string_view title) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  out += esc(title);
  out += "</title>\n<style>";
  out += css;
  out += "</style>\n</head>\n<body>\n";
  return out;
}

std::string page_end() { return "</body>\n</html>\n"; }

std::string_view status_class(CheckStatus status) {
  switch (status) {
    case CheckStatus::passed: return "passed";
    case CheckStatus::failed: return "failed";
    case CheckStatus::skipped: return "skipped";
    case CheckStatus::not_judged: return "not-judged";
    case CheckStatus::incomplete: return "incomplete";
  }
  return "not-judged";
}

std::string status_badge(CheckStatus status) {
  return "<span class=\"badge status-" + std::string(status_class(status)) + "\">" + esc(status_name(status)) +
         "</span>";
}

std::string status_cell(CheckStatus status) {
  return "<span class=\"result-" + std::string(status_class(status)) + "\">" + esc(status_name(status)) + "</span>";
}

bool write_text(const std::string& path, const std::string& text) {
  std::error_code ec;
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

std::string md_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

std::optional<RunView> view_run(const ReportInput& input, std::string* error) {
  std::string why;
  auto model = parse_history(input.history_text, &why);
  const std::string& source = input.source.empty() ? input.name : input.source;
  if (!model) {
    // parse_history says "line N: what"; messages name the file as FILE:N: what.
    if (error) *error = source + ":" + (why.rfind("line ", 0) == 0 ? why.substr(5) : why);
    return std::nullopt;
  }
  RunView v;
  v.input = &input;
  v.model = std::move(*model);
  for (std::string_view id : invariant_ids) v.invariants.push_back({std::string(id), CheckStatus::not_judged, "", 0});
  auto slot = [&](const std::string& id) -> InvariantResult& {
    for (InvariantResult& r : v.invariants) {
      if (r.id == id) return r;
    }
    v.invariants.push_back({id, CheckStatus::not_judged, "", 0});
    return v.invariants.back();
  };
  if (input.invariants) {
    for (const InvariantResult& r : *input.invariants) slot(r.id) = r;
  }
  const auto& failure = input.failure;
  if (failure && !failure->invariant.empty()) {
    InvariantResult& r = slot(failure->invariant);
    if (r.status != CheckStatus::failed || r.detail.empty()) r.detail = failure->message;
    if (r.history_line == 0) r.history_line = failure->history_line;
    r.status = CheckStatus::failed;
  }

  std::int64_t failed = 0, passed = 0;
  std::string first_fail;
  for (const InvariantResult& r : v.invariants) {
    if (r.status == CheckStatus::failed && failed++ == 0) first_fail = r.id;
    if (r.status == CheckStatus::passed) ++passed;
  }
  static constexpr std::string_view ok_outcomes[] = {"drained", "passed", "pass", "ok", "done", "completed"};
  const auto& outcome = v.model.end_outcome;
  const bool outcome_ok =
      outcome && std::find(std::begin(ok_outcomes), std::end(ok_outcomes), *outcome) != std::end(ok_outcomes);
  if (failed > 0 || failure) {
    v.status = CheckStatus::failed;
    v.reason = first_fail.empty() ? (failure ? failure->message : "failed")
                                  : "invariant " + first_fail + " failed" +
                                        (failed > 1 ? " (and " + std::to_string(failed - 1) + " more)" : "");
  } else if (outcome && !outcome_ok) {
    v.status = CheckStatus::failed;
    v.reason = "the run ended " + *outcome;
  } else if (!outcome) {
    v.status = CheckStatus::incomplete;
    v.reason = "the history has no end line";
  } else if (passed > 0) {
    v.status = CheckStatus::passed;
    v.reason = "ended " + *outcome + ", " + std::to_string(passed) + " invariants passed";
  } else {
    v.status = CheckStatus::not_judged;
    v.reason = "ended " + *outcome + ", no invariant judged";
  }
  return v;
}

}  // namespace trafikey::reports
