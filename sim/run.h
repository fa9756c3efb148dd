// run_plan: a generated run — producers, workers, a sweeper and the plan's faults — over
// one World, in two phases (INVARIANTS liveness.drain):
//   safety    [0, safety_ms): faults as planned
//   liveness  from safety_ms: faults off (server clock back to rate 1, a broken server
//             restarted, a fresh worker if every worker died); ends when every job the
//             server holds is done or dead, or fails when the plan's bound is exceeded.
//
// Actors. The producer `p` adds jobs j1..jN at drawn times. Worker `wK` claims with COUNT
// up to its free capacity, works each job for a drawn duration of its own clock, extends
// (EXTENDS for everything it holds, or EXTEND per lease) whenever extend_at_per_mille of
// the lease has passed on its own clock, then completes or fails. A 0 from an extension
// or a finish means the lease is gone: the worker drops the job. The sweeper `s` calls
// STALLED.CHECK every sweep_interval_ms (with the plan's LIMIT in the safety phase only:
// lane rows stay expired in active, so a small LIMIT could never drain). After a lost reply the caller retries the same
// call once after 100 ms, or gives up, as drawn. An error reply (e.g. the module did not
// load) is retried after poll_ms.
//
// Events at equal true times are ordered by a tie-break drawn from the run's Prng when
// the event is scheduled, then by scheduling order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/plan.h"
#include "sim/world.h"

namespace trafikey::sim {

struct RunOptions {
  bool keep_history_text = true;
  WorldObserver* observer = nullptr;
  std::function<bool()> should_stop;  // polled after each event (e.g. a failed check)
  // Called once the world exists, before the first event (e.g. to attach a checker).
  std::function<void(World&)> on_world;
  // Called with the outcome just before the end line is written (e.g. to judge drain).
  std::function<void(const World&, const std::string&)> before_end;
  // > 0: the run stops (outcome "stopped") just before it would make the call of this
  // history index: the history of everything before a call that crashes the core or never
  // returns (the crash guard's failure files).
  std::int64_t stop_before_call = 0;
};

struct RunSummary {
  std::string outcome;  // "drained", "liveness-bound-exceeded" or "stopped"
  std::string fingerprint;
  std::int64_t calls = 0;
  std::int64_t end_true_ms = 0;
  std::int64_t liveness_started_ms = 0;
  std::map<std::string, std::int64_t> jobs;      // held at the end, by state, plus "vanished"
  std::map<std::string, std::int64_t> faults;    // by fault kind, as applied
  std::map<std::string, std::int64_t> verdicts;  // by sweep verdict
  // Situations the contract cares about, by name (situation_names()), as the driver saw
  // them around its calls: how often each occurred in this run.
  std::map<std::string, std::int64_t> situations;
  std::string history;                           // when kept
};

// The situations run_plan counts (RunSummary::situations):
//   sweep-cut-by-limit          a sweep's LIMIT below the number of expired members
//   sweep-at-a-deadline         a sweep at the very ms a lease's deadline falls on
//   holder-call-at-its-deadline EXTEND, EXTENDS, COMPLETE or FAIL at its lease's deadline
//   near-run-id                 a process whose run_id is one character off an earlier one's
//   sweep-met-near-epoch        a sweep over an expired lease stamped one character off the
//                               current run_id
//   claim-met-ghost-count-gt-1  a CLAIM with COUNT > 1 that reaches a ghost in pending
//   claim-count-above-pending   a CLAIM whose COUNT exceeds the (non-zero) pending count
//   claim-over-100-pending      a CLAIM with COUNT > 100 while more than 100 jobs are pending
//   sweep-over-100-expired      a sweep whose LIMIT (1000 when none) passes 100 while more
//                               than 100 leases are expired
//   extends-live-and-dead       an EXTENDS answering both 1 and 0
//   fail-requeued, fail-dead    a FAIL answering 1, or 2
//   add-maxfailures-1           a job added with MAXFAILURES 1
//   large-run                   a run of more than 1000 calls
//   unstamped-row-swept         a sweep that judges an expired lease whose row carries no
//                               lease_epoch (a scripted worker's claim.lua granted it)
//   reload-kept-epoch           a reload (DEBUG RELOAD) after which EMQ.EPOCH answers what it
//                               answered before
//   several-queues              a run in which CLAIMs got jobs from two queues or more
//   other-queue-expired-at-sweep  a sweep of one queue while another queue's active holds
//                               an expired lease (which that sweep must leave alone)
//   odd-call-refused            a call of the adversarial client (RunPlan::adversarial_calls) refused
//   odd-call-read               an adversarial client's STATS or JOB answered
//   add-of-an-existing-id       an ADD answering 0 (the row exists)
//   add-without-maxfailures     a job added without MAXFAILURES (the default budget)
//   complete-without-result     a COMPLETE without result answering 1
//   (and more since, each named where run.cpp counts it; red team 9a's:)
//   budget-past-9-judged        a FAIL of a live lease whose max_failures has two digits or
//                               more with a failure counted, or a sweep with such a
//                               max_stalled over a counted lease already stalled
//   lease-verb-token-past-2-31  EXTEND, EXTENDS, COMPLETE or FAIL with a token past 2^31 for
//                               an id in active
//   numeric-looking-value-claimed  a CLAIM answering an id or payload such as 10, 007, -1
//   job-read-unlisted-field     a JOB answering a field EMQ §1's table does not name
//   stats-counted-over-255      a STATS answering a count past 255
//   text-at-a-buffer-edge       a payload, result or failure text of 16, 23, 32, 64, 255,
//                               256 or 1024 bytes written
const std::vector<std::string>& situation_names();

RunSummary run_plan(const RunPlan& plan, const RunOptions& options = {});

}  // namespace trafikey::sim
