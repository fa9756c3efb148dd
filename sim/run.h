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
#include "sim/situations.h"
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
  // How often each situation (sim/situations.h) occurred in this run, by its name; those
  // that did not occur are absent.
  std::map<std::string, std::int64_t> situations;
  std::string history;                           // when kept
  // when kept: the same history as values (History::header_json, History::events)
  HistoryJson history_header;
  std::vector<HistoryLine> history_events;
};

RunSummary run_plan(const RunPlan& plan, const RunOptions& options = {});

}  // namespace trafikey::sim
