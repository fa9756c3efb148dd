// Campaign: many generated runs, checked, across threads; the first failure shrunk.
//
// Run i draws its plan from gen_plan with a RapidCheck Random seeded from (seed, i) and a
// size that cycles 0..99, so a campaign is a pure function of (seed, runs, space): the
// same arguments give the same runs, the same coverage and the same failure whatever the
// number of threads (whole runs per thread; the failure reported is the lowest-numbered
// failing run). Every determinism_every-th run is executed twice and its fingerprints
// compared (sim.determinism). The failure is shrunk greedily through RapidCheck's shrink
// tree, keeping a candidate when it still breaks the same invariant.
//
// A shard (shard_index/shard_count) runs only the runs i with i % shard_count ==
// shard_index, each exactly as the whole campaign runs it (same plan, same size, same
// determinism check), so the shards' runs, together, are the campaign's, run for run
// (campaign_summary.h folds and merges them).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/checker.h"
#include "properties/crash_guard.h"
#include "properties/plan_space.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::properties {

struct CampaignOptions {
  int runs = 100;
  std::uint64_t seed = 1;
  int parallel = 1;
  int determinism_every = 10;  // 0: never
  int shrink_budget = 3000;    // candidate runs tried while shrinking
  PlanSpace space = full_space();
  int shard_index = 0, shard_count = 1;  // this shard runs the i with i % count == index
  // Asked before each run starts (may be empty): false starts no more runs, so the runs
  // finished are runs 0..K-1 of the campaign (a time budget). Not used with shards.
  std::function<bool()> keep_going;
  // The crash guard's recorder (crash_guard.h), or null: each thread's run in flight and
  // its call, the phase, the run being shrunk. Thread t writes lane t.
  Flight* flight = nullptr;
  // Every invariant judged directly on every call (Checker::set_direct): the model's
  // audit, slower. Otherwise a call the model predicted exactly has its per-job
  // judgements established through the model's equality.
  bool direct = false;
};

struct CampaignFailure {
  int run = 0;                     // index of the failing run
  std::string invariant;
  sim::RunPlan original, shrunk;
  std::vector<Violation> violations;  // of the shrunk plan
  int shrink_steps = 0;            // accepted shrinks
  int shrink_tries = 0;            // candidates run
  std::int64_t original_calls = 0, shrunk_calls = 0;
};

struct CampaignResult {
  int passed = 0, failed = 0;
  int determinism_checked = 0;
  std::map<std::string, std::int64_t> faults, verdicts, edges, outcomes, situations;
  std::vector<std::int64_t> calls_per_run;  // passed runs, in run order
  std::optional<CampaignFailure> failure;
  struct RunCoverage {  // every finished run up to the failure, in run order
    int run = 0;
    bool failed = false;
    bool determinism_checked = false;  // passed, and run twice with the same fingerprint
    std::int64_t calls = 0;
    std::int64_t sim_ms = 0;  // the run's length in simulated (true) time, never wall-clock
    std::string outcome;
    std::map<std::string, std::int64_t> faults, verdicts, edges, situations;
    std::map<std::string, std::int64_t> final_states;  // jobs the server holds at the end, by state (RunSummary::jobs)
    std::map<std::string, std::int64_t> judged;        // invariant -> times judged
    // What the run's summary says (calls, length, outcome, final states, faults, verdicts,
    // situations); the checker's (edges, judged) and the determinism check are the caller's.
    static RunCoverage of(int run, const sim::RunSummary& summary);
  };
  std::vector<RunCoverage> coverage;
  int started = 0;  // runs started (with keep_going: the K of runs 0..K-1)
};

// progress(done, total) is called from worker threads after each run (may be empty).
CampaignResult run_campaign(const CampaignOptions& options,
                            const std::function<void(int, int)>& progress);

// The plan of run `index` of a campaign with this seed: what `campaign` ran.
sim::RunPlan campaign_plan(const PlanSpace& space, std::uint64_t seed, int index);

// ---- a run that crashes the process or never returns (crash_guard.h)

// One plan run checked in a child process, lane 0 of shared_flight() recording each
// call's index and words: how the child ended, and the call in flight when it did.
struct IsolatedRun {
  Supervised how;
  bool failed = false;     // exited, with a violation (an ordinary failure)
  std::int64_t call = 0;   // the history index of the call in flight (crashed or hung)
  std::int64_t true_ms = 0;  // the world's true time at it
  std::string argv;        // its words, joined by spaces (cut at FlightLane::argv_max)
  bool same_end(const IsolatedRun& other) const {
    return how.end == other.how.end && how.signal == other.how.signal;
  }
};
IsolatedRun run_isolated(const sim::RunPlan& plan, double timeout_s);

// Run `index` of the campaign, which ended its process (`first`, its run in isolation):
// the failure "sim.crash" (the process died by a signal) or "sim.hang" (a call did not
// return within timeout_s), its one violation at the call in flight. A crash is shrunk
// through the same tree as any failure, each candidate run in its own process and kept
// when it ends the same way (the same signal) no later; a hang is not shrunk (each
// candidate that still hangs costs the whole timeout).
CampaignFailure crash_failure(const CampaignOptions& options, int index, const IsolatedRun& first,
                              double timeout_s);

}  // namespace trafikey::properties
