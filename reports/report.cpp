// The report page: a verdict line, for several runs the campaign overview (runs,
// coverage, run sizes, the summed state graph, the invariants over all runs), then one
// section per detailed run (facts, parameters, counts, timeline, invariants, state graph,
// final rows, the history with an anchor per line). And the Markdown summary.
#include <algorithm>
#include <cmath>
#include <set>

#include "reports/html.h"
#include "reports/page.h"
#include "reports/state_graph.h"
#include "reports/timeline.h"

namespace trafikey::reports {

namespace {

// What a campaign's coverage lists even when no run hit it.
constexpr std::string_view fault_kinds[] = {"restart",      "failover",     "clock_step",
                                            "clock_rate",   "worker_clock", "worker_death",
                                            "worker_pause", "lost_reply",   "epoch_fail",
                                            "epoch_malformed", "row_delete", "lane_mark"};
constexpr std::string_view verdict_kinds[] = {"exempt", "counted-recovered", "counted-dead", "ghost",
                                              "lane"};
// World notes that are not faults: kept out of the fault coverage.
bool is_note(std::string_view name) {
  return name == "start" || name == "worker_resume" || name == "worker_start";
}

std::string counts_text(const std::map<std::string, std::int64_t>& m, std::string_view sep = ", ") {
  std::string s;
  for (const auto& [k, v] : m) {
    if (v == 0) continue;
    s += (s.empty() ? "" : std::string(sep)) + k + " " + std::to_string(v);
  }
  return s.empty() ? "none" : s;
}

std::map<std::string, std::int64_t> faults_only(const RunModel& m) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [k, v] : m.fault_counts) {
    if (!is_note(k)) out[k] = v;
  }
  return out;
}

std::map<std::string, std::int64_t> final_states(const RunModel& m) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [job, row] : m.final_rows) ++out[row.state];
  return out;
}

std::map<std::string, std::int64_t> edge_texts(const std::map<EdgeKey, EdgeCount>& edges) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [k, e] : edges) out[k.first + "->" + k.second] += e.count;
  return out;
}

std::string judgement_html(const InvariantResult& r) {
  switch (r.judgement) {
    case Judgement::pass: return "<span class=\"j-pass\">pass</span>";
    case Judgement::fail: return "<span class=\"j-fail\">fail</span>";
    case Judgement::not_judged: break;
  }
  return "<span class=\"j-not\">not judged</span>";
}

std::string status_badge(const std::string& status) {
  return "<span class=\"badge status-" + status + "\">" + esc(status) + "</span>";
}

// A header value as HTML: objects as key/value tables, arrays of objects as tables.
std::string json_html(const Json& v) {
  if (v.is_object()) {
    std::string out = "<table class=\"kv\">";
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += "<tr><th>" + esc(it.key()) + "</th><td>" + json_html(it.value()) + "</td></tr>";
    }
    return out + "</table>";
  }
  if (v.is_array() && !v.empty() &&
      std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_object(); })) {
    std::vector<std::string> keys;
    for (const Json& e : v) {
      for (auto it = e.begin(); it != e.end(); ++it) {
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
      }
    }
    std::string out = "<table class=\"list\"><tr><th>#</th>";
    for (const auto& k : keys) out += "<th>" + esc(k) + "</th>";
    out += "</tr>";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += "<tr><td class=\"n\">" + std::to_string(i) + "</td>";
      for (const auto& k : keys) {
        out += "<td>" + (v[i].contains(k) ? json_html(v[i][k]) : std::string()) + "</td>";
      }
      out += "</tr>";
    }
    return out + "</table>";
  }
  if (v.is_string()) return esc(v.get<std::string>());
  return "<code>" + esc(v.dump()) + "</code>";
}

// The header without its format fields.
Json header_params(const RunModel& m) {
  Json params = Json::object();
  for (auto it = m.header.begin(); it != m.header.end(); ++it) {
    if (it.key() != "trafikey" && it.key() != "version" && it.key() != "kind") params[it.key()] = it.value();
  }
  return params;
}

