#include "reports/timeline.h"

#include <algorithm>
#include <map>

#include "reports/html.h"
#include "sim/world.h"

namespace trafikey::reports {

namespace {

constexpr double width = 1200;
constexpr double left = 120;   // job labels
constexpr double right = 70;   // room for labels past the last mark
constexpr double label_rows_h = 42;
constexpr double band_y = label_rows_h + 4;
constexpr double band_h = 18;
constexpr double rows_y = band_y + band_h + 6;
constexpr double row_h = 22;
constexpr double bar_pad = 5;
constexpr double strip_h = 48;

std::int64_t nice_step(std::int64_t span) {
  const std::int64_t raw = std::max<std::int64_t>(1, span / 10);
  std::int64_t step = 1;
  while (true) {
    for (std::int64_t m : {1, 2, 5}) {
      if (step * m >= raw) return step * m;
    }
    step *= 10;
  }
}

std::string at_text(const At& at) {
  return "t=" + std::to_string(at.true_ms) + " st=" + std::to_string(at.server_ms) + " inc " +
         std::to_string(at.inc);
}

std::string field_text(const Json& fields) {
  std::string out;
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    out += (out.empty() ? "" : ", ") + it.key() + "=" +
           (it.value().is_string() ? it.value().get<std::string>() : it.value().dump());
  }
  return out;
}

std::string signed_ms(std::int64_t v) { return (v >= 0 ? "+" : "\u2212") + std::to_string(v < 0 ? -v : v); }

std::string marker_label(const WorldEvent& e) {
  auto field = [&](const char* k) {
    return e.fields.contains(k) ? (e.fields[k].is_string() ? e.fields[k].get<std::string>()
                                                           : e.fields[k].dump())
                                : std::string();
  };
  auto int_field = [&](const char* k) {
    return e.fields.contains(k) && e.fields[k].is_number_integer() ? e.fields[k].get<std::int64_t>() : 0;
  };
  if (e.name == "clock_step") return "clock " + signed_ms(int_field("delta_ms"));
  if (e.name == "clock_rate") return "rate " + std::to_string(int_field("rate_per_mille")) + "\u2030";
  if (e.name == "worker_clock") return field("worker") + " clock " + signed_ms(int_field("delta_ms"));
  if (e.name == "worker_death") return "death " + field("worker");
  if (e.name == "worker_pause") return "pause " + field("worker");
  if (e.name == "worker_resume") return "resume " + field("worker");
  if (e.name == "worker_start") return "new " + field("worker");
  if (e.name == "epoch_fail") return "epoch fail";
  if (e.name == "epoch_malformed") return "epoch malformed";
  return e.name;
}

// The history's verdict names are sim::sweep_verdict_names (sim/world.h); this is what
// each reads as on the timeline.
bool verdict_is(std::string_view kind, sim::SweepVerdict v) { return kind == sim::sweep_verdict_name(v); }

std::string verdict_label(const std::string& kind) {
  if (verdict_is(kind, sim::SweepVerdict::counted_recovered)) return "counted";
  if (verdict_is(kind, sim::SweepVerdict::counted_dead)) return "dead";
  return kind;
}

std::string verdict_meaning(const Verdict& v) {
  using sim::SweepVerdict;
  const std::string stamp =
      v.stamp_inc == 0 ? "no stamp" : "stamped by inc " + std::to_string(v.stamp_inc);
  const std::string swept = stamp + ", swept by inc " + std::to_string(v.at.inc) + ": ";
  if (verdict_is(v.kind, SweepVerdict::exempt)) return swept + "back to pending, not counted";
  if (verdict_is(v.kind, SweepVerdict::counted_recovered)) return swept + "stalled +1, back to pending";
  if (verdict_is(v.kind, SweepVerdict::counted_dead)) return swept + "stalled +1, dead-lettered";
  if (verdict_is(v.kind, SweepVerdict::ghost)) return "the row is not a hash: removed from active";
  if (verdict_is(v.kind, SweepVerdict::lane)) return "a lane row: left untouched";
  return stamp;
}

class Svg {
 public:
  Svg(const RunModel& m, const TimelineOptions& o) : m_(m), o_(o) {
    const std::int64_t end_ms = std::max<std::int64_t>(m.end_true_ms, 100);
    const std::int64_t step_ms = nice_step(end_ms);
    domain_ms_ = (end_ms / step_ms + 1) * step_ms;  // the axis ends on a tick past the last line
    for (const JobKey& j : m.jobs) {
      if (rows_.size() >= o.jobs_max) break;
      rows_.emplace(j, rows_.size());
    }
    rows_h_ = row_h * static_cast<double>(std::max<std::size_t>(rows_.size(), 1));
    strip_y_ = rows_y + rows_h_ + 10;
    axis_y_ = strip_y_ + strip_h + 6;
    height_ = axis_y_ + 28;
  }

