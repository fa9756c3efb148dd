// The step interpreter of the real-server runner (run_real.h): walks a scenario's steps in
// real time against a RealSession (real_session.h), with the invariants a real server
// shows judged by RealChecks (real_checks.h); and the differential run.
#include "scenarios/runner/run_real.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/keys.h"
#include "scenarios/runner/differential.h"
#include "scenarios/runner/real_checks.h"
#include "scenarios/runner/real_session.h"
#include "scenarios/runner/run_sim.h"
#include "sim/clock.h"
#include "sim/scenario/notation.h"
#include "sim/scenario/token_names.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {

namespace {

// Before which steps the replica must take its copy, so that at each failover it holds
// what the sim's replica holds (sim/world.h): the primary's stream up to its last sync,
// and the sim syncs when true time crosses a multiple of replication_lag_ms (at the first
// step on or after it, before that step runs) and right after a restart, failover or
// failback. Only the last sync before each failover matters: that one is taken on the
// real server, by the replica for a failover (false) or the standby for a failback (true).
std::map<std::size_t, bool> replica_syncs(const Scenario& scenario) {
  const std::int64_t lag = scenario.options.replication_lag_ms;
  std::map<std::size_t, bool> out;
  std::size_t copy_before = 0;  // the replica holds everything before this step
  std::int64_t now = 0, last_sync = 0;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& step = scenario.steps[i];
    if (step.time_ms > now) {
      now = step.time_ms;
      if (lag > 0 && now / lag != last_sync / lag) {
        copy_before = i;
        last_sync = now;
      }
    }
    const bool failback = std::holds_alternative<Failback>(step.action);
    const bool failover = failback || std::holds_alternative<Failover>(step.action);
    if (failover) out[copy_before] = failback;
    if (failover || std::holds_alternative<Restart>(step.action)) {
      copy_before = i + 1;
      last_sync = now;
    }
  }
  return out;
}

class RealRunner {
 public:
  RealRunner(const Scenario& scenario, const RealTarget& target)
      : scenario_(scenario), keys_(scenario_keys(scenario)),
        session_(target, scenario.options.persistence, sim_run_ids(scenario)),
        checks_(session_, keys_), starts_server_(target.starts_server()), replica_syncs_(replica_syncs(scenario)) {}

  RunResult run() {
    RunResult result;
    try {
      begin();
      for (std::size_t i = 0; i < scenario_.steps.size(); ++i) {
        const Step& step = scenario_.steps[i];
        // A server whose clock the runner holds reads the sim's time whenever the call
        // comes: no need to wait for it (a generated run's seconds take milliseconds). A
        // server on its own clock waits out each step's time.
        if (!session_.holds_clock()) std::this_thread::sleep_until(start_ + std::chrono::milliseconds(step.time_ms));
        step_ = &step;
        hold_clock();
        if (const auto sync = replica_syncs_.find(i); sync != replica_syncs_.end()) {
          sync->second ? session_.sync_standby() : session_.sync_replica();
          synced_calls_ = session_.calls();
        }
        checks_.at_step(step_, session_.holds_clock() ? std::optional(server_clock_.value(step.time_ms))
                                                      : std::nullopt);
        auto failure = std::visit([&](const auto& action) { return act(action, result); }, step.action);
        if (failure) {
          failure->line = step.line;
          failure->step = write_step(step);
          result.failure = std::move(*failure);
          result.status = CheckStatus::failed;
          break;
        }
      }
      result.final_keys = session_.final_keys(keys_);
    } catch (const std::exception& e) {
      result.status = CheckStatus::failed;
      result.failure = StepFailure{step_ ? step_->line : 0, step_ ? write_step(*step_) : "(server start)",
                                   "a real server that answers", e.what(), {}};
    }
    result.violations = checks_.violations();
    result.judged = checks_.judged();
    result.unjudged = checks_.unjudged();
    result.incarnations = static_cast<int>(session_.incarnations());
    result.clocks_agree = session_.holds_clock();
    session_.stop();
    return result;
  }

 private:
  using Failure = std::optional<StepFailure>;
  static Failure failed(std::string expected, std::string actual, std::string invariant = {}) {
    return StepFailure{0, {}, std::move(expected), std::move(actual), std::move(invariant)};
  }

  void begin() {
    for (const RealSession::Process& process : session_.start()) started(process);
    if (!starts_server_) session_.clean(keys_);
    start_ = std::chrono::steady_clock::now();
  }

  // The server's clock reads what the sim's reads at this step's true time (sim/world.h's
  // server clock), exactly, for every call of the step: so leases, sweeps and every score
  // that is a server time come out as the sim's, whatever the real waits overshot.
  void hold_clock() { session_.hold_clock(server_clock_.value(step_->time_ms)); }

