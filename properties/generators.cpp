#include "properties/generators.h"

#include <algorithm>
#include <tuple>
#include <variant>

namespace trafikey::properties {

using sim::Fault;
using sim::FaultKind;

namespace {
// A fault of `kind` at a drawn time, what it carries made by `make` from the values `values`
// draw, in order. The draws form the tuple (a constant, at_ms, the kind, the values...) that
// rc::gen::build gives a struct, in that order: a campaign's seed and index name a plan and
// its shrinks, so the shape stays fixed.
template <class Make, class... Values>
rc::Gen<Fault> fault_gen(rc::Gen<std::int64_t> at_ms, FaultKind kind, Make make, rc::Gen<Values>... values) {
  return rc::gen::map(rc::gen::tuple(rc::gen::just(0), std::move(at_ms), rc::gen::just(kind), std::move(values)...),
                      [make](std::tuple<int, std::int64_t, FaultKind, Values...>&& drawn) {
                        return std::apply([&](int, std::int64_t at, FaultKind, Values... v) { return Fault{at, make(v...)}; },
                                          std::move(drawn));
                      });
}
}  // namespace

rc::Gen<Fault> gen_fault(FaultKind kind, int workers, int jobs, std::int64_t safety_ms) {
  namespace fault = sim::fault;
  const auto at_ms = rc::gen::inRange<std::int64_t>(0, std::max<std::int64_t>(1, safety_ms));
  const auto worker = rc::gen::inRange(0, workers);
  switch (kind) {
    case FaultKind::clock_step:
      return fault_gen(at_ms, kind, [](std::int64_t delta_ms) { return fault::ClockStep{delta_ms}; },
                       rc::gen::oneOf(rc::gen::inRange<std::int64_t>(100, 4000),
                                      rc::gen::inRange<std::int64_t>(-4000, -100)));
    case FaultKind::clock_rate:
      return fault_gen(at_ms, kind, [](std::int64_t rate) { return fault::ClockRate{rate}; },
                       rc::gen::inRange<std::int64_t>(500, 1600));
    case FaultKind::worker_clock:
      return fault_gen(at_ms, kind, [](std::int64_t delta_ms, int w) { return fault::WorkerClockStep{w, delta_ms}; },
                       rc::gen::inRange<std::int64_t>(-3000, 3000), worker);
    case FaultKind::worker_pause:
      return fault_gen(at_ms, kind, [](std::int64_t pause_ms, int w) { return fault::WorkerPause{w, pause_ms}; },
                       rc::gen::inRange<std::int64_t>(100, 5000), worker);
    case FaultKind::worker_death:
      return fault_gen(at_ms, kind, [](int w) { return fault::WorkerDeath{w}; }, worker);
    case FaultKind::row_delete:
      return fault_gen(at_ms, kind, [](int job) { return fault::RowDelete{job}; }, rc::gen::inRange(1, jobs + 1));
    case FaultKind::lane_mark:
      return fault_gen(at_ms, kind, [](int job) { return fault::LaneMark{job}; }, rc::gen::inRange(1, jobs + 1));
    case FaultKind::lost_reply:  // workers, then the sweeper (index == workers)
      return fault_gen(at_ms, kind, [](int actor) { return fault::LostReply{actor}; }, rc::gen::inRange(0, workers + 1));
    case FaultKind::upgrade:  // no worker: the mixed fleet's upgrades are drawn apart (draw_mixed_fleet)
      return fault_gen(at_ms, kind, [](int w) { return fault::Upgrade{w}; }, rc::gen::just(-1));
    default:  // carries nothing
      return fault_gen(at_ms, kind, [kind](int) { return sim::fault_payload(kind); }, rc::gen::just(-1));
  }
}

void put_on_grid(sim::RunPlan& plan, std::int64_t quantum_ms) {
  const auto snap = [&](std::int64_t ms) { return std::max(quantum_ms, ms / quantum_ms * quantum_ms); };
  const auto snap0 = [&](std::int64_t ms) { return ms / quantum_ms * quantum_ms; };  // may be 0 or negative
  plan.time_quantum_ms = quantum_ms;
  plan.lease_ms = snap(plan.lease_ms);
  plan.poll_ms = snap(plan.poll_ms);
  plan.sweep_interval_ms = snap(plan.sweep_interval_ms);
  plan.work_min_ms = snap(plan.work_min_ms);
  plan.work_max_ms = std::max(plan.work_min_ms, snap(plan.work_max_ms));
  for (auto& w : plan.workers) {
    w.offset_ms = snap0(w.offset_ms);
    w.rate_per_mille = 1000;  // a drifting clock leaves the grid
  }
  const auto snap_signed = [&](std::int64_t& ms) { ms = ms < 0 ? -snap(-ms) : snap(ms); };
  for (auto& f : plan.faults) {
    f.at_ms = snap0(f.at_ms);
    if (auto* step = std::get_if<sim::fault::ClockStep>(&f.what)) snap_signed(step->delta_ms);
    if (auto* step = std::get_if<sim::fault::WorkerClockStep>(&f.what)) snap_signed(step->delta_ms);
    if (auto* pause = std::get_if<sim::fault::WorkerPause>(&f.what)) snap_signed(pause->pause_ms);
  }
}

namespace {
// A share drawn at the nominal size, so that it is the same at every size (inRange scales
// with it): 0..n-1, shrinking to 0.
int share(int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }
}  // namespace

void draw_mixed_fleet(sim::RunPlan& plan) {
  const int workers = static_cast<int>(plan.workers.size());
  plan.scripted_workers = 1 + share(workers);  // shrinks to one scripted worker
  const std::int64_t q = std::max<std::int64_t>(1, plan.time_quantum_ms);
  const auto at = [&](std::int64_t ms) { return std::clamp<std::int64_t>(ms / q * q, 0, plan.safety_ms - 1); };
  for (int w = 0; w < plan.scripted_workers; ++w) {
    if (share(2) == 0) continue;  // shrinks to: never upgraded
    const std::int64_t upgrade_ms = at(share(static_cast<int>(std::max<std::int64_t>(1, plan.safety_ms))));
    plan.faults.push_back({upgrade_ms, sim::fault::Upgrade{w}});
    // A rolling upgrade restarts servers around the switch: a lease granted by the script
    // before it crosses the restart, and one the native verbs stamp after it is swept.
    const int around = share(4);  // 0 none, 1 before, 2 after, 3 both
    const int gap_ms = 1 + share(static_cast<int>(plan.lease_ms));
    if (around & 1) plan.faults.push_back({at(upgrade_ms - gap_ms), sim::fault::Restart{}});
    if (around & 2) plan.faults.push_back({at(upgrade_ms + gap_ms), sim::fault::Restart{}});
  }
}

rc::Gen<sim::RunPlan> gen_plan(const PlanSpace& space) {
  return rc::gen::exec([space] {
    sim::RunPlan plan;
    plan.seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 20);
    plan.jobs = *rc::gen::inRange(1, space.jobs_max + 1);
    const int workers = *rc::gen::inRange(1, space.workers_max + 1);
    plan.safety_ms = *rc::gen::inRange<std::int64_t>(1000, space.safety_ms_max + 1);
    plan.add_spread_ms = std::max<std::int64_t>(1, space.adds_until_safety_end ? plan.safety_ms : plan.safety_ms / 4);
    plan.persistence = *rc::gen::elementOf(space.persistence);
    plan.claim_count = *rc::gen::inRange(1, 4);
    plan.lease_ms = *rc::gen::inRange<std::int64_t>(space.lease_ms_min, space.lease_ms_max + 1);
    plan.extend_at_per_mille =
        *rc::gen::inRange<std::int64_t>(space.extend_at_per_mille_min, space.extend_at_per_mille_max + 1);
    plan.use_extends = *rc::gen::arbitrary<bool>();
    plan.work_min_ms = *rc::gen::inRange<std::int64_t>(10, 300);
    plan.work_max_ms = plan.work_min_ms + *rc::gen::inRange<std::int64_t>(0, space.work_leases_max * plan.lease_ms);
    plan.fail_per_mille = *rc::gen::inRange<std::int64_t>(0, space.fail_per_mille_max + 1);
    plan.retry_per_mille = *rc::gen::inRange<std::int64_t>(space.retry_per_mille_min, 1001);
    plan.max_failures = *rc::gen::inRange(1, space.max_failures_max + 1);
    plan.max_stalled = *rc::gen::inRange(1, 4);
    // shrinks toward the longest interval: fewer sweeps, a shorter history
    plan.sweep_interval_ms = 1000 - *rc::gen::inRange<std::int64_t>(0, 900);
    plan.snapshot_interval_ms = *rc::gen::inRange<std::int64_t>(500, 4000);
    plan.replication_lag_ms = *rc::gen::inRange<std::int64_t>(50, 1000);

    // swarm: which fault kinds are on in this run
    std::vector<FaultKind> on;
    for (FaultKind kind : space.kinds) {
      if (*rc::gen::arbitrary<bool>()) on.push_back(kind);
    }
    plan.workers.assign(static_cast<std::size_t>(workers), sim::WorkerClock{});
    if (std::find(on.begin(), on.end(), FaultKind::worker_clock) != on.end()) {
      for (auto& w : plan.workers) {
        w.offset_ms = *rc::gen::inRange<std::int64_t>(-5000, 5001);
        w.rate_per_mille = *rc::gen::inRange<std::int64_t>(900, 1101);
      }
    }
    for (FaultKind kind : on) {
      auto faults = *rc::gen::container<std::vector<Fault>>(
          static_cast<std::size_t>(*rc::gen::inRange(0, space.faults_per_kind_max + 1)),
          gen_fault(kind, workers, plan.jobs, plan.safety_ms));
      plan.faults.insert(plan.faults.end(), faults.begin(), faults.end());
    }
    // Drawn after everything above, so that the draws above stay what they were; at the
    // nominal size, so that each share is the same at every size (inRange scales with it).
    if (space.verb_parameters) {
      const int limit = share(10);  // shrinks to 0: no LIMIT
      plan.sweep_limit = limit < 4 ? 0 : 1 + (limit - 4) % 3;
      const int over = share(10);  // shrinks to 0: COUNT = free capacity
      plan.claim_overask = over < 6 ? 0 : (over - 5) * 2;
      plan.max_failures_vary = *rc::gen::arbitrary<bool>();
    }
    if (space.near_epochs) {
      const auto near = share(1000);  // shrinks to 0: none
      plan.near_epoch_per_mille = near < 500 ? 0 : 2 * (near - 500) + 1;
    }
    if (share(1000) >= 1000 - space.grid_per_mille) {
      static constexpr std::int64_t quanta[]{50, 100, 250};
      put_on_grid(plan, quanta[share(3)]);
    }
    if (share(1000) >= 1000 - space.large_per_mille) {
      // on top of the small plan's numbers, so each shrinks back to it step by step
      plan.jobs += share(space.large_jobs_max + 1);
      const int more = share(space.large_workers_max + 1);
      plan.workers.resize(plan.workers.size() + static_cast<std::size_t>(more), plan.workers.back());
    }
    const bool large = plan.jobs > space.jobs_max;
    if (share(1000) >= 1000 - space.scripted_per_mille && !large) draw_mixed_fleet(plan);
    for (FaultKind kind : space.kinds_drawn_last) {
      if (share(2) == 0) continue;  // swarm, as above
      auto faults = *rc::gen::container<std::vector<Fault>>(
          static_cast<std::size_t>(share(space.faults_per_kind_max + 1)),
          gen_fault(kind, static_cast<int>(plan.workers.size()), plan.jobs, plan.safety_ms));
      plan.faults.insert(plan.faults.end(), faults.begin(), faults.end());
    }
    // after every other draw (see PlanSpace::several_queues_per_mille)
    if (share(1000) >= 1000 - space.several_queues_per_mille) plan.queues = 2 + share(2);
    // after that (see PlanSpace::adversary_per_mille)
    if (share(1000) >= 1000 - space.adversary_per_mille) plan.adversarial_calls = 1 + share(space.adversarial_calls_max);
    // after that, large runs only (see PlanSpace::bulk_claim_per_mille)
    if (large && share(1000) >= 1000 - space.bulk_claim_per_mille) plan.claim_overask = 100 + share(201);
    // after that (see PlanSpace::wall_clock_per_mille): the server clock at wall time from the start
    if (share(1000) >= 1000 - space.wall_clock_per_mille) {
      constexpr std::int64_t wall_clock_ms = 1'600'000'000'000;  // September 2020
      plan.faults.push_back({0, sim::fault::ClockStep{wall_clock_ms + std::int64_t{share(1000)} * 100'000'000}});
    }
    // after that (see PlanSpace::long_lived_queue_per_mille): seq just below a power of two
    // an order crosses within the run, or anywhere between 2^24 and 2^53
    if (share(1000) >= 1000 - space.long_lived_queue_per_mille) {
      static constexpr std::int64_t crossings[]{std::int64_t{1} << 24, std::int64_t{1} << 31, std::int64_t{1} << 32,
                                                std::int64_t{1} << 53};
      const int band = share(5);  // shrinks to the first crossing
      plan.seq_start = band < 4 ? crossings[band] - 1 - share(8)
                                : (std::int64_t{1} << 24) + std::int64_t{share(1000000)} * 9'000'000'000 + share(1000);
    }
    // after that (see PlanSpace::wire2_per_mille)
    if (share(1000) >= 1000 - space.wire2_per_mille) {
      plan.wire2_workers = 1 + share(static_cast<int>(plan.workers.size()));
    }
    // after that (see PlanSpace::failback_per_mille): one or two failovers, each followed
    // by its failback
    if (share(1000) >= 1000 - space.failback_per_mille) {
      const int pairs = 1 + share(2);
      const std::int64_t q = std::max<std::int64_t>(1, plan.time_quantum_ms);
      for (int i = 0; i < pairs; ++i) {
        const std::int64_t at = share(static_cast<int>(std::max<std::int64_t>(1, plan.safety_ms))) / q * q;
        const std::int64_t back = std::min(plan.safety_ms - 1, at + (1 + share(static_cast<int>(2 * plan.lease_ms))) / q * q);
        plan.faults.push_back({at, sim::fault::Failover{}});
        plan.faults.push_back({std::max(at, back), sim::fault::Failback{}});
      }
    }
    std::stable_sort(plan.faults.begin(), plan.faults.end(),
                     [](const Fault& a, const Fault& b) { return a.at_ms < b.at_ms; });
    return plan;
  });
}

}  // namespace trafikey::properties

namespace trafikey::sim {
void showValue(const RunPlan& plan, std::ostream& os) { os << plan_json(plan); }
}  // namespace trafikey::sim
