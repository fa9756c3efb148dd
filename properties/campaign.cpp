#include "properties/campaign.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "core/assert.h"
#include "properties/checked_run.h"
#include "properties/generators.h"
#include "sim/prng.h"
#include "sim/run.h"

namespace trafikey::properties {

namespace {

rc::Random random_for(std::uint64_t seed, int index) {
  std::uint64_t state = seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(index + 1));
  return rc::Random(sim::splitmix64(state));
}

int size_for(int index) { return index % 100; }

struct Slot {
  bool done = false;
  bool failed = false;
  CheckedRun run;
  std::string determinism_error;
};

// Greedy descent through the shrink tree: take the first candidate that still fails the
// same way (`still`, which sets the candidate's violations and calls) with no more calls
// than the current one (so the history only gets shorter), repeat from it, stop when none
// does or the budget is spent.
using Still = std::function<bool(const sim::RunPlan&, std::vector<Violation>&, std::int64_t&)>;

void shrink(rc::Shrinkable<sim::RunPlan> failing, const Still& still, int budget, CampaignFailure& out) {
  bool progressed = true;
  while (progressed && out.shrink_tries < budget) {
    progressed = false;
    auto candidates = failing.shrinks();
    while (auto candidate = candidates.next()) {
      if (++out.shrink_tries > budget) break;
      std::vector<Violation> violations;
      std::int64_t calls = 0;
      if (still(candidate->value(), violations, calls) && calls <= out.shrunk_calls) {
        failing = std::move(*candidate);
        out.violations = std::move(violations);
        out.shrunk_calls = calls;
        ++out.shrink_steps;
        progressed = true;
        break;
      }
    }
  }
  out.shrunk = failing.value();
}

// Still breaks `invariant`.
Still breaks(const std::string& invariant, Flight* flight, bool direct) {
  return [invariant, flight, direct](const sim::RunPlan& plan, std::vector<Violation>& violations, std::int64_t& calls) {
    Checker checker;
    checker.set_direct(direct);
    if (flight) {  // each candidate has its own time and calls
      flight->start(0, flight->failing_run.load());
      checker.set_lane(&flight->lanes[0], false);
    }
    const CheckedRun run = run_checked(plan, false, checker);
    for (const auto& v : run.violations) {
      if (v.invariant == invariant) {
        violations = run.violations;
        calls = run.summary.calls;
        return true;
      }
    }
    return false;
  };
}

}  // namespace

sim::RunPlan campaign_plan(const PlanSpace& space, std::uint64_t seed, int index) {
  return gen_plan(space)(random_for(seed, index), size_for(index)).value();
}

CampaignResult::RunCoverage CampaignResult::RunCoverage::of(int run, const sim::RunSummary& s) {
  RunCoverage cov;
  cov.run = run;
  cov.calls = s.calls;
  cov.sim_ms = s.end_true_ms;
  cov.outcome = s.outcome;
  cov.final_states = s.jobs;
  cov.faults = s.faults;
  cov.verdicts = s.verdicts;
  cov.situations = s.situations;
  return cov;
}