  // A process started: judge epoch.load, then record its run_id.
  void started(const RealSession::Process& process) {
    checks_.judge_start(process);
    session_.admit(process);
  }

  Failure act(const Call& call, RunResult& result) {
    // a token name resolved (token_names.h; in the sim's spelling, as the tokens were
    // learnt), then a wire 2 token the sim granted sent as the real server granted it (EMQ §8)
    Call named = call;
    named.argv = tokens_.resolved(call.argv);
    const std::vector<std::string>& sent = named.argv;
    const RealChecks::BeforeCall before = checks_.before_call(named);
    const bool lost = lost_for_.erase(call.client) > 0;
    std::vector<std::string> argv = sent;
    for (std::string& arg : argv) arg = session_.run_id_map().to_real(arg);
    const Reply raw = lost ? session_.call_and_lose(call.client, argv) : session_.call(call.client, argv);
    const Reply reply = in_sim_wording(session_.run_id_map().map(raw));
    result.calls.push_back({step_->line, call.client, sent, reply, lost});
    checks_.after_call(named, before, raw, reply);
    tokens_.learn(call.client, sent, reply);
    if (call.expect && !matches(tokens_.resolved(*call.expect), reply)) {
      return failed(to_notation(*call.expect),
                    to_notation(reply) + (lost ? " (the server's reply; " + call.client + " lost it and saw a timeout)" : ""));
    }
    return std::nullopt;
  }

  // `lose C`: C's next call runs and its reply is thrown away with C's connection.
  Failure act(const Lose& lose, RunResult&) {
    lost_for_.insert(lose.client);
    return std::nullopt;
  }

  // Under everysec and snapshot the sim's restart loses the writes since its last sync:
  // this one loses the same calls' writes (RealSession::restart_keeping), as many as the
  // sim's run of the same file keeps (sim_restarts).
  Failure act(const Restart&, RunResult&) {
    if (!session_.cuts_lost_writes()) {
      started(session_.restart());
      if (scenario_.options.persistence == Persistence::none) checks_.rolled_back(0);  // nothing kept
      return std::nullopt;
    }
    if (restarts_done_ == 0) sim_restarts_ = sim_restarts(scenario_);
    if (restarts_done_ >= sim_restarts_.size()) {
      throw std::runtime_error("the sim's run of this file fails before this restart: nothing says what it keeps");
    }
    const SimRestart& sim = sim_restarts_[restarts_done_++];
    if (sim.calls_before != session_.calls()) {
      throw std::runtime_error("the sim made " + std::to_string(sim.calls_before) + " calls before this restart, " +
                               "the real server " + std::to_string(session_.calls()));
    }
    started(session_.restart_keeping(sim.kept_calls));
    checks_.rolled_back(sim.kept_calls);
    return std::nullopt;
  }
  Failure act(const Failover&, RunResult&) {
    started(session_.failover());
    checks_.rolled_back(synced_calls_);  // the replica's copy: the calls before its last sync
    return std::nullopt;
  }
  // `failback`: the demoted primary serves again; the same process, judged (EMQ.EPOCH
  // answers its run_id still) but not admitted as a new one.
  Failure act(const Failback&, RunResult&) {
    checks_.judge_start(session_.failback());
    checks_.rolled_back(synced_calls_);  // the standby's copy: the calls before its last sync
    return std::nullopt;
  }
  // `reload`: DEBUG RELOAD, the dataset saved and loaded back inside the same process (same
  // run_id, so the same epoch; no new incarnation); in a cluster on every node.
  Failure act(const Reload&, RunResult&) {
    const Reply r = session_.reload();
    if (r.is_error()) return failed("OK from DEBUG RELOAD", r.text());
    return std::nullopt;
  }
  // `replica` / `primary`: a replica of a port no one answers, or a primary again
  // (RealSession::set_replica)
  Failure act(const ReplicaRole& role, RunResult&) {
    session_.set_replica(role.replica);
    return std::nullopt;
  }
  // `deny KEY` / `allow`: the default user's ACL (RealSession::deny_writes)
  Failure act(const WriteDenied& denied, RunResult&) {
    session_.deny_writes(denied.key);
    return std::nullopt;
  }
  Failure act(const ClockStep& clock, RunResult&) {
    server_clock_.step(step_->time_ms, clock.delta_ms);
    hold_clock();
    return std::nullopt;
  }
  // The rate in whole per mille, as run_sim gives it to World::set_clock_rate.
  Failure act(const Drift& drift, RunResult&) {
    server_clock_.set_rate(step_->time_ms, static_cast<double>(std::llround(drift.rate * 1000.0)) / 1000.0);
    hold_clock();
    return std::nullopt;
  }
  // `epoch RUN_ID`: the sim's next process gets that run_id; a real server's is its own,
  // mapped to the sim's by incarnation (sim_run_ids replays the file, this step included).
  Failure act(const EpochFault& fault, RunResult&) {
    if (fault.kind == EpochFault::Kind::run_id) return std::nullopt;
    return failed("a step a real server can do", "a sim-only step");
  }
  // Sim-only steps never reach here: real_skip_reason refuses their files.
  template <class SimOnly>
  Failure act(const SimOnly&, RunResult&) {
    return failed("a step a real server can do", "a sim-only step");
  }

