// The baseline comparison: per history name present on both sides, what changed between
// the two runs — the first differing call line, the sweep verdicts, the final rows — then
// the candidate run in full (run_section.h, as a report shows it); and the names present
// on one side only.
#include <algorithm>
#include <map>

#include "reports/html.h"
#include "reports/page.h"
#include "reports/run_section.h"

namespace trafikey::reports {

namespace {

struct LineDiff {
  std::string what;  // "reply", "call", "timing", "extra calls", "header", ...
  std::int64_t old_line = 0, new_line = 0;
  std::string old_text, new_text;
};

struct FileDiff {
  std::string name;
  bool identical = false;
  std::optional<LineDiff> first_call;  // the first differing call line
  std::int64_t differing_calls = 0;
  std::optional<LineDiff> first_other;  // when no call differs: the first differing line
  std::optional<LineDiff> first_verdict;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> verdict_counts;  // kind -> old, new
  struct RowChange {
    std::string job;
    std::optional<RowState> old_row, new_row;
  };
  std::vector<RowChange> rows;
  std::string old_outcome, new_outcome;
  const RunView* candidate = nullptr;  // the candidate's run, shown in full when changed

  bool changed() const { return !identical; }
};

std::string row_text(const std::optional<RowState>& r) {
  if (!r) return "absent";
  return r->state + ", attempts " + std::to_string(r->attempts) + ", failures " + std::to_string(r->failures) +
         ", stalled " + std::to_string(r->stalled);
}

std::string verdict_text(const RunModel& m, const Verdict& v) {
  return m.job_label(v.job) + " " + v.kind + " (stamp inc " + std::to_string(v.stamp_inc) + ", sweep inc " +
         std::to_string(v.at.inc) + ")";
}

FileDiff compare(const std::string& name, const RunModel& a, const RunModel& b) {
  FileDiff d;
  d.name = name;
  d.old_outcome = a.end_outcome.value_or("no end line");
  d.new_outcome = b.end_outcome.value_or("no end line");
  d.identical = a.lines == b.lines;
  if (d.identical) return d;

  // Calls, by position: what was called and what came back, then when.
  const std::size_t n = std::min(a.calls.size(), b.calls.size());
  std::optional<LineDiff> timing;
  for (std::size_t i = 0; i < n; ++i) {
    const CallLine& x = a.calls[i];
    const CallLine& y = b.calls[i];
    const bool same_call = x.actor == y.actor && x.call == y.call;
    const bool same_reply = x.reply == y.reply && x.lost == y.lost;
    const auto line_of = [](const RunModel& m, const CallLine& c) { return m.lines[static_cast<std::size_t>(c.at.line - 1)]; };
    if (!same_call || !same_reply) {
      ++d.differing_calls;
      if (!d.first_call) {
        d.first_call = LineDiff{same_call ? "reply" : "call", x.at.line, y.at.line, line_of(a, x), line_of(b, y)};
      }
    } else if (!timing && (x.at.true_ms != y.at.true_ms || x.at.server_ms != y.at.server_ms || x.at.inc != y.at.inc)) {
      timing = LineDiff{"timing", x.at.line, y.at.line, line_of(a, x), line_of(b, y)};
    }
  }
  if (a.calls.size() != b.calls.size()) {
    const bool more = b.calls.size() > a.calls.size();
    const std::int64_t extra = static_cast<std::int64_t>(more ? b.calls.size() - n : a.calls.size() - n);
    d.differing_calls += extra;
    if (!d.first_call) {
      const CallLine& c = more ? b.calls[n] : a.calls[n];
      const RunModel& m = more ? b : a;
      LineDiff l{more ? "extra calls in the candidate" : "calls missing from the candidate", 0, 0, "", ""};
      (more ? l.new_line : l.old_line) = c.at.line;
      (more ? l.new_text : l.old_text) = m.lines[static_cast<std::size_t>(c.at.line - 1)];
      d.first_call = l;
    }
  }
  if (!d.first_call) d.first_call = timing;
  if (!d.first_call) {
    const std::size_t lines = std::max(a.lines.size(), b.lines.size());
    for (std::size_t i = 0; i < lines; ++i) {
      const std::string x = i < a.lines.size() ? a.lines[i] : "<end of file>";
      const std::string y = i < b.lines.size() ? b.lines[i] : "<end of file>";
      if (x != y) {
        d.first_other = LineDiff{i == 0 ? "header" : "line", static_cast<std::int64_t>(i) + 1,
                                 static_cast<std::int64_t>(i) + 1, x, y};
        break;
      }
    }
  }

  // Verdicts, by position, and their counts.
  const std::size_t nv = std::max(a.verdicts.size(), b.verdicts.size());
  for (std::size_t i = 0; i < nv && !d.first_verdict; ++i) {
    const Verdict* x = i < a.verdicts.size() ? &a.verdicts[i] : nullptr;
    const Verdict* y = i < b.verdicts.size() ? &b.verdicts[i] : nullptr;
    const std::string xt = x ? verdict_text(a, *x) : "none";
    const std::string yt = y ? verdict_text(b, *y) : "none";
    if (xt != yt) d.first_verdict = LineDiff{"verdict", x ? x->at.line : 0, y ? y->at.line : 0, xt, yt};
  }
  for (const auto& [k, v] : a.verdict_counts) d.verdict_counts[k].first = v;
  for (const auto& [k, v] : b.verdict_counts) d.verdict_counts[k].second = v;

  // Final rows of every job either side knows.
  std::map<JobKey, FileDiff::RowChange> rows;
  for (const auto& [job, row] : a.final_rows) rows[job].old_row = row;
  for (const auto& [job, row] : b.final_rows) rows[job].new_row = row;
  for (auto& [job, change] : rows) {
    if (change.old_row == change.new_row) continue;
    change.job = a.final_rows.count(job) ? a.job_label(job) : b.job_label(job);
    d.rows.push_back(change);
  }
  return d;
}

// `run`: the candidate's run section on this page, whose line anchors the candidate's
// line links to.
std::string line_pair_html(const LineDiff& l, std::size_t run) {
  std::string out = "<p><b>first differing " + esc(l.what) + "</b></p><table class=\"diff\">";
  out += "<tr><th>baseline" + (l.old_line ? " line " + std::to_string(l.old_line) : std::string()) +
         "</th><td><code>" + esc(l.old_text) + "</code></td></tr>";
  out += "<tr><th>candidate" +
         (l.new_line ? " <a href=\"#" + line_anchor(run, l.new_line) + "\">line " + std::to_string(l.new_line) + "</a>"
                     : std::string()) +
         "</th><td><code>" + esc(l.new_text) + "</code></td></tr></table>";
  return out;
}

std::string summary_of(const FileDiff& d) {
  if (d.identical) return "no differences";
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
  if (d.first_call && d.first_call->what == "timing") {
    add("same calls and replies, different timing");
  } else if (d.first_call) {
    add(std::to_string(d.differing_calls) + (d.differing_calls == 1 ? " call line differs" : " call lines differ") +
        " (first: " + d.first_call->what + ")");
  }
  if (d.first_verdict) add("verdicts differ");
  if (!d.rows.empty()) add(std::to_string(d.rows.size()) + (d.rows.size() == 1 ? " final row differs" : " final rows differ"));
  if (d.old_outcome != d.new_outcome) add("outcome " + d.old_outcome + " \u2192 " + d.new_outcome);
  if (s.empty() && d.first_other) add(d.first_other->what + " differs");
  return s;
}

}  // namespace

std::optional<Report> render_baseline_diff(const std::vector<ReportInput>& baseline,
                                           const std::vector<ReportInput>& candidate,
                                           const ReportOptions& options, std::string* error) {
  // Both sides through view_run, as a report reads them: the candidate's runs are shown
  // with the same run section.
  auto view_side = [&](const std::vector<ReportInput>& side, const char* label)
      -> std::optional<std::map<std::string, RunView>> {
    std::map<std::string, RunView> out;
    for (const ReportInput& in : side) {
      std::string why;
      auto view = view_run(in, &why);
      if (!view) {
        if (error) *error = std::string(label) + " " + why;
        return std::nullopt;
      }
      out.emplace(in.name, std::move(*view));
    }
    return out;
  };
  auto old_side = view_side(baseline, "baseline");
  if (!old_side) return std::nullopt;
  auto new_side = view_side(candidate, "candidate");
  if (!new_side) return std::nullopt;

  std::vector<FileDiff> diffs;
  std::vector<std::string> only_old, only_new;
  for (const auto& [name, view] : *old_side) {
    auto it = new_side->find(name);
    if (it == new_side->end()) {
      only_old.push_back(name);
    } else {
      diffs.push_back(compare(name, view.model, it->second.model));
      diffs.back().candidate = &it->second;
    }
  }
  for (const auto& [name, view] : *new_side) {
    if (!old_side->count(name)) only_new.push_back(name);
  }
  const std::int64_t changed = std::count_if(diffs.begin(), diffs.end(), [](const FileDiff& d) { return d.changed(); });
  const bool none = changed == 0 && only_old.empty() && only_new.empty();
  std::string summary = none ? std::to_string(diffs.size()) + " histories compared, every one identical"
                             : std::to_string(changed) + " of " + std::to_string(diffs.size()) +
                                   " histories differ" +
                                   (only_old.empty() ? "" : ", " + std::to_string(only_old.size()) + " only in the baseline") +
                                   (only_new.empty() ? "" : ", " + std::to_string(only_new.size()) + " only in the candidate");

  Report r;
  std::string& h = r.html;
  h = page_begin("trafikey baseline comparison");
  h += "<header><h1>trafikey baseline comparison</h1>\n<p class=\"status-line status-" +
       std::string(status_class(none ? CheckStatus::passed : CheckStatus::failed)) +
       "\"><b>" + (none ? "NO DIFFERENCES" : "CHANGED") + "</b> \u2014 " + esc(summary) + "</p></header>\n";
  h += "<table class=\"files\"><tr><th>history</th><th>what changed</th></tr>\n";
  for (std::size_t i = 0; i < diffs.size(); ++i) {
    const FileDiff& d = diffs[i];
    const std::string name = d.changed() ? "<a href=\"#diff-" + std::to_string(i) + "\">" + esc(d.name) + "</a>" : esc(d.name);
    h += "<tr><td>" + name + "</td><td>" + esc(summary_of(d)) + "</td></tr>\n";
  }
  for (const auto& n : only_old) h += "<tr><td>" + esc(n) + "</td><td>only in the baseline</td></tr>\n";
  for (const auto& n : only_new) h += "<tr><td>" + esc(n) + "</td><td>only in the candidate</td></tr>\n";
  h += "</table>\n";
  for (std::size_t i = 0; i < diffs.size(); ++i) {
    const FileDiff& d = diffs[i];
    if (!d.changed()) continue;
    h += "<section id=\"diff-" + std::to_string(i) + "\"><h2>" + esc(d.name) + "</h2>\n<p>" + esc(summary_of(d)) + "</p>\n";
    h += "<h3>Replies</h3>\n";
    if (d.first_call) {
      h += line_pair_html(*d.first_call, i);
    } else {
      h += "<p>every call line is the same</p>";
      if (d.first_other) h += line_pair_html(*d.first_other, i);
    }
    h += "<h3>Verdicts</h3>\n";
    h += d.first_verdict ? line_pair_html(*d.first_verdict, i) : "<p>the same verdicts, in the same order</p>";
    h += "<table><tr><th>kind</th><th>baseline</th><th>candidate</th></tr>";
    for (const auto& [k, v] : d.verdict_counts) {
      h += "<tr><td>" + esc(k) + "</td><td class=\"n\">" + std::to_string(v.first) + "</td><td class=\"n\">" +
           std::to_string(v.second) + "</td></tr>";
    }
    h += "</table>\n<h3>Final rows</h3>\n";
    if (d.rows.empty()) {
      h += "<p>every job ends in the same row</p>";
    } else {
      h += "<table><tr><th>job</th><th>baseline</th><th>candidate</th></tr>";
      for (const auto& c : d.rows) {
        h += "<tr><td>" + esc(c.job) + "</td><td>" + esc(row_text(c.old_row)) + "</td><td>" + esc(row_text(c.new_row)) +
             "</td></tr>";
      }
      h += "</table>";
    }
    h += "<p>outcome: " + esc(d.old_outcome) + " \u2192 " + esc(d.new_outcome) + "</p>\n";
    h += "<h3>The candidate run</h3>\n" + run_section(*d.candidate, i, options) + "</section>\n";
  }
  h += page_end();

  std::string& md = r.markdown;
  md = "**trafikey baseline comparison: " + std::string(none ? "no differences" : "CHANGED") + "** \u2014 " + summary + "\n";
  if (!none) {
    md += "\n| history | what changed |\n| --- | --- |\n";
    for (const FileDiff& d : diffs) {
      if (!d.changed()) continue;
      std::string what = summary_of(d);
      if (d.first_call && d.first_call->what != "timing") {
        what += "; baseline line " + std::to_string(d.first_call->old_line) + " `" + d.first_call->old_text +
                "` \u2192 candidate line " + std::to_string(d.first_call->new_line) + " `" + d.first_call->new_text + "`";
      }
      md += "| `" + md_cell(d.name) + "` | " + md_cell(what) + " |\n";
    }
    for (const auto& n : only_old) md += "| `" + md_cell(n) + "` | only in the baseline |\n";
    for (const auto& n : only_new) md += "| `" + md_cell(n) + "` | only in the candidate |\n";
  }
  if (!options.html_path.empty()) md += "\nFull comparison: `" + options.html_path + "`\n";
  return r;
}

std::string write_baseline_diff(const std::vector<ReportInput>& baseline, const std::vector<ReportInput>& candidate,
                                const std::string& html_path, const std::string& md_path, ReportOptions options) {
  options.html_path = html_path;
  std::string error;
  auto report = render_baseline_diff(baseline, candidate, options, &error);
  if (!report) return error;
  if (!write_text(html_path, report->html)) return html_path + ": cannot write the comparison";
  if (!md_path.empty() && !write_text(md_path, report->markdown)) return md_path + ": cannot write the summary";
  return {};
}

}  // namespace trafikey::reports
