// The generated-run driver behind run_plan (sim/run.h). Internal to sim/: not a public API,
// included only by the files that implement the driver, one concept each:
//   run.cpp                     the event loop: the start, the phases, the end of a run
//   run_fleet.cpp               the producer, the workers and the sweeper (and a sloppy fleet)
//   run_adversarial_client.cpp  the adversarial client's calls (sim/adversarial_calls.h)
//   run_faults.cpp              the plan's faults
//   situation_observer.h        the situations counted around each call
// Every call of a run goes through Runner::call, so that the observer sees each one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <charconv>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "sim/adversarial_calls.h"
#include "sim/executor_scripts.h"
#include "sim/run.h"
#include "sim/situation_observer.h"

namespace trafikey::sim::driver {

constexpr std::int64_t retry_after_ms = 100;

enum class EventKind : std::uint8_t {
  add, claim, extend_all, extend_one, finish, resend, sweep, fault, resume, liveness, adversarial_call
};

struct Event {
  std::int64_t at_ms = 0;  // true time
  std::uint64_t tie = 0;
  std::uint64_t seq = 0;
  EventKind kind = EventKind::add;
  int actor = 0;          // worker index, job number (add), fault index
  std::uint64_t gen = 0;  // lease generation (extend_one, finish), batch generation, or
                          // the index of a resend's arguments
};

// The arguments of the next call, built in one reused buffer: no allocation per call once
// the buffer has grown. Each add() appends its bytes and a view of them; a buffer that
// must grow moves, and the views move with it. The views are valid until the next
// clear(). (A std::string and a list of ends, turned into views per call, cost twice
// as much: the driver builds five arguments or so for every simulated call.)
class Argv {
 public:
  Argv() : bytes_(std::make_unique<char[]>(capacity_)) { views_.reserve(16); }
  Argv& clear() {
    used_ = 0;
    views_.clear();
    return *this;
  }
  Argv& add(std::string_view text) {
    char* at = room(text.size());
    if (!text.empty()) std::memcpy(at, text.data(), text.size());
    return added(at, text.size());
  }
  Argv& add(std::int64_t n) { return add({}, n); }
  Argv& add(std::string_view prefix, std::int64_t n) {  // e.g. "j" 12 -> "j12"
    char* at = room(prefix.size() + 20);
    if (!prefix.empty()) std::memcpy(at, prefix.data(), prefix.size());
    char* end = std::to_chars(at + prefix.size(), at + prefix.size() + 20, n).ptr;
    return added(at, static_cast<std::size_t>(end - at));
  }
  Args views() const { return views_; }

 private:
  // Where n more bytes go.
  char* room(std::size_t n) {
    if (n > capacity_ - used_) grow(n);
    return bytes_.get() + used_;
  }
  Argv& added(const char* at, std::size_t n) {
    views_.emplace_back(at, n);
    used_ += n;
    return *this;
  }
  void grow(std::size_t n) {
    const std::size_t capacity = 2 * (used_ + n);
    auto bigger = std::make_unique<char[]>(capacity);
    if (used_) std::memcpy(bigger.get(), bytes_.get(), used_);
    for (auto& v : views_) v = {bigger.get() + (v.data() - bytes_.get()), v.size()};
    bytes_ = std::move(bigger);
    capacity_ = capacity;
  }

  // Small at first, so that every run's longer calls (a FAIL's message) take grow()'s path
  // of moving the views; it doubles from there.
  std::size_t capacity_ = 32;
  std::size_t used_ = 0;
  std::unique_ptr<char[]> bytes_;
  std::vector<std::string_view> views_;
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    if (a.at_ms != b.at_ms) return a.at_ms > b.at_ms;
    if (a.tie != b.tie) return a.tie > b.tie;
    return a.seq > b.seq;
  }
};

struct Held {
  std::string id;
  std::int64_t token = 0;  // attempts: the wire 1 token
  std::string wire2;       // the wire 2 token CLAIM ... WIRE 2 handed out (EMQ §8), else empty
  std::uint64_t gen = 0;
  int queue = 0;  // the index of the queue it was claimed from
};

struct Worker {
  std::string name;
  LinearClock clock;
  bool dead = false;
  std::int64_t paused_until_ms = -1;
  std::vector<Held> held;
  bool claim_pending = false;
  std::uint64_t batch_gen = 0;  // the live extend_all timer
  bool batch_armed = false;
  bool scripted = false;  // on the scripted executor (until an upgrade)
  bool wire2 = false;     // claims natively with WIRE 2 (RunPlan::wire2_workers)
  int next_queue = 0;     // the queue its next CLAIM goes to: claims cycle over the queues
};

