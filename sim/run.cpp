// The event loop of a generated run (sim/run.h): the start, the two phases, the end. The
// actors' and the faults' handlers live beside it (sim/runner.h lists them).
#include "sim/run.h"

#include <array>

#include "core/keys.h"
#include "core/states.h"
#include "sim/runner.h"

namespace trafikey::sim {

namespace driver {

Runner::Runner(const RunPlan& plan, const RunOptions& options)
    : plan_(plan),
      options_(options),
      world_(WorldOptions{plan.seed, plan.persistence, plan.snapshot_interval_ms, plan.replication_lag_ms,
                          options.keep_history_text, plan.near_epoch_per_mille}),
      edge_prng_(plan.seed ^ 0x65646765ULL) {  // "edge"
  for (int i = 0; i < std::max(1, plan.queues); ++i) queue_names_.push_back(plan.queue_name(i));
  claimed_from_.assign(queue_names_.size(), false);
}

RunSummary Runner::run() {
  if (options_.on_world) options_.on_world(world_);
  world_.stop_before_call(options_.stop_before_call);
  world_.begin("plan", "{\"plan\":" + plan_json(plan_) + "}");
  world_.phase("safety");
  schedule_start();

  RunSummary summary;
  const std::int64_t bound_ms = plan_.safety_ms + plan_.liveness_bound_ms();
  while (!queue_.empty()) {
    const Event e = queue_.top();
    queue_.pop();
    if (liveness_ && e.at_ms > bound_ms) {
      world_.advance_to(bound_ms);
      summary.outcome = "liveness-bound-exceeded";
      break;
    }
    try {  // World::StopBeforeCall: RunOptions::stop_before_call was reached
      world_.advance_to(e.at_ms);
      dispatch(e, summary);
    } catch (const World::StopBeforeCall&) {
      summary.outcome = "stopped";
      break;
    }
    if (options_.should_stop && options_.should_stop()) {
      summary.outcome = "stopped";
      break;
    }
    if (liveness_ && drained()) {
      summary.outcome = "drained";
      break;
    }
  }
  if (summary.outcome.empty()) summary.outcome = "liveness-bound-exceeded";
  if (options_.before_end) options_.before_end(world_, summary.outcome);
  finish(summary);
  return summary;
}

void Runner::schedule_start() {
  // A long-lived queue (RunPlan::seq_start): an operator's SET puts each queue's counter far
  // past 0 before the first ADD, spelt as EMQ §1 names the key.
  if (plan_.seq_start > 0) {
    for (const std::string& queue : queue_names_) {
      call("op", argv_.clear().add("SET").add(SpecKeys(queue).key("seq")).add(plan_.seq_start));
    }
  }
  start_fleet();
  for (std::size_t i = 0; i < plan_.faults.size(); ++i) {
    if (plan_.faults[i].at_ms < plan_.safety_ms) schedule(plan_.faults[i].at_ms, EventKind::fault, static_cast<int>(i));
  }
  for (int i = 0; i < plan_.adversarial_calls; ++i) {
    schedule(at_on_grid(world_.prng().between(0, plan_.safety_ms - 1)), EventKind::adversarial_call);
  }
  schedule(plan_.safety_ms, EventKind::liveness);
}

void Runner::dispatch(const Event& e, RunSummary& summary) {
  switch (e.kind) {
    case EventKind::add: on_add(e); break;
    case EventKind::claim: on_claim(e); break;
    case EventKind::extend_all: on_extend_all(e); break;
    case EventKind::extend_one:
    case EventKind::finish: on_lease_timer(e); break;
    case EventKind::resend: on_resend(e); break;
    case EventKind::sweep: on_sweep(); break;
    case EventKind::adversarial_call: on_adversarial_call(); break;
    case EventKind::fault: on_fault(plan_.faults[static_cast<std::size_t>(e.actor)]); break;
    case EventKind::resume:
      world_.note("worker_resume", "\"worker\":\"" + workers_[static_cast<std::size_t>(e.actor)].name + "\"");
      break;
    case EventKind::liveness:
      summary.liveness_started_ms = world_.true_ms();
      on_liveness();
      break;
  }
}

void Runner::on_resend(const Event& e) {
  const std::string actor = e.actor < 0 ? std::string("p") : actor_name(e.actor);
  if (e.actor >= 0 && e.actor < static_cast<int>(workers_.size())) {
    Worker& w = workers_[static_cast<std::size_t>(e.actor)];
    if (defer(w, e)) return;
  }
  argv_.clear();
  for (const std::string& arg : resends_[static_cast<std::size_t>(e.gen)]) argv_.add(arg);
  call(actor, argv_);  // the answer only tells the caller what it already decided
}

void Runner::on_liveness() {
  liveness_ = true;
  world_.phase("liveness");
  world_.disarm_faults();
  if (rate_changed_) world_.set_clock_rate(1000);  // drift off
  if (!world_.module_loaded()) world_.restart();  // the operator brings the server back
  const bool any_alive = std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.dead; });
  if (!any_alive) {
    Worker fresh;
    fresh.name = "w" + std::to_string(workers_.size());
    workers_.push_back(fresh);
    world_.note("worker_start", "\"worker\":\"" + fresh.name + "\"");
    want_claim(static_cast<int>(workers_.size()) - 1, world_.true_ms());
  }
}

