// Coverage that gates: the named targets the generated histories must reach (as
// Antithesis' "sometimes" assertions). A property can only catch what the histories reach,
// so a campaign whose runs never reach a target says a part of the contract went untested;
// the ctest properties.Coverage.* fails naming it.
//
// Targets, by family:
//   verdict    every sweep verdict: ghost, lane, exempt, counted-recovered, counted-dead
//   edge       every edge of the state graph: pending->active, active->pending,
//              active->done, active->dead
//   fault      every fault kind (sim::FaultKind), as applied
//   situation  every situation the driver counts (sim::Situation, sim/situations.h:
//              a sweep cut by LIMIT, calls at a deadline, a run_id one character off an
//              earlier one, ...)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "properties/campaign.h"
#include "properties/plan_space.h"

namespace trafikey::properties {

struct CoverageTarget {
  std::string family;  // verdict, edge, fault, situation
  std::string name;
};

const std::vector<CoverageTarget>& coverage_targets();
// How often the campaign's passing runs reached the target.
std::int64_t coverage_count(const CampaignResult& result, const CoverageTarget& target);
// "family name" of every target reached zero times, in the order of coverage_targets().
std::vector<std::string> unreached_targets(const CampaignResult& result);
// Whether the plans of `space` can reach the target at all: not a large run where the space
// draws none (large_per_mille 0, as in full_space(), the campaign's space: large runs are
// the All property's). A campaign shows a target its plans do not draw apart, not as never
// reached; the All property's gate, on its own space, still requires every target.
bool drawn_in(const PlanSpace& space, const CoverageTarget& target);
// One line per target: "  family     name                         count", a target
// reached zero times marked "never reached", or "not drawn" when `space` does not draw it.
std::string coverage_table(const CampaignResult& result, const PlanSpace& space);

}  // namespace trafikey::properties
