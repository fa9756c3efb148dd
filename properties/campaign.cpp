#include "properties/campaign.h"

#include <mutex>
#include <thread>

#include "properties/checked_run.h"
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

// Greedy descent through the shrink tree: take the first candidate that still breaks
// `invariant` with no more calls than the current one (so the history only gets shorter),
// repeat from it, stop when none does or the budget is spent.
void shrink(rc::Shrinkable<sim::RunPlan> failing, const std::string& invariant, int budget,
            CampaignFailure& out) {
  auto breaks = [&](const sim::RunPlan& plan, std::vector<Violation>& violations,
                    std::int64_t& calls) {
    const CheckedRun run = run_checked(plan, false);
    for (const auto& v : run.violations) {
      if (v.invariant == invariant) {
        violations = run.violations;
        calls = run.summary.calls;
        return true;
      }
    }
    return false;
  };
  bool progressed = true;
  while (progressed && out.shrink_tries < budget) {
    progressed = false;
    auto candidates = failing.shrinks();
    while (auto candidate = candidates.next()) {
      if (++out.shrink_tries > budget) break;
      std::vector<Violation> violations;
      std::int64_t calls = 0;
      if (breaks(candidate->value(), violations, calls) && calls <= out.shrunk_calls) {
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

}  // namespace

sim::RunPlan campaign_plan(const PlanSpace& space, std::uint64_t seed, int index) {
  return gen_plan(space)(random_for(seed, index), size_for(index)).value();
}

CampaignResult run_campaign(const CampaignOptions& options,
                            const std::function<void(int, int)>& progress) {
  const auto gen = gen_plan(options.space);
  std::vector<Slot> slots(static_cast<std::size_t>(options.runs));
  std::atomic<int> next{0}, done{0};
  std::atomic<int> first_failure{options.runs};  // runs at or after it are not started
  std::mutex generation;

  auto worker = [&] {
    for (;;) {
      const int i = next.fetch_add(1);
      if (i >= options.runs || i >= first_failure.load()) return;
      sim::RunPlan plan;
      {
        // RapidCheck's generation keeps process-wide state (its implicit parameters):
        // plans are drawn one at a time; only the runs go in parallel.
        std::lock_guard lock(generation);
        plan = gen(random_for(options.seed, i), size_for(i)).value();
      }
      Slot& slot = slots[static_cast<std::size_t>(i)];
      slot.run = run_checked(plan, options.keep_histories);
      slot.failed = slot.run.failed();
      if (!slot.failed && options.determinism_every > 0 && i % options.determinism_every == 0) {
        sim::RunOptions hash_only;
        hash_only.keep_history_text = false;
        const auto again = sim::run_plan(plan, hash_only);
        if (again.fingerprint != slot.run.summary.fingerprint) {
          slot.failed = true;
          slot.determinism_error = "run " + std::to_string(i) + " gave fingerprints " +
                                   slot.run.summary.fingerprint + " and " + again.fingerprint;
        }
      }
      slot.done = true;
      if (slot.failed) {
        int seen = first_failure.load();
        while (i < seen && !first_failure.compare_exchange_weak(seen, i)) {
        }
      }
      const int finished = done.fetch_add(1) + 1;
      if (progress) progress(finished, options.runs);
    }
  };
  std::vector<std::thread> threads;
  const int parallel = std::max(1, options.parallel);
  for (int t = 1; t < parallel; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  CampaignResult result;
  const int stop = first_failure.load();
  for (int i = 0; i < options.runs && i <= stop; ++i) {
    const Slot& slot = slots[static_cast<std::size_t>(i)];
    if (!slot.done) continue;
    if (options.keep_histories) {
      result.runs.push_back({i, slot.run.summary.history, slot.run.judged, slot.run.violations});
    }
    if (slot.failed) {
      ++result.failed;
      continue;
    }
    ++result.passed;
    if (options.determinism_every > 0 && i % options.determinism_every == 0) ++result.determinism_checked;
    const auto& s = slot.run.summary;
    for (const auto& [k, n] : s.faults) result.faults[k] += n;
    for (const auto& [k, n] : s.verdicts) result.verdicts[k] += n;
    for (const auto& [k, n] : slot.run.edges) result.edges[k] += n;
    for (const auto& [k, n] : s.situations) result.situations[k] += n;
    ++result.outcomes[s.outcome];
    result.calls_per_run.push_back(s.calls);
  }
  if (stop < options.runs) {
    const Slot& slot = slots[static_cast<std::size_t>(stop)];
    CampaignFailure failure;
    failure.run = stop;
    auto shrinkable = gen(random_for(options.seed, stop), size_for(stop));
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
      shrink(std::move(shrinkable), failure.invariant, options.shrink_budget, failure);
    }
    result.failure = std::move(failure);
  }
  return result;
}

}  // namespace trafikey::properties