  std::string render();

 private:
  double x(std::int64_t true_ms) const {
    const std::int64_t c = std::clamp<std::int64_t>(true_ms, 0, domain_ms_);
    return left + (width - left - right) * static_cast<double>(c) / static_cast<double>(domain_ms_);
  }
  double row_y(const JobKey& j) const { return rows_y + row_h * static_cast<double>(rows_.at(j)); }
  std::string link(std::int64_t line) const { return "#" + line_anchor(o_.run, line); }
  void rect(const char* cls, double x0, double x1, double y, double h, std::string_view fill,
            const std::string& title, std::int64_t line, const char* extra = "");

  void defs();
  void grid_and_axis();
  void band();
  void rows();
  void phases();
  void leases();
  void lease(const Lease& l);
  void marks();
  void markers();
  void clock_strip();

  const RunModel& m_;
  const TimelineOptions& o_;
  std::int64_t domain_ms_ = 1;
  std::map<JobKey, std::size_t> rows_;
  double rows_h_ = row_h, strip_y_ = 0, axis_y_ = 0, height_ = 0;
  std::string out_;
  std::string ends_;  // lease end glyphs, drawn after all bars
};

void Svg::rect(const char* cls, double x0, double x1, double y, double h, std::string_view fill,
               const std::string& title, std::int64_t line, const char* extra) {
  const double w = std::max(x1 - x0, 1.5);
  out_ += "<a href=\"" + link(line) + "\"><rect class=\"" + cls + "\" x=\"" + num(x0) + "\" y=\"" +
          num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" fill=\"" +
          std::string(fill) + "\"" + extra + "><title>" + esc(title) + "</title></rect></a>\n";
}

void Svg::defs() {
  out_ +=
      "<defs><pattern id=\"hatch-" + std::to_string(o_.run) +
      "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
      "<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
      "stroke=\"#999999\" stroke-width=\"2\"/></pattern></defs>\n";
}

void Svg::grid_and_axis() {
  const std::int64_t step_ms = nice_step(domain_ms_ - 1);
  out_ += "<g class=\"axis\">\n";
  for (std::int64_t tick_ms = 0; tick_ms <= domain_ms_; tick_ms += step_ms) {
    out_ += "<line class=\"grid\" x1=\"" + num(x(tick_ms)) + "\" y1=\"" + num(band_y) + "\" x2=\"" +
            num(x(tick_ms)) + "\" y2=\"" + num(axis_y_) + "\"/>"
            "<text class=\"tick\" x=\"" + num(x(tick_ms)) + "\" y=\"" + num(axis_y_ + 14) +
            "\" text-anchor=\"middle\">" + esc(ms_label(tick_ms)) + "</text>\n";
  }
  out_ += "<text class=\"axis-title\" x=\"" + num(width - right) + "\" y=\"" + num(axis_y_ + 26) +
          "\" text-anchor=\"end\">true time t (ms)</text>\n</g>\n";
}

// The liveness phase as a light background over the rows.
void Svg::phases() {
  for (const auto& [at, name] : m_.phases) {
    if (name != "liveness") continue;
    out_ += "<rect class=\"phase-liveness\" x=\"" + num(x(at.true_ms)) + "\" y=\"" + num(rows_y) +
            "\" width=\"" + num(x(domain_ms_) - x(at.true_ms)) + "\" height=\"" + num(rows_h_) +
            "\"><title>" + esc("liveness phase from " + at_text(at) + ": faults off") +
            "</title></rect><text class=\"phase-label\" x=\"" + num(x(at.true_ms) + 3) + "\" y=\"" +
            num(rows_y + rows_h_ - 3) + "\">liveness</text>\n";
  }
}

void Svg::band() {
  out_ += "<g class=\"incarnations\">\n<text class=\"row-label\" x=\"" + num(left - 6) + "\" y=\"" +
          num(band_y + 13) + "\" text-anchor=\"end\">incarnation</text>\n";
  for (std::size_t i = 0; i < m_.incarnations.size(); ++i) {
    const Incarnation& inc = m_.incarnations[i];
    const std::int64_t until_ms = i + 1 < m_.incarnations.size() ? m_.incarnations[i + 1].started.true_ms : domain_ms_;
    std::string title = "incarnation " + std::to_string(inc.number) + " (" + inc.cause + " at " +
                        at_text(inc.started) + "), run_id " + (inc.run_id.empty() ? "none" : inc.run_id) +
                        (inc.module_loaded ? ", module loaded" : ", module NOT loaded: EMQ verbs refused");
    if (inc.kept_calls >= 0) {
      title += "; kept " + std::to_string(inc.kept_calls) + " calls, lost " + std::to_string(inc.lost_calls);
    }
    const std::string fill = inc.module_loaded ? std::string(incarnation_colour(inc.number))
                                               : "url(#hatch-" + std::to_string(o_.run) + ")";
    rect("inc", x(inc.started.true_ms), x(until_ms), band_y, band_h, fill, title, inc.started.line);
    if (x(until_ms) - x(inc.started.true_ms) > 34) {
      out_ += "<text class=\"inc-label\" x=\"" + num(x(inc.started.true_ms) + 3) + "\" y=\"" +
              num(band_y + 13) + "\">" + std::to_string(inc.number) +
              (inc.module_loaded ? "" : " \u2205") + "</text>\n";
    }
  }
  out_ += "</g>\n";
}

void Svg::lease(const Lease& l) {
  const double y = row_y(l.job) + bar_pad;
  const double h = row_h - 2 * bar_pad;
  // a wire 2 grant (EMQ §8) is named by its wire 2 token, shortened: each tooltip gives it whole
  const std::string& wire2 = l.segments.front().wire2_token;
  const std::string who =
      m_.job_label(l.job) + " token " + (wire2.empty() ? std::to_string(l.token) : short_wire2_token(wire2));
  const std::size_t n = l.segments.size();
  // Faded remainders and dotted waits first, so solid bars draw over them.
  std::string solid;
  for (std::size_t i = 0; i < n; ++i) {
    const LeaseSegment& s = l.segments[i];
    const bool last = i + 1 == n;
    const std::int64_t next_ms = !last ? l.segments[i + 1].at.true_ms : (l.end != LeaseEnd::open ? l.ended.true_ms : domain_ms_);
    const std::int64_t deadline_ms = std::min(s.deadline_true_ms.value_or(domain_ms_), domain_ms_);
    const std::int64_t solid_end_ms = std::min(deadline_ms, next_ms);
    std::string title = who + ": " + (i == 0 ? "granted by " : "extended by ") + s.verb + " (" + s.actor +
                        ") at " + at_text(s.at) + ", lease " + std::to_string(l.lease_ms) +
                        " ms, deadline st=" + std::to_string(s.deadline_server_ms) +
                        (s.deadline_true_ms ? " (reached at t=" + std::to_string(*s.deadline_true_ms) + ")"
                                      : " (not reached in this history)") +
                        ", stamped by inc " + std::to_string(s.at.inc);
    if (!s.wire2_token.empty()) {
      title += (i == 0 ? "; handed out wire 2 token " : "; carried wire 2 token ") + s.wire2_token;
    }
    if (s.reply_lost) title += "; REPLY LOST: the caller does not know it holds this lease";
    if (s.rolled_back) title += "; LOST BY PERSISTENCE at a later restart";
    if (last && l.end != LeaseEnd::open) {
      title += "; ended " + std::string(lease_end_name(l.end)) +
               (l.end_verdict.empty() ? "" : " (" + l.end_verdict + ")") + " at " + at_text(l.ended);
    }
    std::string cls = i == 0 ? "lease" : "extension";
    if (s.reply_lost) cls += " lost";
    if (s.rolled_back) cls += " rolled-back";
    if (last && deadline_ms > next_ms) {
      rect("unused", x(next_ms), x(deadline_ms), y, h, incarnation_colour(s.at.inc),
           who + ": deadline not used (st=" + std::to_string(s.deadline_server_ms) + ")", s.at.line);
    }
    if (last && deadline_ms < next_ms && l.end != LeaseEnd::superseded) {
      out_ += "<line class=\"expired\" x1=\"" + num(x(deadline_ms)) + "\" y1=\"" + num(y + h / 2) +
              "\" x2=\"" + num(x(next_ms)) + "\" y2=\"" + num(y + h / 2) + "\"><title>" +
              esc(who + ": expired at t=" + std::to_string(deadline_ms) + ", still in active until t=" +
                  std::to_string(next_ms)) +
              "</title></line>\n";
    }
    std::swap(out_, solid);
    rect(cls.c_str(), x(s.at.true_ms), x(solid_end_ms), y, h, incarnation_colour(s.at.inc), title, s.at.line);
    if (i > 0) {
      out_ += "<line class=\"ext-mark\" x1=\"" + num(x(s.at.true_ms)) + "\" y1=\"" + num(y - 3) +
              "\" x2=\"" + num(x(s.at.true_ms)) + "\" y2=\"" + num(y + h + 3) + "\"/>\n";
    }
    std::swap(out_, solid);
  }
  out_ += solid;
  // How the lease ended, when a call ended it (verdicts are drawn by marks()).
  const char* glyph = nullptr;
  const char* cls = nullptr;
  switch (l.end) {
    case LeaseEnd::completed: glyph = "\u2713"; cls = "end completed"; break;
    case LeaseEnd::requeued: glyph = "\u21ba"; cls = "end requeued"; break;
    case LeaseEnd::failed_dead: glyph = "\u2717"; cls = "end failed-dead"; break;
    case LeaseEnd::rolled_back: glyph = "\u2205"; cls = "end rolled-back"; break;
    default: break;
  }
  if (glyph) {
    ends_ += "<a href=\"" + link(l.ended.line) + "\"><text class=\"" + cls + "\" x=\"" +
            num(x(l.ended.true_ms) + 2) + "\" y=\"" + num(y + h - 1) + "\">" + glyph + "<title>" +
            esc(who + ": " + std::string(lease_end_name(l.end)) + " at " + at_text(l.ended)) +
            "</title></text></a>\n";
  }
}

void Svg::rows() {
  out_ += "<g class=\"jobs\">\n";
  for (const auto& j : m_.jobs) {
    auto it = rows_.find(j);
    if (it == rows_.end()) continue;
    const double y = row_y(j);
    std::string row_title = m_.job_label(j);
    if (auto r = m_.final_rows.find(j); r != m_.final_rows.end()) {
      row_title += ": final state " + r->second.state + ", attempts " + std::to_string(r->second.attempts) +
                   ", failures " + std::to_string(r->second.failures) + ", stalled " +
                   std::to_string(r->second.stalled);
    }
    out_ += "<rect class=\"row" + std::string(it->second % 2 ? " odd" : "") + "\" x=\"" + num(left) +
            "\" y=\"" + num(y) + "\" width=\"" + num(width - left - right) + "\" height=\"" +
            num(row_h) + "\"/><text class=\"row-label\" x=\"" + num(left - 6) + "\" y=\"" +
            num(y + 15) + "\" text-anchor=\"end\">" + esc(m_.job_label(j)) + "<title>" +
            esc(row_title) + "</title></text>\n";
    if (auto a = m_.added_true_ms.find(j); a != m_.added_true_ms.end()) {
      out_ += "<circle class=\"add\" cx=\"" + num(x(a->second)) + "\" cy=\"" + num(y + row_h / 2) +
              "\" r=\"2.5\"><title>" + esc(m_.job_label(j) + " added at t=" + std::to_string(a->second)) +
              "</title></circle>\n";
    }
  }
  out_ += "</g>\n";
}

void Svg::leases() {
  out_ += "<g class=\"leases\">\n";
  for (const Lease& l : m_.leases) {
    if (rows_.count(l.job)) lease(l);
  }
  out_ += ends_ + "</g>\n";  // end glyphs over every bar
}

void Svg::marks() {
  out_ += "<g class=\"marks\">\n";
  for (const Refusal& r : m_.refusals) {
    if (!rows_.count(r.job)) continue;
    out_ += "<a href=\"" + link(r.at.line) + "\"><circle class=\"refused\" cx=\"" + num(x(r.at.true_ms)) +
            "\" cy=\"" + num(row_y(r.job) + row_h / 2) + "\" r=\"3.5\"><title>" +
            esc(m_.job_label(r.job) + ": " + r.verb + " with token " +
                (r.wire2_token.empty() ? std::to_string(r.token) : short_wire2_token(r.wire2_token)) +
                " answered 0 (the lease was not live) at " + at_text(r.at) +
                (r.wire2_token.empty() ? "" : "; wire 2 token " + r.wire2_token)) +
            "</title></circle></a>\n";
  }
  for (const RowEdit& e : m_.row_edits) {
    if (!rows_.count(e.job)) continue;
    const double cx = x(e.at.true_ms), cy = row_y(e.job) + row_h / 2;
    out_ += "<a href=\"" + link(e.at.line) + "\"><rect class=\"row-edit\" x=\"" + num(cx - 3.5) + "\" y=\"" +
            num(cy - 3.5) + "\" width=\"7\" height=\"7\"><title>" +
            esc(m_.job_label(e.job) + ": " + e.what + " at " + at_text(e.at)) + "</title></rect></a>\n";
  }
  for (const Verdict& v : m_.verdicts) {
    if (!rows_.count(v.job)) continue;
    const double cx = x(v.at.true_ms), cy = row_y(v.job) + row_h / 2;
    out_ += "<a href=\"" + link(v.at.line) + "\"><g class=\"verdict verdict-" + esc(v.kind) +
            "\"><title>" +
            esc(m_.job_label(v.job) + ": sweep verdict " + v.kind + " at " + at_text(v.at) + " (" +
                verdict_meaning(v) + ")") +
            "</title><path d=\"M" + num(cx) + " " + num(cy - 6) + " L" + num(cx + 6) + " " + num(cy) +
            " L" + num(cx) + " " + num(cy + 6) + " L" + num(cx - 6) + " " + num(cy) +
            " Z\"/><text x=\"" + num(cx + 8) + "\" y=\"" + num(cy + 4) + "\">" +
            esc(verdict_label(v.kind)) + "</text></g></a>\n";
  }
  out_ += "</g>\n";
}

void Svg::markers() {
  out_ += "<g class=\"markers\">\n";
  // Labels go on the first of three lines where they do not overlap the previous label
  // (else on the line that frees up first): dense fault bursts stay readable.
  double line_end[3] = {-1e9, -1e9, -1e9};
  for (const WorldEvent& e : m_.events) {
    if (e.name == "start") continue;
    const double mx = x(e.at.true_ms);
    const std::string label = marker_label(e);
    std::size_t chars = 0;
    for (unsigned char c : label) chars += (c & 0xc0) != 0x80;  // UTF-8 code points
    std::size_t k = 0;
    while (k < 3 && line_end[k] > mx) ++k;
    if (k == 3) k = static_cast<std::size_t>(std::min_element(line_end, line_end + 3) - line_end);
    line_end[k] = mx + 4 + 5.0 * static_cast<double>(chars);
    const double label_y = 11 + 13 * static_cast<double>(k);
    std::string title = e.name + " at " + at_text(e.at);
    if (const std::string f = field_text(e.fields); !f.empty()) title += " (" + f + ")";
    out_ += "<a href=\"" + link(e.at.line) + "\"><g class=\"marker marker-" + esc(e.name) +
            "\"><title>" + esc(title) + "</title><line x1=\"" + num(mx) + "\" y1=\"" +
            num(label_y + 2) + "\" x2=\"" + num(mx) + "\" y2=\"" + num(rows_y + rows_h_) +
            "\"/><text x=\"" + num(mx + 2) + "\" y=\"" + num(label_y) + "\">" +
            esc(label) + "</text></g></a>\n";
  }
  out_ += "</g>\n";
}

void Svg::clock_strip() {
  const auto& pts = m_.clock.points();
  std::int64_t lo = 0, hi = 0;
  for (const auto& p : pts) {
    lo = std::min(lo, p.server_ms - p.true_ms);
    hi = std::max(hi, p.server_ms - p.true_ms);
  }
  const double span = static_cast<double>(std::max<std::int64_t>(hi - lo, 1));
  auto y = [&](std::int64_t off) {
    return strip_y_ + 4 + (strip_h - 8) * static_cast<double>(hi - off) / span;
  };
  out_ += "<g class=\"clock-strip\">\n<rect class=\"strip\" x=\"" + num(left) + "\" y=\"" + num(strip_y_) +
          "\" width=\"" + num(width - left - right) + "\" height=\"" + num(strip_h) + "\"/>"
          "<text class=\"row-label\" x=\"" + num(left - 6) + "\" y=\"" + num(strip_y_ + 20) +
          "\" text-anchor=\"end\">server \u2212 true</text><text class=\"row-label small\" x=\"" +
          num(left - 6) + "\" y=\"" + num(strip_y_ + 34) + "\" text-anchor=\"end\">" +
          esc(signed_ms(lo) + ".." + signed_ms(hi) + " ms") + "</text>\n<line class=\"zero\" x1=\"" +
          num(left) + "\" y1=\"" + num(y(0)) + "\" x2=\"" + num(width - right) + "\" y2=\"" + num(y(0)) +
          "\"/>\n<polyline class=\"clock\" points=\"";
  std::int64_t last_off_ms = 0, last_ms = 0, emitted_ms = 0;
  std::string points;
  auto point = [&](std::int64_t true_ms, std::int64_t off_ms) {
    points += (points.empty() ? "" : " ") + num(x(true_ms)) + "," + num(y(off_ms));
    emitted_ms = true_ms;
  };
  point(0, 0);
  // Flat stretches collapse to their ends; a drift is a slope; a step, two points at one t.
  for (const auto& p : pts) {
    const std::int64_t off_ms = p.server_ms - p.true_ms;
    if (off_ms != last_off_ms) {
      if (last_ms > emitted_ms) point(last_ms, last_off_ms);
      point(p.true_ms, off_ms);
      last_off_ms = off_ms;
    }
    last_ms = p.true_ms;
  }
  point(std::max(last_ms, m_.end_true_ms), last_off_ms);
  out_ += points + "\"><title>server clock minus true time (st \u2212 t): clock steps are vertical jumps, rates are slopes</title></polyline>\n</g>\n";
}

std::string Svg::render() {
  out_ += "<svg class=\"timeline\" id=\"timeline-" + std::to_string(o_.run) +
          "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(width) + " " + num(height_) +
          "\" width=\"" + num(width) + "\" height=\"" + num(height_) +
          "\" role=\"img\" aria-label=\"lease timeline\">\n";
  defs();
  rows();
  grid_and_axis();
  phases();
  band();
  leases();
  marks();
  markers();
  clock_strip();
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace

std::string timeline_svg(const RunModel& model, const TimelineOptions& options) {
  return Svg(model, options).render();
}

}  // namespace trafikey::reports
