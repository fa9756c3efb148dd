#include "reports/charts.h"

#include <algorithm>
#include <map>

#include "reports/html.h"
#include "sim/run_stats.h"

namespace trafikey::reports {

namespace {

std::string runs_word(std::int64_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

std::string percent(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return "0%";
  const std::int64_t tenths = (part * 1000 + whole / 2) / whole;
  if (part > 0 && tenths == 0) return "<0.1%";  // reached, however rarely: never "0%"
  return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "") + "%";
}

}  // namespace

std::string coverage_chart_svg(const std::string& title, const std::vector<CoverageBar>& bars, std::int64_t runs) {
  const double label_w = 210, bar_w = 300, text_w = 230, row_h = 18, top = 6;
  const double w = label_w + bar_w + text_w, h = top + row_h * static_cast<double>(bars.size()) + 18;
  std::string out = "<svg class=\"chart coverage-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(w) +
                    " " + num(h) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\" aria-label=\"" +
                    esc(title) + "\">\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const CoverageBar& b = bars[i];
    const double y = top + row_h * static_cast<double>(i);
    const double len = runs > 0 ? bar_w * static_cast<double>(std::min(b.runs, runs)) / static_cast<double>(runs) : 0;
    const std::string figures = b.total > 0 ? runs_word(b.runs) + " (" + percent(b.runs, runs) + ") \u00b7 " +
                                                  std::to_string(b.total) + " times"
                                : b.drawn ? "never reached"
                                          : "not drawn by this campaign";
    const char* kind = b.total > 0 ? "" : b.drawn ? " uncovered" : " outside";
    out += "<g class=\"target" + std::string(kind) + "\"><title>" + esc(b.name) + ": " +
           esc(figures) + "</title><text class=\"label\" x=\"" + num(label_w - 6) + "\" y=\"" + num(y + 13) +
           "\" text-anchor=\"end\">" + esc(b.name) + "</text><rect class=\"track\" x=\"" + num(label_w) + "\" y=\"" +
           num(y + 3) + "\" width=\"" + num(bar_w) + "\" height=\"" + num(row_h - 6) + "\"/>";
    // A target reached in a sliver of the runs still shows a visible bar.
    if (b.total > 0) {
      out += "<rect class=\"cover-bar\" x=\"" + num(label_w) + "\" y=\"" + num(y + 3) + "\" width=\"" +
             num(std::max(len, 2.0)) + "\" height=\"" + num(row_h - 6) + "\"/>";
    }
    out += "<text class=\"figures\" x=\"" + num(label_w + bar_w + 6) + "\" y=\"" + num(y + 13) + "\">" +
           esc(figures) + "</text></g>\n";
  }
  const double axis_y = top + row_h * static_cast<double>(bars.size()) + 12;
  out += "<text class=\"axis\" x=\"" + num(label_w) + "\" y=\"" + num(axis_y) + "\">0%</text><text class=\"axis\" x=\"" +
         num(label_w + bar_w) + "\" y=\"" + num(axis_y) + "\" text-anchor=\"end\">100% of " + runs_word(runs) +
         "</text></svg>\n";
  return out;
}

std::string histogram_svg(const std::vector<std::pair<std::int64_t, std::int64_t>>& buckets, const std::string& unit) {
  if (buckets.empty()) return "<p class=\"note\">No runs to draw.</p>\n";
  // Every bucket from the first non-empty one to the last, so gaps show as gaps.
  const std::map<std::int64_t, std::int64_t> counts(buckets.begin(), buckets.end());
  std::vector<std::pair<std::int64_t, std::int64_t>> bars;
  for (std::int64_t b = buckets.front().first; b <= buckets.back().first; b = sim::next_bucket(b)) {
    const auto it = counts.find(b);
    bars.emplace_back(b, it == counts.end() ? 0 : it->second);
  }
  std::int64_t top = 1;
  for (const auto& [b, n] : bars) top = std::max(top, n);
  const double w = 640, h = 180, base = 145, left = 30, bar_w = (w - left - 10) / static_cast<double>(bars.size());
  std::string out = "<svg class=\"chart hist\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + num(w) + " " +
                    num(h) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\" aria-label=\"" +
                    esc(unit) + " per run\">\n";
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto [from, n] = bars[i];
    const std::int64_t to = sim::next_bucket(from) - 1;
    const double bh = 120.0 * static_cast<double>(n) / static_cast<double>(top);
    const double x0 = left + bar_w * static_cast<double>(i);
    out += "<rect class=\"bar\" x=\"" + num(x0 + 1) + "\" y=\"" + num(base - bh) + "\" width=\"" +
           num(std::max(bar_w - 2, 1.0)) + "\" height=\"" + num(bh) + "\"><title>" + std::to_string(from) +
           (to > from ? "\u2013" + std::to_string(to) : "") + " " + esc(unit) + ": " + runs_word(n) + "</title></rect>";
    if (n) {
      out += "<text x=\"" + num(x0 + bar_w / 2) + "\" y=\"" + num(base - bh - 3) + "\" text-anchor=\"middle\">" +
             std::to_string(n) + "</text>";
    }
    out += "<text x=\"" + num(x0 + bar_w / 2) + "\" y=\"" + num(base + 12) + "\" text-anchor=\"middle\">" +
           sim::bucket_label(from) + "</text>\n";
  }
  out += "<line class=\"base\" x1=\"" + num(left) + "\" y1=\"" + num(base) + "\" x2=\"" + num(w - 10) + "\" y2=\"" +
         num(base) + "\"/><text class=\"axis\" x=\"" + num(w - 10) + "\" y=\"" + num(h - 6) +
         "\" text-anchor=\"end\">" + esc(unit) + " per run (bucket start, log scale)</text></svg>\n";
  return out;
}

}  // namespace trafikey::reports
