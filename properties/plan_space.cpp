#include "properties/plan_space.h"

namespace trafikey::properties {

using sim::FaultKind;

PlanSpace full_space() {
  PlanSpace s;
  s.kinds = {FaultKind::restart,      FaultKind::failover,     FaultKind::clock_step,
             FaultKind::clock_rate,   FaultKind::worker_clock, FaultKind::worker_death,
             FaultKind::worker_pause, FaultKind::lost_reply,   FaultKind::epoch_fail,
             FaultKind::epoch_malformed, FaultKind::row_delete, FaultKind::lane_mark};
  return s;
}

PlanSpace refusal_space() {
  PlanSpace s;
  s.kinds = {FaultKind::lost_reply,   FaultKind::worker_pause, FaultKind::worker_clock,
             FaultKind::clock_step,   FaultKind::clock_rate,   FaultKind::row_delete,
             FaultKind::lane_mark,    FaultKind::restart,      FaultKind::failover};
  s.faults_per_kind_max = 6;
  s.lease_ms_min = 100;
  s.lease_ms_max = 500;
  s.work_leases_max = 6;
  s.extend_at_per_mille_min = 850;
  s.extend_at_per_mille_max = 999;
  s.retry_per_mille_min = 800;
  return s;
}

PlanSpace liveness_space() {
  PlanSpace s;
  s.kinds = {FaultKind::worker_death, FaultKind::worker_pause,    FaultKind::restart,
             FaultKind::failover,     FaultKind::epoch_fail,      FaultKind::epoch_malformed,
             FaultKind::clock_step,   FaultKind::clock_rate,      FaultKind::lost_reply};
  s.jobs_max = 32;
  s.workers_max = 3;
  s.faults_per_kind_max = 5;
  s.fail_per_mille_max = 700;
  s.max_failures_max = 8;
  s.adds_until_safety_end = true;
  return s;
}

}  // namespace trafikey::properties