namespace {
// The server's jobs, by the set each id sits in: an id counts where its row exists (an id
// whose row an operator deleted is a ghost, which CLAIM and the sweep remove; EMQ §4, §5).
// `each(state, id, row)` for each such member of each plan queue's four sets, in set
// order; it answers false to stop. The driver reads the server here as any client could:
// what the server should hold is the checker's to judge (properties/model/).
template <class F>
void each_held(const World& world, const RunPlan& plan, F&& each) {
  for (int qi = 0; qi < std::max(plan.queues, 1); ++qi) {
    const QueueKeys keys(plan.queue_name(qi));
    // in all_job_states' order: pending, active, done, dead
    const std::array<std::string_view, all_job_states.size()> sets{keys.pending(), keys.active(), keys.done(),
                                                                   keys.dead()};
    for (std::size_t s = 0; s < sets.size(); ++s) {
      bool wrong = false;
      const Keyspace::Zset* set = world.data().zset_at(sets[s], wrong);
      if (!set) continue;
      for (const auto& [score, id] : set->order) {
        const Keyspace::Hash* row = world.data().hash_at(keys.row_name(id).view(), wrong);
        if (row && !each(all_job_states[s], std::string_view(id), *row)) return;
      }
    }
  }
}
}  // namespace

// Every job pending or active is done or dead, lane rows aside (a row an operator gave a
// `group`: the sweep leaves it to its lane, EMQ §5).
bool Runner::drained() const {
  bool open = false;
  each_held(world_, plan_, [&](JobState state, std::string_view, const Keyspace::Hash& row) {
    open = (state == JobState::pending || state == JobState::active) && !Keyspace::hash_field(row, "group");
    return !open;
  });
  return !open;
}

void Runner::finish(RunSummary& summary) {
  // The jobs the server holds at the end, by state; "vanished": planned jobs it does not
  // hold (persistence lost their ADD, an operator deleted their row).
  constexpr std::size_t states = all_job_states.size();
  std::array<std::int64_t, states> by_state{};
  std::int64_t held = 0;
  each_held(world_, plan_, [&](JobState state, std::string_view, const Keyspace::Hash&) {
    ++by_state[static_cast<std::size_t>(state)];
    ++held;
    return true;
  });
  for (const JobState state : all_job_states) {
    const auto f = static_cast<std::size_t>(state);
    if (by_state[f]) summary.jobs[std::string(job_state_name(state))] = by_state[f];
  }
  summary.jobs["vanished"] = plan_.jobs - held;
  std::string fields;
  for (const auto& [state, n] : summary.jobs) {
    if (!fields.empty()) fields += ',';
    fields += "\"" + state + "\":" + std::to_string(n);
  }
  world_.end(summary.outcome, fields);
  summary.fingerprint = world_.history().fingerprint();
  summary.calls = world_.calls();
  summary.end_true_ms = world_.true_ms();
  summary.faults = faults_applied_;
  summary.verdicts = world_.verdict_counts();
  situations_.at_end(summary.calls, claimed_from_);
  summary.situations = situations_.counts_by_name();
  if (options_.keep_history_text) {
    summary.history = world_.history().text();
    summary.history_header = world_.history().header_json();
    summary.history_events = world_.history().events();
  }
}

}  // namespace driver

RunSummary run_plan(const RunPlan& plan, const RunOptions& options) {
  driver::Runner runner(plan, options);
  return runner.run();
}

}  // namespace trafikey::sim
