#include "reports/run_section.h"

#include <algorithm>
#include <map>
#include <set>

#include "reports/html.h"
#include "reports/run_counts.h"
#include "reports/state_graph.h"
#include "reports/timeline.h"

namespace trafikey::reports {

namespace {

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
      "<span style=\"color:#8250df\">\u2506 failback</span>"
      "<span style=\"color:#bc4c00\">\u2506 clock step / rate</span><span><b>\u2502</b> worker death</span>"
      "<span style=\"color:#8c959f\">\u2506 pause / resume / new worker</span>"
      "<span style=\"color:#953800\">\u2506 epoch fault armed</span><span style=\"color:#d4a72c\">\u2506 worker clock</span>"
      "</div>\n";
  return out;
}

// A run's wire 2 table lists at most this many calls: a long run on wire 2 makes thousands.
constexpr std::size_t wire2_rows_max = 200;

// The calls that handed out or carried a wire 2 token (EMQ §8), in history order, each
// token shortened with the whole of it in the title attribute; nothing for a run all on
// wire 1, whose page stays as it was.
std::string wire2_table(const RunModel& m, std::size_t k) {
  if (m.wire2_uses.empty()) return {};
  const std::size_t n = m.wire2_uses.size();
  std::string out = std::string("<details class=\"wire2-box\"") + (n <= 20 ? " open" : "") +
                    "><summary><b>Wire 2 tokens</b> (" + std::to_string(n) + (n == 1 ? " call" : " calls") +
                    ")</summary>\n<p class=\"note\">Each call that handed out or carried a wire 2 token "
                    "(EMQ \u00a78, <code>&lt;attempts&gt;-&lt;run_id&gt;-&lt;n&gt;</code>): hover a token to "
                    "see it whole, click a line for the call.</p>\n<table class=\"wire2-uses\"><tr><th>line"
                    "</th><th>job</th><th>call</th><th>token</th><th>answer</th></tr>\n";
  for (std::size_t i = 0; i < n && i < wire2_rows_max; ++i) {
    const Wire2Use& u = m.wire2_uses[i];
    const std::string id = line_anchor(k, u.at.line);
    out += "<tr class=\"answer-" + esc(u.answer) + "\"><td class=\"n\"><a href=\"#" + id + "\">" +
           std::to_string(u.at.line) + "</a></td><td>" + esc(m.job_label(u.job)) + "</td><td>" + esc(u.verb) +
           "</td><td>" + wire2_token_html(u.token) + "</td><td>" + esc(u.answer) + "</td></tr>\n";
  }
  out += "</table>\n";
  if (n > wire2_rows_max) {
    out += "<p class=\"note\">" + std::to_string(n - wire2_rows_max) + " more not listed.</p>\n";
  }
  return out + "</details>\n";
}

std::string invariant_table(const RunView& r, std::size_t k) {
  std::string out = "<table class=\"invariants\"><tr><th>invariant</th><th>result</th><th>detail</th><th>step</th></tr>\n";
  for (const InvariantResult& i : r.invariants) {
    const bool known = std::find(invariant_ids.begin(), invariant_ids.end(), i.id) != invariant_ids.end();
    out += "<tr><td><code>" + esc(i.id) + "</code>" + (known ? "" : " <span class=\"note\">(not in INVARIANTS.md)</span>") +
           "</td><td>" + status_cell(i.status) + "</td><td>" + esc(i.detail) + "</td><td>";
    if (i.history_line > 0) {
      out += "<a href=\"#" + line_anchor(k, i.history_line) + "\">line " + std::to_string(i.history_line) + "</a>";
    }
    out += "</td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string run_section(const RunView& r, std::size_t k, const ReportOptions& options) {
  const RunModel& m = r.model;
  const ReportInput& in = *r.input;
  std::string out = "<section class=\"run\" id=\"run-" + std::to_string(k) + "\">\n<h2>" + esc(in.name) + " " +
                    status_badge(r.status) + "</h2>\n";
  std::set<std::int64_t> failing_lines;
  for (const InvariantResult& i : r.invariants) {
    if (i.status == CheckStatus::failed && i.history_line > 0) failing_lines.insert(i.history_line);
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
  std::string end = m.end_outcome ? esc(*m.end_outcome) + " at t=" + std::to_string(m.end_true_ms) : "no end line";
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
  out += timeline_svg(m, {k, options.timeline_jobs_max});
  if (m.jobs.size() > options.timeline_jobs_max) {
    out += "<p class=\"note\">" + std::to_string(m.jobs.size() - options.timeline_jobs_max) + " more jobs not drawn.</p>";
  }
  out += legend(m);
  out += wire2_table(m, k);

  out += "<h3>Invariants</h3>\n" + invariant_table(r, k);
  out += "<h3>State graph</h3>\n" + state_graph_html(m.edges, final_states(m), "r" + std::to_string(k) + "-", options.use_dot);

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
  if (!m.wire2_uses.empty()) {
    std::map<std::string, std::int64_t> answers;
    for (const Wire2Use& u : m.wire2_uses) ++answers[u.answer];
    count("wire 2 tokens", counts_text(answers));
  }
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

  out += std::string("<details class=\"history-box\"") + (r.status == CheckStatus::failed ? " open" : "") +
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

}  // namespace trafikey::reports