class Runner {
 public:
  Runner(const RunPlan& plan, const RunOptions& options);

  RunSummary run();

 private:
  // The event loop (run.cpp).
  void schedule(Event e) {
    e.tie = world_.prng().next();
    e.seq = ++seq_;
    queue_.push(e);
  }
  void schedule(std::int64_t at_ms, EventKind kind, int actor = 0, std::uint64_t gen = 0) {
    Event e;
    e.at_ms = std::max(at_ms, world_.true_ms());
    e.kind = kind;
    e.actor = actor;
    e.gen = gen;
    schedule(e);
  }
  // The first events: the fleet's, the faults', the adversarial client's calls, and the
  // start of the liveness phase.
  void schedule_start();
  void dispatch(const Event& e, RunSummary& summary);
  // The end line and the summary's counts, once the run's outcome is known.
  void finish(RunSummary& summary);
  void on_resend(const Event& e);
  void on_liveness();
  bool drained() const;
  // A duration on the plan's time grid (down to a multiple of the quantum, at least one).
  std::int64_t on_grid(std::int64_t ms) const {
    const std::int64_t q = plan_.time_quantum_ms;
    return q > 0 ? std::max(q, ms / q * q) : ms;
  }
  // A time on the plan's time grid (down to a multiple of the quantum; 0 stays 0).
  std::int64_t at_on_grid(std::int64_t at_ms) const {
    return plan_.time_quantum_ms > 0 ? at_ms / plan_.time_quantum_ms * plan_.time_quantum_ms : at_ms;
  }
  const std::string& queue_name(int index) const { return queue_names_[static_cast<std::size_t>(index)]; }
  const std::string& queue_of_job(int job) const { return queue_name(plan_.queue_of_job(job)); }
  void saw(Situation situation) { situations_.saw(situation); }

  // Every call of the run, seen by the situation observer around it.
  const CallRecord& call(std::string_view actor, Argv& argv) {
    situations_.before_call(argv.views());
    const CallRecord& rec = world_.call(actor, argv.views());
    situations_.after_call(rec);
    return rec;
  }
  // A lost reply: retry once after a while, or give up, as drawn.
  void maybe_resend(int actor, Args argv) {
    if (!world_.prng().chance(plan_.retry_per_mille)) return;
    Event e;
    e.at_ms = world_.true_ms() + retry_after_ms;
    e.kind = EventKind::resend;
    e.actor = actor;
    e.gen = resends_.size();
    resends_.emplace_back(argv.begin(), argv.end());
    schedule(e);
  }
  std::string actor_name(int actor) const {
    if (actor < static_cast<int>(workers_.size())) return workers_[static_cast<std::size_t>(actor)].name;
    return "s";
  }

