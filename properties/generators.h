// RapidCheck generators of run plans, composed from small ones (see design STYLE.md).
//
// Swarm style: each plan first draws which fault kinds are on, then a short list of faults
// for each kind that is on, so a campaign visits runs with one fault kind, with several,
// and with none. Everything shrinks toward a short, readable history: fewer jobs and
// workers, fewer faults, earlier faults, a shorter safety phase, milder parameters, a
// smaller seed.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "sim/plan.h"

namespace trafikey::properties {

struct PlanSpace {
  std::vector<sim::FaultKind> kinds;  // the fault kinds a plan may switch on
  std::vector<sim::Persistence> persistence{sim::Persistence::always, sim::Persistence::everysec,
                                            sim::Persistence::snapshot, sim::Persistence::none};
  int jobs_max = 16;
  int workers_max = 4;
  std::int64_t safety_ms_max = 12000;
};

// Every fault kind.
PlanSpace full_space();

rc::Gen<sim::Fault> gen_fault(sim::FaultKind kind, int workers, int jobs, std::int64_t safety_ms);
rc::Gen<sim::RunPlan> gen_plan(const PlanSpace& space);

}  // namespace trafikey::properties

namespace trafikey::sim {
// So RapidCheck can print a counterexample (found by argument-dependent lookup): the
// plan's JSON, which `trafikey-sim` can run again.
void showValue(const RunPlan& plan, std::ostream& os);
}  // namespace trafikey::sim