// Scalars of the header (one object level deep) as "k v · k v"; arrays as their length.
std::string params_line(const Json& params) {
  std::string out;
  auto add = [&](const std::string& k, const Json& v) {
    std::string text = v.is_string() ? v.get<std::string>()
                       : v.is_array() ? std::to_string(v.size()) + (v.size() == 1 ? " entry" : " entries")
                                      : v.dump();
    out += (out.empty() ? "" : " \u00b7 ") + k + " " + text;
  };
  for (auto it = params.begin(); it != params.end(); ++it) {
    if (!it.value().is_object()) {
      add(it.key(), it.value());
      continue;
    }
    for (auto in = it.value().begin(); in != it.value().end(); ++in) {
      if (!in.value().is_object()) add(in.key(), in.value());
    }
  }
  return out;
}

std::string legend(const RunModel& m) {
  std::string out = "<div class=\"legend\"><span><b>incarnations</b> (fill of a lease: the process that granted or re-stamped it):</span>";
  for (const Incarnation& inc : m.incarnations) {
    out += "<span><i class=\"swatch\" style=\"background:" +
           (inc.module_loaded ? std::string(incarnation_colour(inc.number))
                              : std::string("repeating-linear-gradient(45deg,#eee 0 3px,#999 3px 5px)")) +
           "\"></i>" + std::to_string(inc.number) + " " + esc(inc.cause) + " " +
           esc(short_run_id(inc.run_id)) + (inc.module_loaded ? "" : " (module not loaded)") + "</span>";
  }
  out +=
      "</div><div class=\"legend\">"
      "<span>bar: lease, grant \u2192 deadline</span><span>| tick: extension (new bar from there)</span>"
      "<span>faded: deadline left unused</span><span style=\"color:#cf222e\">\u2504 expired, waiting for the sweep</span>"
      "<span>dashed outline: reply lost</span><span>pale: lost by persistence</span>"
      "<span style=\"color:#1a7f37\">\u2713 completed</span><span style=\"color:#9a6700\">\u21ba FAIL, requeued</span>"
      "<span style=\"color:#cf222e\">\u2717 FAIL, dead</span><span>\u2205 grant lost at restart</span>"
      "<span>\u25c7 sweep verdict (white exempt, yellow counted, red dead)</span>"
      "<span style=\"color:#cf222e\">\u25cb a call answered 0 (stale token)</span>"
      "<span>\u2022 added</span><span>\u25aa row edited by a plain call (DEL, group)</span></div><div class=\"legend\">"
      "<span style=\"color:#cf222e\">\u2502 restart</span><span style=\"color:#8250df\">\u2502 failover</span>"
      "<span style=\"color:#bc4c00\">\u2506 clock step / rate</span><span><b>\u2502</b> worker death</span>"
      "<span style=\"color:#8c959f\">\u2506 pause / resume / new worker</span>"
      "<span style=\"color:#953800\">\u2506 epoch fault armed</span><span style=\"color:#d4a72c\">\u2506 worker clock</span>"
      "</div>\n";
  return out;
}

class Page {
 public:
  Page(const std::vector<RunView>& runs, const ReportOptions& o) : runs_(runs), o_(o) {
    for (std::size_t k = 0; k < runs.size(); ++k) {
      if (k < o.detailed_runs_max || runs[k].status == "fail") detailed_.insert(k);
    }
  }
  std::string html();
  std::string markdown();

 private:
  std::string verdict_line(bool markdown) const;
  std::string graph_html(const std::map<EdgeKey, EdgeCount>& edges,
                         const std::map<std::string, std::int64_t>& finals, const std::string& id_prefix) const;
  std::string run_section(std::size_t k) const;
  std::string invariant_table(std::size_t k) const;
  std::string campaign() const;
  std::string histogram() const;
  // Over all runs: per id the worst judgement, and where it first failed.
  std::vector<std::pair<InvariantResult, std::string>> combined_invariants() const;

