// The kill part (soak.h): one client drives claim/complete load on one queue of a server
// with `appendfsync always` (a reply leaves only after its writes reached the disk), while
// a Killer SIGKILLs the server at a random moment; the server restarts on its AOF and the
// queue must hold every acknowledged transition (AckModel), with at most the call in
// flight having happened, and pass the structural audit. Then the model adopts what the
// server holds and the next round starts; leases granted before a kill come back exempt
// from the next sweep (EMQ §5), which the model checks too.
#include <chrono>
#include <optional>
#include <stdexcept>

#include "core/keys.h"
#include "sim/prng.h"
#include "scenarios/soak/ack_model.h"
#include "scenarios/soak/killer.h"
#include "scenarios/soak/part_run.h"
#include "scenarios/soak/queue_audit.h"
#include "scenarios/soak/soak_server.h"

namespace trafikey::soak {

namespace {

using namespace std::chrono_literals;

constexpr std::int64_t kill_delay_max_ms = 400;
constexpr std::size_t jobs_per_queue_max = 400;  // then the next round moves to a fresh queue
constexpr std::size_t pending_low = 8;           // below this, ADD is drawn more often

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class KillSoak {
 public:
  KillSoak(const SoakOptions& options, PartRun& run)
      : run_(run), prng_(options.seed), server_(server_config(options, {"--appendfsync", "always"})),
        model_(queue_name()) {}

  void run() {
    open();
    while (!run_.spent()) {
      if (model_.jobs().size() >= jobs_per_queue_max) retire_queue();
      const std::optional<std::vector<std::string>> in_flight = load_until_killed();
      if (run_.broke()) return;
      server_.kill();  // reaps the process the Killer signalled (or kills it now, at the end)
      run_.note("killed; restarting on the AOF");
      run_.add("kill rounds");
      server_.start();
      open();
      check_after_restart(in_flight);
      if (run_.broke()) return;
    }
  }

 private:
  std::string queue_name() const { return "k" + std::to_string(queue_serial_); }

  void open() {
    connection_.emplace(server_.connect());
    const Reply epoch = connection_->call({"EMQ.EPOCH"});
    if (epoch.kind() != Reply::Kind::bulk) throw std::runtime_error("EMQ.EPOCH answered " + render_reply(epoch));
    epoch_ = epoch.text();
  }

  // Drops the full queue's keys (no kill is armed) and moves on to a fresh one, so the
  // dataset and the checks after each restart stay small.
  void retire_queue() {
    std::vector<std::string> argv{"DEL"};
    const QueueKeys keys(model_.queue());
    for (std::string_view k : {keys.pending(), keys.active(), keys.done(), keys.dead(), keys.seq()}) argv.emplace_back(k);
    for (const auto& [id, job] : model_.jobs()) argv.push_back(keys.row(id));
    const Reply r = connection_->call(argv);
    if (r.is_error()) throw std::runtime_error("DEL of a retired queue answered " + r.text());
    ++queue_serial_;
    model_ = AckModel(queue_name());
    run_.note("moved on to queue " + model_.queue());
  }

  // Calls until the kill breaks the connection (the call it broke is in flight: returned)
  // or the budget is spent (nothing in flight).
  std::optional<std::vector<std::string>> load_until_killed() {
    Killer killer(server_.pid(), std::chrono::milliseconds(prng_.between(1, kill_delay_max_ms)));
    std::int64_t transitions = 0;
    std::optional<std::vector<std::string>> in_flight;
    while (!run_.spent()) {
      const std::vector<std::string> argv = next_call();
      CallWindow at;
      at.sent_ms = wall_ms() - 1;  // the server's clock has ms resolution: a margin each side
      const Reply reply = connection_->call(argv);
      at.answered_ms = wall_ms() + 1;
      run_.record(argv, reply);
      if (connection_lost(reply)) {
        in_flight = argv;
        break;
      }
      const std::string wrong = apply(argv, reply, at, transitions);
      if (!wrong.empty()) {
        run_.fail("a reply contradicts the acknowledged history:\n  " + render_call(argv) + "\n  " + wrong);
        return in_flight;
      }
    }
    const bool fired = killer.stop();
    if (in_flight && !fired) {
      run_.fail("the server broke the connection with no kill sent; its log ends:\n" + log_tail(server_));
    }
    pending_transitions_ += transitions;
    if (in_flight) run_.add("calls in flight at a kill");
    return in_flight;
  }

  std::vector<std::string> next_call() {
    const std::string& q = model_.queue();
    const auto pending = model_.ids_in("pending");
    const auto active = model_.ids_in("active");
    const std::int64_t draw = prng_.between(0, 999);
    if (draw < (pending.size() < pending_low ? 400 : 150)) {
      std::vector<std::string> argv{"EMQ.ADD", q, "j" + std::to_string(next_id_++), "payload-" + std::to_string(next_id_)};
      if (prng_.chance(500)) argv.insert(argv.end(), {"MAXFAILURES", std::to_string(prng_.between(1, 3))});
      return argv;
    }
    if (draw < 450 || active.empty()) {
      // Leases: mostly long enough to be completed, across kills too; some short, for the sweep.
      const std::int64_t lease_ms = prng_.chance(150) ? prng_.between(1, 20)
                                    : prng_.chance(400) ? prng_.between(200, 3000) : prng_.between(20000, 60000);
      return {"EMQ.CLAIM", q, std::to_string(lease_ms), "COUNT", std::to_string(prng_.between(1, 4))};
    }
    if (draw < 900) {
      const std::string& id = active[static_cast<std::size_t>(prng_.between(0, static_cast<std::int64_t>(active.size()) - 1))];
      std::int64_t attempts = model_.jobs().at(id).attempts;
      if (prng_.chance(80)) attempts += prng_.chance(500) ? 1 : -1;  // a stale or future token
      if (attempts < 1) attempts = 1;
      const std::int64_t verb = prng_.between(0, 9);
      if (verb < 6) return {"EMQ.COMPLETE", q, id, std::to_string(attempts), "result-" + id};
      if (verb < 8) return {"EMQ.FAIL", q, id, std::to_string(attempts), "soak failure"};
      return {"EMQ.EXTEND", q, id, std::to_string(attempts), std::to_string(prng_.between(100, 60000))};
    }
    return {"EMQ.STALLED.CHECK", q, std::to_string(prng_.between(1, 3))};
  }

  std::string apply(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                    std::int64_t& transitions) {
    const std::string& verb = argv[0];
    if (verb == "EMQ.ADD") return model_.on_add(argv, reply, transitions);
    if (verb == "EMQ.CLAIM") return model_.on_claim(argv, reply, at, epoch_, transitions);
    if (verb == "EMQ.COMPLETE") return model_.on_complete(argv, reply, at, transitions);
    if (verb == "EMQ.FAIL") return model_.on_fail(argv, reply, at, transitions);
    if (verb == "EMQ.EXTEND") return model_.on_extend(argv, reply, at, epoch_, transitions);
    return model_.on_sweep(argv, reply, at, epoch_, transitions);
  }

  void check_after_restart(const std::optional<std::vector<std::string>>& in_flight) {
    const QueueState real = read_queue(*connection_, model_.queue());
    std::vector<std::string> problems = audit_queue(model_.queue(), real);
    for (auto& p : model_.compare(real, in_flight)) problems.push_back(std::move(p));
    if (!problems.empty()) {
      std::string text = "after a kill (" + std::to_string(run_.calls()) +
                         " calls in), the restarted server lost or changed acknowledged state:";
      constexpr std::size_t shown_max = 20;
      for (std::size_t i = 0; i < problems.size() && i < shown_max; ++i) text += "\n  " + problems[i];
      if (problems.size() > shown_max) text += "\n  ... and " + std::to_string(problems.size() - shown_max) + " more";
      run_.fail(text);
      return;
    }
    run_.add("acknowledged transitions checked", pending_transitions_);
    run_.add("jobs checked after restarts", static_cast<std::int64_t>(real.rows.size()));
    pending_transitions_ = 0;
    model_.adopt(real);
  }

  PartRun& run_;
  sim::Prng prng_;
  real::RealServer server_;
  std::optional<real::ServerConnection> connection_;
  std::string epoch_;
  std::int64_t queue_serial_ = 0;
  AckModel model_;
  std::int64_t next_id_ = 0;
  std::int64_t pending_transitions_ = 0;  // acknowledged since the last check
};

}  // namespace

PartResult run_kill(const SoakOptions& options) {
  PartRun run(Part::kill, options);
  {
    KillSoak soak(options, run);
    soak.run();
  }  // the server is killed and its directory removed
  return run.finish();
}

}  // namespace trafikey::soak
