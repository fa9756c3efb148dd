// RapidCheck generators of run plans, composed from small ones (see design STYLE.md).
//
// Swarm style: each plan first draws which fault kinds are on, then a short list of faults
// for each kind that is on, so a campaign visits runs with one fault kind, with several,
// and with none. Everything shrinks toward a short, readable history: fewer jobs and
// workers, fewer faults, earlier faults, a shorter safety phase, milder parameters, a
// smaller seed.
#pragma once

#include <rapidcheck.h>

#include "properties/plan_space.h"
#include "sim/plan.h"

namespace trafikey::properties {

rc::Gen<sim::Fault> gen_fault(sim::FaultKind kind, int workers, int jobs, std::int64_t safety_ms);
rc::Gen<sim::RunPlan> gen_plan(const PlanSpace& space);
// Puts a plan's times on a grid of quantum_ms (lease, poll, sweep interval, work, fault
// times and clock steps; worker clocks stop drifting) and records the quantum in the plan.
void put_on_grid(sim::RunPlan& plan, std::int64_t quantum_ms);
// A mixed fleet and its rolling upgrade, drawn into `plan` (inside a gen::exec).
void draw_mixed_fleet(sim::RunPlan& plan);

}  // namespace trafikey::properties

namespace trafikey::sim {
// So RapidCheck can print a counterexample (found by argument-dependent lookup): the
// plan's JSON, which `trafikey-sim` can run again.
void showValue(const RunPlan& plan, std::ostream& os);
}  // namespace trafikey::sim