  const std::vector<RunView>& runs_;
  const ReportOptions& o_;
  std::set<std::size_t> detailed_;
};

std::vector<std::pair<InvariantResult, std::string>> Page::combined_invariants() const {
  std::vector<std::pair<InvariantResult, std::string>> out;
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    for (const InvariantResult& r : runs_[k].invariants) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first.id == r.id; });
      if (it == out.end()) {
        out.push_back({{r.id, Judgement::not_judged, "", 0}, ""});
        it = out.end() - 1;
      }
      InvariantResult& c = it->first;
      if (r.judgement == Judgement::fail && c.judgement != Judgement::fail) {
        c = r;
        it->second = runs_[k].input->name;
        c.history_line = r.history_line;
        c.detail = r.detail;
      } else if (r.judgement == Judgement::pass && c.judgement == Judgement::not_judged) {
        c.judgement = Judgement::pass;
      }
    }
  }
  return out;
}

std::string Page::verdict_line(bool markdown) const {
  std::int64_t failed = 0, calls = 0;
  std::string worst = "ok";
  std::string first_fail;
  for (const RunView& r : runs_) {
    calls += static_cast<std::int64_t>(r.model.calls.size());
    if (r.status == "fail") {
      if (failed++ == 0) first_fail = r.input->name + ": " + r.reason;
      worst = "fail";
    } else if (r.status == "incomplete" && worst != "fail") {
      worst = "incomplete";
    } else if (r.status == "pass" && worst == "ok") {
      worst = "pass";
    }
  }
  std::int64_t f = 0, p = 0, n = 0;
  for (const auto& [r, where] : combined_invariants()) {
    (r.judgement == Judgement::fail ? f : r.judgement == Judgement::pass ? p : n)++;
  }
  std::string word = worst == "fail" ? "FAIL" : worst == "pass" ? "PASS" : worst == "incomplete" ? "INCOMPLETE" : "OK";
  std::string text = std::to_string(runs_.size()) + (runs_.size() == 1 ? " run" : " runs") + ", " +
                     std::to_string(calls) + " calls";
  if (runs_.size() == 1 && worst != "ok" && worst != "pass") text += ", " + runs_[0].reason;
  if (runs_.size() == 1 && runs_[0].model.end_outcome) text += ", ended " + *runs_[0].model.end_outcome;
  else if (failed) text += ", " + std::to_string(failed) + " failed (first: " + first_fail + ")";
  text += "; invariants: " + std::to_string(f) + " fail, " + std::to_string(p) + " pass, " +
          std::to_string(n) + " not judged";
  if (markdown) return "**trafikey report: " + word + "** \u2014 " + text;
  return "<p class=\"verdict-line status-" + worst + "\"><b>" + word + "</b> \u2014 " + esc(text) + "</p>\n";
}

std::string Page::graph_html(const std::map<EdgeKey, EdgeCount>& edges,
                             const std::map<std::string, std::int64_t>& finals,
                             const std::string& id_prefix) const {
  const StateGraph g = build_state_graph(edges, finals);
  const std::string dot = to_dot(g);
  std::string out = "<div class=\"graph\">";
  std::optional<std::string> svg = o_.use_dot ? render_svg(dot) : std::nullopt;
  if (svg) {
    // Several graphs share a page: keep Graphviz's element ids apart.
    std::string s = *svg;
    for (std::size_t pos = 0; (pos = s.find(" id=\"", pos)) != std::string::npos; pos += 5) {
      s.insert(pos + 5, id_prefix);
    }
    out += s;
  } else {
    out += "<p class=\"note\">Graphviz <code>dot</code> is not on PATH here: the graph as DOT text "
           "(render it with <code>dot -Tsvg</code>).</p><pre>" + esc(dot) + "</pre>";
  }
  out += "</div><p class=\"note\">Edges of core/states.h with how often the history took them (and by which reply or "
         "verdict); dashed: never taken; red: a change outside the allowed graph. Counts include changes a later "
         "restart's persistence lost, since the server made them.</p>\n";
  return out;
}