  Failure act(const CheckRow& check, RunResult&) {
    const std::string key = QueueKeys(check.queue).row(check.id);
    const auto r = session_.row(key, true);
    std::vector<std::optional<std::string>> expected, actual;
    for (const FieldCheck& f : check.fields) {
      expected.push_back(f.value);
      auto it = r ? r->find(f.field) : Row::const_iterator{};
      actual.push_back(r && it != r->end() ? std::optional<std::string>(it->second) : std::nullopt);
    }
    if (!r && std::any_of(expected.begin(), expected.end(), [](const auto& v) { return v.has_value(); })) {
      const KeyType t = session_.type_of(key);
      return failed(field_list(check.fields, expected),
                    "no row: " + (t == KeyType::none ? std::string("no such key")
                                                     : "the key holds a " + std::string(key_type_name(t))));
    }
    if (expected != actual) return failed(field_list(check.fields, expected), field_list(check.fields, actual));
    return std::nullopt;
  }

  Failure act(const CheckSet& check, RunResult&) {
    const QueueKeys keys(check.queue);
    const std::string key(check.set == SetName::pending  ? keys.pending()
                             : check.set == SetName::active ? keys.active()
                             : check.set == SetName::done   ? keys.done()
                                                            : keys.dead());
    const auto ids = session_.members(key);
    if (!ids) return failed(id_list(check.ids), "the key holds a " + std::string(key_type_name(session_.type_of(key))));
    if (*ids != check.ids) return failed(id_list(check.ids), id_list(*ids));
    return std::nullopt;
  }

  Failure act(const CheckInvariants&, RunResult&) {
    checks_.check_state();
    const auto& violations = checks_.violations();
    if (violations.empty()) return std::nullopt;
    std::string actual = violations.front().facts;
    if (violations.size() > 1) actual += " (and " + std::to_string(violations.size() - 1) + " more)";
    return failed("every invariant a real server shows holds", actual, violations.front().invariant);
  }

  const Scenario& scenario_;
  ScenarioKeys keys_;
  RealSession session_;
  RealChecks checks_;
  bool starts_server_ = false;
  std::chrono::steady_clock::time_point start_;
  sim::LinearClock server_clock_;  // the sim's server clock, over the steps' true times
  const Step* step_ = nullptr;
  std::set<std::string> lost_for_;  // clients whose next reply is lost
  TokenNames tokens_;               // the wire 2 tokens handed out so far, by name
  std::int64_t synced_calls_ = 0;   // calls made before the last copy a replica or standby took
  std::map<std::size_t, bool> replica_syncs_;  // step index -> who copies before it (true: the standby)
  std::vector<SimRestart> sim_restarts_;  // what the sim keeps at each restart (act(Restart))
  std::size_t restarts_done_ = 0;
};

}  // namespace

RunResult run_on_real(const Scenario& scenario, const RealTarget& target) {
  if (auto why = real_skip_reason(scenario, target); !why.empty()) {
    RunResult skipped;
    skipped.status = CheckStatus::skipped;
    skipped.skip_reason = std::move(why);
    return skipped;
  }
  return RealRunner(scenario, target).run();
}

RunResult run_differential(const Scenario& scenario, const RealTarget& target) {
  if (auto why = real_skip_reason(scenario, target); !why.empty()) return run_on_real(scenario, target);
  RunResult sim = run_on_sim(scenario, SimRunOptions{{}, false});
  if (sim.status == CheckStatus::failed) {
    sim.failure->step = "(on the sim) " + sim.failure->step;
    return sim;
  }
  RunResult real = run_on_real(scenario, target);
  if (real.status == CheckStatus::failed) {
    real.failure->step = "(on the real server) " + real.failure->step;
    return real;
  }
  ScenarioKeys keys = scenario_keys(scenario);
  keys.clocks_agree = sim.clocks_agree && real.clocks_agree;
  if (auto d = first_difference(sim, real, keys)) {
    real.status = CheckStatus::failed;
    std::string what = "sim and real server differ: " + d->what;
    for (const Step& step : scenario.steps) {
      if (d->line > 0 && step.line == d->line) what += " of " + write_step(step);
    }
    real.failure = StepFailure{d->line, what, "sim:  " + d->sim, "real: " + d->real, "sim.differential"};
    return real;
  }
  real.judged["sim.differential"] = 1;
  return real;
}

}  // namespace trafikey::scenario
