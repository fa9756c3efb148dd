// PlanSpace: where a campaign's plans are drawn from (generators.h draws them). Apart
// from the generators so that what only names a space (a campaign's options, the command
// line) does not compile RapidCheck.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/plan.h"

namespace trafikey::properties {

// Where plans are drawn from. The defaults are full_space()'s (and the campaign's): a
// space that changes only some of them draws the others exactly as before.
struct PlanSpace {
  std::vector<sim::FaultKind> kinds;  // the fault kinds a plan may switch on
  // Kinds added since: switched on and drawn after every other draw of the plan, so that
  // what the draws above make of each run (and so what each mutant needs) stays the same.
  std::vector<sim::FaultKind> kinds_drawn_last{sim::FaultKind::reload};
  std::vector<sim::Persistence> persistence{sim::Persistence::always, sim::Persistence::everysec,
                                            sim::Persistence::snapshot, sim::Persistence::none};
  int jobs_max = 16;
  int workers_max = 4;
  std::int64_t safety_ms_max = 12000;
  int faults_per_kind_max = 3;           // each kind that is on: 0..this many faults
  std::int64_t lease_ms_min = 300, lease_ms_max = 2000;
  std::int64_t work_leases_max = 2;      // work_max_ms: work_min_ms + up to this many leases
  std::int64_t extend_at_per_mille_min = 250, extend_at_per_mille_max = 799;
  std::int64_t retry_per_mille_min = 0;  // after a lost reply, retry with at least this chance
  std::int64_t fail_per_mille_max = 399;
  int max_failures_max = 4;
  bool adds_until_safety_end = false;    // jobs keep arriving until the faults stop
  // The verbs' parameters: a share of runs sweeps with a small LIMIT (often below the
  // expired count), over-asks in CLAIM's COUNT, varies MAXFAILURES per job.
  bool verb_parameters = true;
  // A share of runs draws run_ids one character off an earlier process's.
  bool near_epochs = true;
  // A share of runs puts times on a grid of one quantum, so calls land on deadlines.
  std::int64_t grid_per_mille = 300;
  // A share of runs is large: up to large_jobs_max more jobs and large_workers_max more
  // workers (thousands of calls). Shrinking goes to the small: both extras shrink to 0,
  // and the share's draw toward "not large".
  std::int64_t large_per_mille = 0;
  int large_jobs_max = 300;
  int large_workers_max = 30;
  // A share of runs has a mixed fleet: the first few workers on the scripted executor
  // (unstamped leases), some of them upgraded to the native verbs mid-run, with restarts
  // around the switch. Shrinks toward no scripted worker, then fewer, then no upgrade.
  // Never in a large run, and a small share: each script call starts a Lua state, so a
  // scripted run costs several native ones (the CI budget).
  std::int64_t scripted_per_mille = 60;
  // A share of runs spreads its jobs over 2..3 queues (RunPlan::queues): a sweep or a claim
  // that touches another queue's keys. Drawn last of all, so every run that stays on one
  // queue keeps the plan it had; shrinks toward one queue, then two.
  std::int64_t several_queues_per_mille = 200;
  // A share of runs has a sloppy client among the fleet (RunPlan::adversarial_calls, sim/adversarial_calls.h):
  // malformed and boundary arguments, unusual spellings, the read-only verbs, an ADD of an
  // id that exists, tokens ahead of the row, while the fleet spells its own calls otherwise.
  // The fleet only ever sends what it was written to send, so without it a core that
  // misreads an argument, a bound or a spelling passes. Drawn after everything else (the
  // plans without it stay as they were); shrinks toward none, then fewer calls. Half the
  // runs: with a quarter, classes the adversarial client alone reaches (a corrupt attempts met by a
  // lease verb, an ACL on one key of a FAIL) took thousands of runs on some seeds.
  std::int64_t adversary_per_mille = 500;
  int adversarial_calls_max = 24;
  // A share of the large runs has a greedy fleet: each CLAIM asks 100..300 over its free
  // capacity (RunPlan::claim_overask), so one CLAIM can move more than 100 jobs and their
  // leases can expire together. Without it no CLAIM asked for more than a dozen, and a core
  // that capped COUNT, or the sweep's default LIMIT, at 100 passed every run. Drawn after
  // everything else, in large runs only.
  std::int64_t bulk_claim_per_mille = 0;
  // A share of runs whose server clock reads wall time, as every real server's does (ms since
  // 1970, about 1.6e12..1.7e12: past 2^31, 2^32 and a float's 2^24 of exact integers): a
  // clock_step at true time 0 that puts it there. Every other run's server clock starts at 0
  // and moves by a few seconds, so without this a core that keeps `now` or a deadline in 32
  // bits, or compares it as a float, passes every run. Drawn after everything else (the
  // plans without it stay as they were); shrinks toward none.
  std::int64_t wall_clock_per_mille = 100;
  // A share of runs whose queues are long-lived (RunPlan::seq_start): every queue's seq
  // stands just below 2^24, 2^31, 2^32 or 2^53, or anywhere between 2^24 and 2^53, before
  // the first ADD, so the run's ADDs and requeueing FAILs order jobs past the integers a
  // float holds exactly (and, near 2^53, past those a double holds). Every other run's seq
  // counts from 1 to a few dozen (the adversarial client's setups add a handful at int64's top), so
  // without this a core that carries an order through a float passes every run. Drawn after
  // everything else (the plans without it stay as they were); shrinks toward none.
  std::int64_t long_lived_queue_per_mille = 100;
  // A share of runs has wire 2 in its fleet (RunPlan::wire2_workers, EMQ §8): the last one
  // or more workers claim with WIRE 2 and hand in wire 2 tokens, beside wire 1 workers and,
  // in a mixed fleet, scripted ones (a scripted worker among them speaks wire 2 once
  // upgraded). Drawn after everything else (the plans without it stay as they were);
  // shrinks toward none, then one.
  std::int64_t wire2_per_mille = 300;
  // A share of runs has failbacks (FaultKind::failback): a failover, then within a lease or
  // two the demoted primary back, keeping its process; with lost writes between, a holder's
  // grant of that process may be rolled back and the job granted again by the same process
  // with the same attempts. Drawn after wire 2; shrinks toward none.
  std::int64_t failback_per_mille = 200;
};

// Every fault kind, the campaign's space.
PlanSpace full_space();
// Refusal-heavy (the Verb property): leases short against the work and extended late, so
// tokens go stale; lost replies retried, so calls repeat after they ran (a second ADD of
// an id, a second COMPLETE); pauses, worker clock skew, ghosts and lane rows. Every
// refusal is a chance for verb.atomic to catch a write before it.
PlanSpace refusal_space();
// Long liveness phases (the Liveness property): more jobs, arriving until the faults
// stop, many failures allowed; workers die and pause, servers restart, fail over and
// refuse to load, clocks step back (the drain bound grows).
PlanSpace liveness_space();

}  // namespace trafikey::properties