  // The fleet (run_fleet.cpp).
  // The workers, each job's ADD, each worker's first CLAIM and the first sweep.
  void start_fleet();
  void on_add(const Event& e);
  void on_claim(const Event& e);
  void on_extend_all(const Event& e);
  void on_lease_timer(const Event& e);  // extend_one, finish
  void on_extend_one(const Event& e, Worker& w, const Held& h);
  void on_finish(const Event& e, Worker& w, const Held& h);
  void on_sweep();
  // The true time at which worker w's clock will have advanced by `worker_ms`.
  std::int64_t after_worker_ms(const Worker& w, std::int64_t worker_ms) const {
    const std::int64_t now_ms = world_.true_ms();
    return w.clock.true_time_of(w.clock.value(now_ms) + worker_ms, now_ms + 1);
  }
  std::int64_t extend_interval_ms() const {
    return on_grid(std::max<std::int64_t>(1, plan_.lease_ms * plan_.extend_at_per_mille / 1000));
  }
  // Adds the lease's token as its holder hands it in: the wire 2 token when CLAIM handed one
  // out, else attempts.
  static Argv& add_token(Argv& argv, const Held& h) {
    return h.wire2.empty() ? argv.add(h.token) : argv.add(h.wire2);
  }
  // Starts argv_ as an EVALSHA of one of the executor's scripts; the caller adds the keys
  // and arguments.
  Argv& script_argv(ExecutorScript script, std::int64_t numkeys) {
    return argv_.clear().add("EVALSHA").add(executor_script_sha(script)).add(numkeys);
  }
  // Sends argv_ (an EVALSHA) as a client of the scripted executor does: on NOSCRIPT (a
  // new process has an empty script cache) it sends the same call again as EVAL with the
  // script's body, which also caches it.
  const CallRecord& call_script(std::string_view actor, ExecutorScript script);
  // A worker that cannot act now (dead: never; paused: at resume) — true when handled.
  bool defer(Worker& w, const Event& e) {
    if (w.dead) return true;
    if (w.paused_until_ms > world_.true_ms()) {
      // On resume the worker handles its timers in the order they fell due.
      Event later = e;
      later.at_ms = w.paused_until_ms;
      later.tie = static_cast<std::uint64_t>(e.at_ms);
      later.seq = ++seq_;
      queue_.push(later);
      return true;
    }
    return false;
  }
  Held* held(Worker& w, std::uint64_t gen) {
    for (auto& h : w.held) {
      if (h.gen == gen) return &h;
    }
    return nullptr;
  }
  void drop(Worker& w, std::string_view id) {
    std::erase_if(w.held, [&](const Held& h) { return h.id == id; });
  }
  void want_claim(int wi, std::int64_t at_ms) {
    Worker& w = workers_[static_cast<std::size_t>(wi)];
    if (w.claim_pending) return;
    w.claim_pending = true;
    schedule(at_ms, EventKind::claim, wi);
  }
  // A run with an adversarial client (RunPlan::adversarial_calls) has a sloppy fleet too: its
  // own calls spelt otherwise (MAXFAILURES left out, lower-case count/limit, COMPLETE without
  // a result) and its payloads and texts sometimes empty or binary.
  bool sloppy() const { return plan_.adversarial_calls > 0; }

  // The adversarial client (run_adversarial_client.cpp).
  void on_adversarial_call();
  // Job `job` as an adversarial call's target: its queue, the plan's lease and budget, the
  // server's clock and run_id; read_target_row adds what its row says now.
  AdversaryTarget adversary_target(int job) const;
  void read_target_row(AdversaryTarget& t) const;
  void send_boundary_probe(const AdversaryTarget& t);
  void send_setup(const std::vector<std::vector<std::string>>& calls);
  void send_to_a_replica(const AdversaryTarget& t);
  void send_under_an_acl(const AdversaryTarget& t);
  // Sends `argv` as the adversarial client (actor x).
  const Reply& send_as_adversary(const std::vector<std::string>& argv);
  bool expired_lease_in(const std::string& queue) const;
  // EXTENDS of the target's lease and every other lease in its queue's active set, each
  // with its row's attempts, as a worker holding several sends it.
  std::vector<std::string> extends_of_every_lease(const AdversaryTarget& t, const std::string& token) const;
  std::vector<std::string> keys_written(const std::string& queue, const std::vector<std::string>& call) const;
  // What a corruption setup's verb meets on queue q (read from the dataset): the pending
  // ids whose row is not a hash; whether seq is at int64's top, where INCR refuses.
  std::size_t ghosts_in_pending(std::string_view q) const;
  bool seq_at_top(std::string_view q) const;
  // Whether `id` is in q's pending or active set while its row is not a hash (a ghost).
  bool id_in_a_set(std::string_view q, std::string_view id) const;

  // The faults (run_faults.cpp).
  void on_fault(const Fault& f);

  const RunPlan& plan_;
  const RunOptions& options_;
  World world_;
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  std::uint64_t seq_ = 0, gens_ = 0;
  std::vector<Worker> workers_;
  bool liveness_ = false;
  bool rate_changed_ = false;  // the server clock runs at a rate other than 1
  Argv argv_;  // the next call's arguments
  std::vector<std::vector<std::string>> resends_;  // arguments of lost calls to send again
  std::map<std::string, std::int64_t> faults_applied_;
  std::vector<std::string> queue_names_;  // plan_.queue_name(0..queues-1)
  std::vector<bool> claimed_from_;        // a CLAIM got a job from this queue
  SituationObserver situations_{world_, queue_names_};
  // The adversarial client's edge probes (draw_boundary_probe) draw from a stream of their
  // own, seeded from the run's seed as the plan's stream is (sim/plan.cpp): the same seed
  // gives the same probes, and every other draw of the run, the adversarial client's
  // included, stays what it was before the probes existed (their calls touch only a queue of
  // their own).
  Prng edge_prng_;
};

}  // namespace trafikey::sim::driver
