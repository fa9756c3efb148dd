#include "properties/campaign.h"

#include <memory>
#include <mutex>
#include <thread>

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
  const int count = std::max(1, options.shard_count);
  // Local slot j is run index_of(j) of the whole campaign.
  const int local_runs = options.runs <= options.shard_index
                             ? 0
                             : (options.runs - options.shard_index + count - 1) / count;
  auto index_of = [&](int j) { return options.shard_index + j * count; };
  std::vector<std::unique_ptr<Slot>> slots(static_cast<std::size_t>(local_runs));
  std::atomic<int> next{0}, done{0};
  std::atomic<int> first_failure{local_runs};  // local slots at or after it are not started
  std::mutex generation;

  auto worker = [&] {
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
      slot.run = run_checked(plan, false);
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
  for (int t = 1; t < parallel; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();

  CampaignResult result;
  const int stop = first_failure.load();
  for (int j = 0; j < local_runs && j <= stop; ++j) {
    const Slot* slot_ptr = slots[static_cast<std::size_t>(j)].get();
    if (slot_ptr == nullptr || !slot_ptr->done) continue;
    const Slot& slot = *slot_ptr;
    const int i = index_of(j);
    ++result.started;
    CampaignResult::RunCoverage cov;
    cov.run = i;
    if (slot.failed) {
      ++result.failed;
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
    cov.determinism_checked = twice;
    cov.calls = s.calls;
    cov.sim_ms = s.end_true_ms;
    cov.outcome = s.outcome;
    cov.final_states = s.jobs;
    cov.judged = slot.run.judged;
    cov.faults = s.faults;
    cov.verdicts = s.verdicts;
    cov.edges = slot.run.edges;
    cov.situations = s.situations;
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
      shrink(std::move(shrinkable), failure.invariant, options.shrink_budget, failure);
    }
    result.failure = std::move(failure);
  }
  return result;
}

}  // namespace trafikey::properties
