// The campaign dashboard's charts as inline SVG, readable without JavaScript: every mark
// has an SVG <title> with its numbers, and every number is printed beside its bar too.
//
// coverage_chart_svg: one horizontal bar per coverage target, its length the share of
// runs that reached it (0..100 % of `runs`), the runs and occurrences written after it; a
// target no run reached is labelled in red, "never reached", unless the runs' plans do not
// draw it by design (CoverageBar::drawn false): that one is grey, "not drawn by this campaign".
// histogram_svg: one vertical bar per bucket (sim/run_stats.h), from the first non-empty
// bucket to the last, empty ones included, each labelled with its lower bound.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace trafikey::reports {

struct CoverageBar {
  std::string name;
  std::int64_t runs = 0;   // runs that reached it
  std::int64_t total = 0;  // occurrences over all runs
  bool drawn = true;       // false: the campaign's plans cannot reach it by design
};

// `title` names the chart (its aria-label and heading line), `runs` is 100 %.
std::string coverage_chart_svg(const std::string& title, const std::vector<CoverageBar>& bars, std::int64_t runs);

// `buckets`: (lower bound, runs), ascending; `unit` says what was counted ("calls",
// "simulated ms"). An empty histogram draws a note instead.
std::string histogram_svg(const std::vector<std::pair<std::int64_t, std::int64_t>>& buckets,
                          const std::string& unit);

}  // namespace trafikey::reports
