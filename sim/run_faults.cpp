// The plan's faults in a generated run (sim/plan.h FaultKind), each applied at its time in the
// safety phase and counted by kind; in the liveness phase none applies.
#include "core/keys.h"
#include "sim/runner.h"

namespace trafikey::sim::driver {

void Runner::on_fault(const Fault& f) {
  if (liveness_) return;  // faults off
  ++faults_applied_[std::string(fault_name(f.kind()))];
  const auto worker = [&](int index) -> Worker* {
    if (index < 0 || index >= static_cast<int>(workers_.size())) return nullptr;
    return &workers_[static_cast<std::size_t>(index)];
  };
  switch (f.kind()) {
    case FaultKind::restart: world_.restart(); break;
    case FaultKind::failover: world_.failover(); break;
    case FaultKind::failback: world_.failback(); break;
    case FaultKind::clock_step: world_.step_clock(std::get<fault::ClockStep>(f.what).delta_ms); break;
    case FaultKind::clock_rate: {
      const std::int64_t rate_per_mille = std::get<fault::ClockRate>(f.what).rate_per_mille;
      world_.set_clock_rate(rate_per_mille);
      rate_changed_ = rate_per_mille != 1000;
      break;
    }
    case FaultKind::worker_clock: {
      const auto& step = std::get<fault::WorkerClockStep>(f.what);
      if (Worker* w = worker(step.worker)) {
        w->clock.step(world_.true_ms(), step.delta_ms);
        world_.note("worker_clock", "\"worker\":\"" + w->name + "\",\"delta_ms\":" + std::to_string(step.delta_ms));
      }
      break;
    }
    case FaultKind::worker_death:
      if (Worker* w = worker(std::get<fault::WorkerDeath>(f.what).worker); w && !w->dead) {
        w->dead = true;
        world_.note("worker_death", "\"worker\":\"" + w->name + "\",\"held\":" + std::to_string(w->held.size()));
      }
      break;
    case FaultKind::worker_pause: {
      const auto& pause = std::get<fault::WorkerPause>(f.what);
      if (Worker* w = worker(pause.worker); w && !w->dead) {
        w->paused_until_ms = std::max(w->paused_until_ms, world_.true_ms() + pause.pause_ms);
        world_.note("worker_pause", "\"worker\":\"" + w->name + "\",\"until\":" + std::to_string(w->paused_until_ms));
        schedule(w->paused_until_ms, EventKind::resume, pause.worker);
      }
      break;
    }
    case FaultKind::lost_reply: world_.lose_next_reply(actor_name(std::get<fault::LostReply>(f.what).actor)); break;
    case FaultKind::epoch_fail: world_.arm_epoch_fault(EpochFault::fail); break;
    case FaultKind::epoch_malformed: world_.arm_epoch_fault(EpochFault::malformed); break;
    case FaultKind::row_delete: {
      // as an operator or an older script might: the id stays in its set, a ghost
      const int job = std::get<fault::RowDelete>(f.what).job_number;
      call("op", argv_.clear().add("DEL").add(QueueKeys(queue_of_job(job)).row("j" + std::to_string(job))));
      break;
    }
    case FaultKind::reload: {
      const std::string_view epoch_call[] = {"EMQ.EPOCH"};
      const Reply before = world_.probe(epoch_call);
      world_.reload();
      if (world_.module_loaded() && !before.is_error() && world_.probe(epoch_call) == before) saw(Situation::reload_kept_epoch);
      break;
    }
    case FaultKind::upgrade:
      if (Worker* w = worker(std::get<fault::Upgrade>(f.what).worker); w && w->scripted) {
        w->scripted = false;  // its held leases go on, extended and finished natively
        world_.note("upgrade", "\"worker\":\"" + w->name + "\"");
      }
      break;
    case FaultKind::lane_mark: {
      const int job = std::get<fault::LaneMark>(f.what).job_number;
      const std::string row = QueueKeys(queue_of_job(job)).row("j" + std::to_string(job));
      if (world_.data().type(row) == KeyType::hash) {
        // a sloppy fleet's operator marks every other row with an empty group: EMQ §1 makes
        // any row with the field a lane row, so a core that takes "" for none sweeps it
        const bool empty = sloppy() && job % 2 == 0;
        call("op", argv_.clear().add("HSET").add(row).add("group").add(empty ? "" : "lane-1"));
      }
      break;
    }
  }
}

}  // namespace trafikey::sim::driver
