// The plan's faults in a generated run (sim/plan.h FaultKind), each applied at its time in the
// safety phase and counted by kind; in the liveness phase none applies.
#include "core/keys.h"
#include "sim/runner.h"

namespace trafikey::sim::driver {

void Runner::on_fault(const Fault& f) {
  if (liveness_) return;  // faults off
  ++faults_applied_[std::string(fault_name(f.kind))];
  const auto worker = [&]() -> Worker* {
    if (f.target < 0 || f.target >= static_cast<int>(workers_.size())) return nullptr;
    return &workers_[static_cast<std::size_t>(f.target)];
  };
  switch (f.kind) {
    case FaultKind::restart: world_.restart(); break;
    case FaultKind::failover: world_.failover(); break;
    case FaultKind::clock_step: world_.step_clock(f.amount); break;
    case FaultKind::clock_rate:
      world_.set_clock_rate(f.amount);
      rate_changed_ = f.amount != 1000;
      break;
    case FaultKind::worker_clock:
      if (Worker* w = worker()) {
        w->clock.step(world_.true_ms(), f.amount);
        world_.note("worker_clock", "\"worker\":\"" + w->name + "\",\"delta_ms\":" + std::to_string(f.amount));
      }
      break;
    case FaultKind::worker_death:
      if (Worker* w = worker(); w && !w->dead) {
        w->dead = true;
        world_.note("worker_death", "\"worker\":\"" + w->name + "\",\"held\":" + std::to_string(w->held.size()));
      }
      break;
    case FaultKind::worker_pause:
      if (Worker* w = worker(); w && !w->dead) {
        w->paused_until_ms = std::max(w->paused_until_ms, world_.true_ms() + f.amount);
        world_.note("worker_pause", "\"worker\":\"" + w->name + "\",\"until\":" + std::to_string(w->paused_until_ms));
        schedule(w->paused_until_ms, EventKind::resume, f.target);
      }
      break;
    case FaultKind::lost_reply: world_.lose_next_reply(actor_name(f.target)); break;
    case FaultKind::epoch_fail: world_.arm_epoch_fault(EpochFault::fail); break;
    case FaultKind::epoch_malformed: world_.arm_epoch_fault(EpochFault::malformed); break;
    case FaultKind::row_delete:
      // as an operator or an older script might: the id stays in its set, a ghost
      call("op", argv_.clear().add("DEL").add(QueueKeys(queue_of_job(f.target)).row("j" + std::to_string(f.target))));
      break;
    case FaultKind::reload: {
      const std::string_view epoch_call[] = {"EMQ.EPOCH"};
      const Reply before = world_.probe(epoch_call);
      world_.reload();
      if (world_.module_loaded() && !before.is_error() && world_.probe(epoch_call) == before) saw(Situation::reload_kept_epoch);
      break;
    }
    case FaultKind::upgrade:
      if (Worker* w = worker(); w && w->scripted) {
        w->scripted = false;  // its held leases go on, extended and finished natively
        world_.note("upgrade", "\"worker\":\"" + w->name + "\"");
      }
      break;
    case FaultKind::lane_mark: {
      const std::string row = QueueKeys(queue_of_job(f.target)).row("j" + std::to_string(f.target));
      if (world_.data().type(row) == KeyType::hash) {
        // a sloppy fleet's operator marks every other row with an empty group: EMQ §1 makes
        // any row with the field a lane row, so a core that takes "" for none sweeps it
        const bool empty = sloppy() && f.target % 2 == 0;
        call("op", argv_.clear().add("HSET").add(row).add("group").add(empty ? "" : "lane-1"));
      }
      break;
    }
  }
}

}  // namespace trafikey::sim::driver
