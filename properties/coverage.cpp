#include "properties/coverage.h"

#include <cstdio>

#include "core/states.h"
#include "sim/plan.h"
#include "sim/run.h"
#include "sim/situations.h"
#include "sim/world.h"

namespace trafikey::properties {

const std::vector<CoverageTarget>& coverage_targets() {
  static const std::vector<CoverageTarget> targets = [] {
    std::vector<CoverageTarget> t;
    for (std::string_view v : sim::sweep_verdict_names) {
      t.push_back({"verdict", std::string(v)});
    }
    for (std::string_view e : allowed_transition_names) {
      t.push_back({"edge", std::string(e)});
    }
    for (std::string_view k : sim::fault_kind_names()) t.push_back({"fault", std::string(k)});
    for (std::string_view s : sim::situation_names()) t.push_back({"situation", std::string(s)});
    return t;
  }();
  return targets;
}

std::int64_t coverage_count(const CampaignResult& result, const CoverageTarget& target) {
  const std::map<std::string, std::int64_t>* counts = nullptr;
  if (target.family == "verdict") counts = &result.verdicts;
  if (target.family == "edge") counts = &result.edges;
  if (target.family == "fault") counts = &result.faults;
  if (target.family == "situation") counts = &result.situations;
  if (!counts) return 0;
  const auto it = counts->find(target.name);
  return it == counts->end() ? 0 : it->second;
}

std::vector<std::string> unreached_targets(const CampaignResult& result) {
  std::vector<std::string> missing;
  for (const auto& t : coverage_targets()) {
    if (coverage_count(result, t) == 0) missing.push_back(t.family + " " + t.name);
  }
  return missing;
}

bool drawn_in(const PlanSpace& space, const CoverageTarget& target) {
  const bool large_run = target.family == "situation" && target.name == sim::situation_name(sim::Situation::large_run);
  return !large_run || space.large_per_mille > 0;
}

std::string coverage_table(const CampaignResult& result, const PlanSpace& space) {
  std::string out;
  char line[160];
  for (const auto& t : coverage_targets()) {
    const std::int64_t n = coverage_count(result, t);
    std::snprintf(line, sizeof line, "  %-10s %-28s %lld%s\n", t.family.c_str(), t.name.c_str(),
                  static_cast<long long>(n),
                  n > 0 ? "" : drawn_in(space, t) ? "   <- never reached" : "   (not drawn by these plans)");
    out += line;
  }
  return out;
}

}  // namespace trafikey::properties