std::string Page::invariant_table(std::size_t k) const {
  const RunView& r = runs_[k];
  std::string out = "<table class=\"invariants\"><tr><th>invariant</th><th>result</th><th>detail</th><th>step</th></tr>\n";
  for (const InvariantResult& i : r.invariants) {
    const bool known = std::find(invariant_ids.begin(), invariant_ids.end(), i.id) != invariant_ids.end();
    out += "<tr><td><code>" + esc(i.id) + "</code>" + (known ? "" : " <span class=\"note\">(not in INVARIANTS.md)</span>") +
           "</td><td>" + judgement_html(i) + "</td><td>" + esc(i.detail) + "</td><td>";
    if (i.history_line > 0 && detailed_.count(k)) {
      out += "<a href=\"#" + line_anchor(k, i.history_line) + "\">line " + std::to_string(i.history_line) + "</a>";
    } else if (i.history_line > 0) {
      out += "line " + std::to_string(i.history_line);
    }
    out += "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string Page::run_section(std::size_t k) const {
  const RunView& r = runs_[k];
  const RunModel& m = r.model;
  const ReportInput& in = *r.input;
  std::string out = "<section class=\"run\" id=\"run-" + std::to_string(k) + "\">\n<h2>" + esc(in.name) + " " +
                    status_badge(r.status) + "</h2>\n";
  std::set<std::int64_t> failing_lines;
  for (const InvariantResult& i : r.invariants) {
    if (i.judgement == Judgement::fail && i.history_line > 0) failing_lines.insert(i.history_line);
  }
  if (in.failure) {
    const FailureInfo& f = *in.failure;
    out += "<div class=\"failure\"><b>Failed: <code>" + esc(f.invariant) + "</code></b> " + esc(f.message);
    if (f.history_line > 0) {
      out += " \u2014 <a href=\"#" + line_anchor(k, f.history_line) + "\">history line " +
             std::to_string(f.history_line) + "</a>";
      failing_lines.insert(f.history_line);
    }
    if (!f.reproduce.empty()) out += "<br>reproduce: <code>" + esc(f.reproduce) + "</code>";
    if (!f.replay_command.empty()) out += "<br>replay: <code>" + esc(f.replay_command) + "</code>";
    out += "</div>\n";
  }

  // Facts.
  out += "<table class=\"facts\">";
  auto fact = [&](const std::string& k2, const std::string& v_html) {
    out += "<tr><th>" + esc(k2) + "</th><td>" + v_html + "</td></tr>";
  };
  fact("status", status_badge(r.status) + " " + esc(r.reason));
  fact("kind", esc(m.kind));
  if (auto s = m.seed()) fact("seed", "<code>" + std::to_string(*s) + "</code>");
  fact("fingerprint", "<code>" + m.fingerprint + "</code>");
  std::string end = m.end_outcome ? esc(*m.end_outcome) + " at t=" + std::to_string(m.end_t) : "no end line";
  if (m.end_outcome && !m.end_fields.empty()) {
    std::string f;
    for (auto it = m.end_fields.begin(); it != m.end_fields.end(); ++it) {
      f += (f.empty() ? "" : ", ") + it.key() + " " + it.value().dump();
    }
    end += " (" + esc(f) + ")";
  }
  fact("outcome", end);
  fact("parameters", "<span class=\"mono\">" + esc(params_line(header_params(m))) + "</span>");
  fact("size", std::to_string(m.lines.size()) + " lines, " + std::to_string(m.calls.size()) + " calls, " +
                   std::to_string(m.jobs.size()) + " jobs, " + std::to_string(m.incarnations.size()) +
                   " incarnations");
  const std::string replay = in.failure && !in.failure->replay_command.empty() ? in.failure->replay_command : in.replay_command;
  if (!replay.empty()) fact("replay", "<code>" + esc(replay) + "</code>");
  if (in.failure && !in.failure->reproduce.empty()) fact("reproduce", "<code>" + esc(in.failure->reproduce) + "</code>");
  out += "</table>\n";

  // Timeline.
  out += "<h3>Timeline</h3>\n<p class=\"note\">x axis: <b>true time</b> <code>t</code> (the event clock, the same for "
         "every job). Lease deadlines are server time (<code>st</code> + lease_ms) placed where the server clock "
         "reached them, so clock steps and rates bend them; hover any mark for its t, st and incarnation, click it "
         "for its history line.</p>\n";
  out += timeline_svg(m, {k, o_.timeline_jobs_max});
  if (m.jobs.size() > o_.timeline_jobs_max) {
    out += "<p class=\"note\">" + std::to_string(m.jobs.size() - o_.timeline_jobs_max) + " more jobs not drawn.</p>";
  }
  out += legend(m);

  out += "<h3>Invariants</h3>\n" + invariant_table(k);
  out += "<h3>State graph</h3>\n" + graph_html(m.edges, final_states(m), "r" + std::to_string(k) + "-");

  // Counts.
  std::int64_t extensions = 0, lost_grants = 0, rolled = 0;
  for (const Lease& l : m.leases) {
    extensions += static_cast<std::int64_t>(l.segments.size()) - 1;
    lost_grants += l.segments.front().reply_lost ? 1 : 0;
    rolled += l.end == LeaseEnd::rolled_back ? 1 : 0;
  }
  out += "<h3>Counts</h3>\n<table class=\"counts\">";
  auto count = [&](const std::string& k2, const std::string& v) {
    out += "<tr><th>" + esc(k2) + "</th><td>" + esc(v) + "</td></tr>";
  };
  count("calls", std::to_string(m.calls.size()) + " (" + counts_text(m.calls_by_verb) + ")");
  count("replies", std::to_string(m.error_replies) + " errors, " + std::to_string(m.lost_replies) + " lost");
  count("leases", std::to_string(m.leases.size()) + " grants (" + std::to_string(lost_grants) + " with the reply lost, " +
                      std::to_string(rolled) + " lost by persistence), " + std::to_string(extensions) + " extensions");
  count("faults", counts_text(faults_only(m)));
  count("verdicts", counts_text(m.verdict_counts));
  count("final states", counts_text(final_states(m)));
  out += "</table>\n";

  out += "<h3>Final rows</h3>\n<p class=\"note\">Each job's row as the replies imply it (not read from a "
         "keyspace).</p>\n<table class=\"rows\"><tr><th>job</th><th>state</th><th>attempts</th><th>failures</th>"
         "<th>stalled</th></tr>";
  for (const JobKey& j : m.jobs) {
    auto it = m.final_rows.find(j);
    if (it == m.final_rows.end()) continue;
    out += "<tr><td>" + esc(m.job_label(j)) + "</td><td>" + esc(it->second.state) + "</td><td class=\"n\">" +
           std::to_string(it->second.attempts) + "</td><td class=\"n\">" + std::to_string(it->second.failures) +
           "</td><td class=\"n\">" + std::to_string(it->second.stalled) + "</td></tr>";
  }
  out += "</table>\n";

  // The header as written, then every line with its anchor.
  out += "<details class=\"params\"><summary><b>Parameters</b> (the history's header line)</summary>\n" +
         json_html(header_params(m)) + "</details>\n";

  out += std::string("<details class=\"history-box\"") + (r.status == "fail" ? " open" : "") +
         "><summary><b>History</b> (" + std::to_string(m.lines.size()) + " lines)</summary><div class=\"history\">\n";
  for (std::size_t i = 0; i < m.lines.size(); ++i) {
    const std::int64_t line = static_cast<std::int64_t>(i) + 1;
    const std::string id = line_anchor(k, line);
    out += "<div class=\"hl" + std::string(failing_lines.count(line) ? " failing" : "") + "\" id=\"" + id +
           "\"><a href=\"#" + id + "\">" + std::to_string(line) + "</a>" + esc(m.lines[i]) + "</div>\n";
  }
  out += "</div></details>\n</section>\n";
  return out;
}

std::string Page::histogram() const {
  std::vector<std::int64_t> sizes;
  for (const RunView& r : runs_) sizes.push_back(static_cast<std::int64_t>(r.model.calls.size()));
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

std::string Page::campaign() const {
  std::string out = "<section class=\"campaign\" id=\"campaign\">\n<h2>Campaign: " + std::to_string(runs_.size()) +
                    " runs</h2>\n<table class=\"runs\"><tr><th>#</th><th>run</th><th>status</th><th>kind</th><th>seed</th>"
                    "<th>calls</th><th>jobs</th><th>end t</th><th>outcome</th><th>faults</th><th>verdicts</th></tr>\n";
  for (std::size_t k = 0; k < runs_.size(); ++k) {
    const RunView& r = runs_[k];
    const RunModel& m = r.model;
    const std::string name = detailed_.count(k) ? "<a href=\"#run-" + std::to_string(k) + "\">" + esc(r.input->name) + "</a>"
                                                : esc(r.input->name);
    const auto seed = m.seed();
    out += "<tr><td class=\"n\">" + std::to_string(k) + "</td><td>" + name + "</td><td>" + status_badge(r.status) +
           "</td><td>" + esc(m.kind) + "</td><td class=\"n\">" + (seed ? std::to_string(*seed) : "") +
           "</td><td class=\"n\">" + std::to_string(m.calls.size()) + "</td><td class=\"n\">" +
           std::to_string(m.jobs.size()) + "</td><td class=\"n\">" + std::to_string(m.end_t) + "</td><td>" +
           esc(m.end_outcome.value_or("\u2014")) + "</td><td>" + esc(counts_text(faults_only(m))) + "</td><td>" +
           esc(counts_text(m.verdict_counts)) + "</td></tr>\n";
  }
  out += "</table>\n";
  if (detailed_.size() < runs_.size()) {
    out += "<p class=\"note\">" + std::to_string(runs_.size() - detailed_.size()) +
           " runs are listed only (the first " + std::to_string(o_.detailed_runs_max) +
           " and every failing run are shown in full).</p>\n";
  }

  // Coverage: what the campaign exercised, with what it never hit in red.
  struct Cover {
    std::int64_t runs = 0, total = 0;
  };
  std::map<std::string, Cover> faults, verdicts, edges;
  for (std::string_view f : fault_kinds) faults[std::string(f)];
  for (std::string_view v : verdict_kinds) verdicts[std::string(v)];
  std::map<EdgeKey, EdgeCount> all_edges;
  std::map<std::string, std::int64_t> all_finals;
  for (const RunView& r : runs_) {
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
  out += "<h3>Run sizes</h3>\n" + histogram();
  out += "<h3>State graph, all runs</h3>\n" + graph_html(all_edges, all_finals, "all-");

  out += "<h3>Invariants, all runs</h3>\n<table class=\"invariants\"><tr><th>invariant</th><th>result</th><th>first "
         "failing run</th><th>detail</th></tr>\n";
  for (const auto& [r, where] : combined_invariants()) {
    out += "<tr><td><code>" + esc(r.id) + "</code></td><td>" + judgement_html(r) + "</td><td>" + esc(where) +
           "</td><td>" + esc(r.detail) + "</td></tr>\n";
  }
  out += "</table>\n</section>\n";
  return out;
}

std::string Page::html() {
  std::string title = "trafikey report";
  if (runs_.size() == 1) title += " \u2014 " + runs_[0].input->name;
  std::string out = page_begin(title);
  out += "<header><h1>" + esc(title) + "</h1>\n" + verdict_line(false);
  if (runs_.size() > 1) {
    out += "<p class=\"note\"><a href=\"#campaign\">campaign overview</a></p>";
  }
  out += "</header>\n";
  if (runs_.size() > 1) out += campaign();
  for (std::size_t k : detailed_) out += run_section(k);
  out += "<footer><p class=\"note\">Written by <code>trafikey-sim report</code> from " + std::to_string(runs_.size()) +
         (runs_.size() == 1 ? " history" : " histories") +
         ". Invariant ids: shared spec INVARIANTS.md. Same input, same bytes.</p></footer>\n";
  return out + page_end();
}

std::string Page::markdown() {
  std::string out = verdict_line(true) + "\n\n| invariant | result | detail |\n| --- | --- | --- |\n";
  for (const auto& [r, where] : combined_invariants()) {
    std::string detail = r.detail;
    if (r.history_line > 0) detail += (detail.empty() ? "" : " ") + std::string("(line ") + std::to_string(r.history_line) + ")";
    if (!where.empty() && runs_.size() > 1) detail = where + ": " + detail;
    out += "| `" + r.id + "` | " + (r.judgement == Judgement::fail ? "**fail**" : std::string(judgement_name(r.judgement))) +
           " | " + md_cell(detail) + " |\n";
  }
  std::int64_t calls = 0, lost = 0, errors = 0, grants = 0;
  std::map<std::string, std::int64_t> faults, verdicts, finals, edges, outcomes;
  for (const RunView& r : runs_) {
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
  out += "| runs | " + std::to_string(runs_.size()) + " (" + md_cell(counts_text(outcomes)) + ") |\n";
  out += "| calls | " + std::to_string(calls) + " (" + std::to_string(errors) + " errors, " + std::to_string(lost) +
         " replies lost) |\n";
  out += "| lease grants | " + std::to_string(grants) + " |\n";
  out += "| faults | " + md_cell(counts_text(faults)) + " |\n";
  out += "| verdicts | " + md_cell(counts_text(verdicts)) + " |\n";
  out += "| state edges | " + md_cell(counts_text(edges)) + " |\n";
  out += "| final states | " + md_cell(counts_text(finals)) + " |\n";
  std::int64_t shown = 0;
  for (const RunView& r : runs_) {
    if (r.status != "fail" || runs_.size() == 1) continue;
    if (shown++ == 0) out += "\nFailing runs:\n\n";
    if (shown > 10) {
      out += "- \u2026\n";
      break;
    }
    out += "- `" + md_cell(r.input->name) + "`: " + md_cell(r.reason) + "\n";
  }
  if (runs_.size() == 1 && runs_[0].input->failure) {
    const FailureInfo& f = *runs_[0].input->failure;
    if (!f.reproduce.empty()) out += "\nreproduce: `" + f.reproduce + "`\n";
    if (!f.replay_command.empty()) out += "\nreplay: `" + f.replay_command + "`\n";
  }
  if (!o_.html_path.empty()) out += "\nFull report: `" + o_.html_path + "`\n";
  return out;
}

}  // namespace

std::optional<Report> render_report(const std::vector<ReportInput>& inputs, const ReportOptions& options,
                                    std::string* error) {
  if (inputs.empty()) {
    if (error) *error = "no histories to report";
    return std::nullopt;
  }
  std::vector<RunView> runs;
  for (const ReportInput& in : inputs) {
    auto v = view_run(in, error);
    if (!v) return std::nullopt;
    runs.push_back(std::move(*v));
  }
  Page page(runs, options);
  return Report{page.html(), page.markdown()};
}

std::string write_report(const std::vector<ReportInput>& inputs, const std::string& html_path,
                         const std::string& md_path, ReportOptions options) {
  options.html_path = html_path;
  std::string error;
  auto report = render_report(inputs, options, &error);
  if (!report) return error;
  if (!write_text(html_path, report->html)) return html_path + ": cannot write the report";
  if (!md_path.empty() && !write_text(md_path, report->markdown)) return md_path + ": cannot write the summary";
  return {};
}

}  // namespace trafikey::reports