CampaignResult run_campaign(const CampaignOptions& options,
                            const std::function<void(int, int)>& progress) {
  TRAFIKEY_ASSERT(options.shard_count >= 1 && options.shard_index >= 0 && options.shard_index < options.shard_count,
                  "shard I of N: N >= 1 and 0 <= I < N");
  const auto gen = gen_plan(options.space);
  const int count = options.shard_count;
  // Local slot j is run index_of(j) of the whole campaign.
  const int local_runs = options.runs <= options.shard_index
                             ? 0
                             : (options.runs - options.shard_index + count - 1) / count;
  auto index_of = [&](int j) { return options.shard_index + j * count; };
  std::vector<std::unique_ptr<Slot>> slots(static_cast<std::size_t>(local_runs));
  std::atomic<int> next{0}, done{0};
  std::atomic<int> first_failure{local_runs};  // local slots at or after it are not started
  std::mutex generation;

  Flight* const flight = options.flight;
  auto worker = [&](int lane) {
    for (;;) {
      if (options.keep_going && !options.keep_going()) return;
      const int j = next.fetch_add(1);
      if (j >= local_runs || j >= first_failure.load()) return;
      const int i = index_of(j);
      auto owned = std::make_unique<Slot>();
      Slot& slot = *owned;
      sim::RunPlan plan;
      {
        // RapidCheck's generation keeps process-wide state (its implicit parameters):
        // plans are drawn one at a time; only the runs go in parallel.
        std::lock_guard lock(generation);
        plan = gen(random_for(options.seed, i), size_for(i)).value();
      }
      Checker checker;
      checker.set_direct(options.direct);
      if (flight) {
        flight->start(lane, i);
        checker.set_lane(&flight->lanes[lane], false);
      }
      slot.run = run_checked(plan, false, checker);
      slot.failed = slot.run.failed();
      if (!slot.failed && options.determinism_every > 0 && i % options.determinism_every == 0) {
        sim::RunOptions hash_only;
        hash_only.keep_history_text = false;
        if (flight) flight->start(lane, i);
        const auto again = sim::run_plan(plan, hash_only);
        if (again.fingerprint != slot.run.summary.fingerprint) {
          slot.failed = true;
          slot.determinism_error = "run " + std::to_string(i) + " gave fingerprints " +
                                   slot.run.summary.fingerprint + " and " + again.fingerprint;
        }
      }
      if (flight) flight->finish(lane);
      slot.done = true;
      const bool failed = slot.failed;
      slots[static_cast<std::size_t>(j)] = std::move(owned);
      if (failed) {
        int seen = first_failure.load();
        while (j < seen && !first_failure.compare_exchange_weak(seen, j)) {
        }
      }
      const int finished = done.fetch_add(1) + 1;
      if (progress) progress(finished, local_runs);
    }
  };
  std::vector<std::thread> threads;
  const int parallel = std::max(1, options.parallel);
  for (int t = 1; t < parallel; ++t) threads.emplace_back(worker, t);
  worker(0);
  for (auto& t : threads) t.join();

  CampaignResult result;
  const int stop = first_failure.load();
  for (int j = 0; j < local_runs && j <= stop; ++j) {
    const Slot* slot_ptr = slots[static_cast<std::size_t>(j)].get();
    if (slot_ptr == nullptr || !slot_ptr->done) continue;
    const Slot& slot = *slot_ptr;
    const int i = index_of(j);
    ++result.started;
    if (slot.failed) {
      ++result.failed;
      CampaignResult::RunCoverage cov;
      cov.run = i;
      cov.failed = true;
      result.coverage.push_back(std::move(cov));
      continue;
    }
    ++result.passed;
    const bool twice = options.determinism_every > 0 && i % options.determinism_every == 0;
    if (twice) ++result.determinism_checked;
    const auto& s = slot.run.summary;
    for (const auto& [k, n] : s.faults) result.faults[k] += n;
    for (const auto& [k, n] : s.verdicts) result.verdicts[k] += n;
    for (const auto& [k, n] : slot.run.edges) result.edges[k] += n;
    for (const auto& [k, n] : s.situations) result.situations[k] += n;
    ++result.outcomes[s.outcome];
    result.calls_per_run.push_back(s.calls);
    CampaignResult::RunCoverage cov = CampaignResult::RunCoverage::of(i, s);
    cov.determinism_checked = twice;
    cov.judged = slot.run.judged;
    cov.edges = slot.run.edges;
    result.coverage.push_back(std::move(cov));
  }
  if (stop < local_runs) {
    const Slot& slot = *slots[static_cast<std::size_t>(stop)];
    const int failing = index_of(stop);
    CampaignFailure failure;
    failure.run = failing;
    auto shrinkable = gen(random_for(options.seed, failing), size_for(failing));
    failure.original = shrinkable.value();
    failure.original_calls = slot.run.summary.calls;
    if (!slot.determinism_error.empty()) {
      failure.invariant = "sim.determinism";
      failure.shrunk = failure.original;
      failure.shrunk_calls = failure.original_calls;
      failure.violations = {Violation{"sim.determinism", 0, 0, 0, slot.determinism_error}};
    } else {
      failure.invariant = slot.run.violations.front().invariant;
      failure.violations = slot.run.violations;
      failure.shrunk_calls = failure.original_calls;
      if (flight) {
        flight->phase.store(static_cast<int>(FlightPhase::shrinking));
        flight->failing_run.store(failing);
      }
      shrink(std::move(shrinkable), breaks(failure.invariant, flight, options.direct), options.shrink_budget, failure);
      if (flight) flight->finish(0);
    }
    result.failure = std::move(failure);
  }
  return result;
}

IsolatedRun run_isolated(const sim::RunPlan& plan, double timeout_s) {
  Flight& flight = shared_flight();
  reset(flight);
  IsolatedRun out;
  out.how = supervise(
      [&] {
        Checker checker;
        checker.set_lane(&flight.lanes[0], true);
        flight.start(0, 0);
        const CheckedRun run = run_checked(plan, false, checker);
        flight.finish(0);
        return run.failed() ? 1 : 0;
      },
      flight, timeout_s);
  out.failed = out.how.end == Supervised::End::exited && out.how.status == 1;
  const FlightLane& lane = flight.lanes[0];
  out.call = lane.call.load();
  out.true_ms = lane.true_ms.load();
  const std::uint32_t size = std::min<std::uint32_t>(lane.argv_size.load(), FlightLane::argv_max);
  out.argv.assign(lane.argv, size);
  return out;
}

namespace {

std::string crash_facts(const IsolatedRun& run, double timeout_s) {
  // the call's bytes as they are, like any violation's facts (describe_line() escapes them)
  std::string words = run.argv;
  if (run.argv.size() >= FlightLane::argv_max) words += " ...";
  const std::string call = run.call > 0 ? "call " + std::to_string(run.call) + " (" + words + ")"
                                        : "no call (before the first)";
  if (run.how.end == Supervised::End::hung) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s);
    return call + " had not returned after " + seconds + " s: the core loops or waits forever";
  }
  return "the process died by " + signal_name(run.how.signal) + " during " + call +
         ": the core crashed (a debugger or the asan build shows where)";
}

}  // namespace

CampaignFailure crash_failure(const CampaignOptions& options, int index, const IsolatedRun& first,
                              double timeout_s) {
  const auto gen = gen_plan(options.space);
  auto shrinkable = gen(random_for(options.seed, index), size_for(index));
  CampaignFailure failure;
  failure.run = index;
  failure.invariant = first.how.end == Supervised::End::hung ? "sim.hang" : "sim.crash";
  failure.original = shrinkable.value();
  failure.original_calls = failure.shrunk_calls = first.call;
  auto violation = [&](const IsolatedRun& run) {
    return Violation{failure.invariant, run.call, 0, run.true_ms, crash_facts(run, timeout_s)};
  };
  failure.violations = {violation(first)};
  if (first.how.end != Supervised::End::crashed) {
    failure.shrunk = failure.original;
    return failure;
  }
  const Still still = [&](const sim::RunPlan& plan, std::vector<Violation>& violations, std::int64_t& calls) {
    const IsolatedRun run = run_isolated(plan, timeout_s);
    if (!run.same_end(first)) return false;
    violations = {violation(run)};
    calls = run.call;
    return true;
  };
  shrink(std::move(shrinkable), still, std::min(options.shrink_budget, 1000), failure);
  return failure;
}

}  // namespace trafikey::properties
