#include "sim/run.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "core/keys.h"
#include "core/states.h"
#include "sim/executor_scripts.h"
#include "sim/adversarial_calls.h"

namespace trafikey::sim {

namespace {

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
  std::int64_t token = 0;
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
  int next_queue = 0;     // the queue its next CLAIM goes to: claims cycle over the queues
};

class Runner {
 public:
  Runner(const RunPlan& plan, const RunOptions& options)
      : plan_(plan),
        options_(options),
        world_(WorldOptions{plan.seed, plan.persistence, plan.snapshot_interval_ms,
                            plan.replication_lag_ms, options.keep_history_text,
                            plan.near_epoch_per_mille}),
        edge_prng_(plan.seed ^ 0x65646765ULL) {  // "edge"
    for (int i = 0; i < std::max(1, plan.queues); ++i) queue_names_.push_back(plan.queue_name(i));
    claimed_from_.assign(queue_names_.size(), false);
  }

  RunSummary run();

 private:
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
  // The true time at which worker w's clock will have advanced by `worker_ms`.
  std::int64_t after_worker_ms(const Worker& w, std::int64_t worker_ms) const {
    const std::int64_t now_ms = world_.true_ms();
    return w.clock.true_time_of(w.clock.value(now_ms) + worker_ms, now_ms + 1);
  }
  std::int64_t extend_interval_ms() const {
    return on_grid(std::max<std::int64_t>(1, plan_.lease_ms * plan_.extend_at_per_mille / 1000));
  }
  // A duration on the plan's time grid (down to a multiple of the quantum, at least one).
  std::int64_t on_grid(std::int64_t ms) const {
    const std::int64_t q = plan_.time_quantum_ms;
    return q > 0 ? std::max(q, ms / q * q) : ms;
  }
  void saw(Situation situation) { ++situations_[static_cast<std::size_t>(situation)]; }
  const std::string& queue_name(int index) const { return queue_names_[static_cast<std::size_t>(index)]; }
  const std::string& queue_of_job(int job) const { return queue_name(plan_.queue_of_job(job)); }
  void look_before_call(Args argv);
  void look_after_call(const CallRecord& rec);

  const CallRecord& call(std::string_view actor, Argv& argv) {
    look_before_call(argv.views());
    const CallRecord& rec = world_.call(actor, argv.views());
    look_after_call(rec);
    return rec;
  }
  // Starts argv_ as an EVALSHA of one of the executor's scripts; the caller adds the keys
  // and arguments.
  Argv& script_argv(ExecutorScript script, std::int64_t numkeys) {
    return argv_.clear().add("EVALSHA").add(executor_script_sha(script)).add(numkeys);
  }
  // Sends argv_ (an EVALSHA) as a client of the scripted executor does: on NOSCRIPT (a
  // new process has an empty script cache) it sends the same call again as EVAL with the
  // script's body, which also caches it.
  const CallRecord& call_script(std::string_view actor, ExecutorScript script) {
    const CallRecord& rec = call(actor, argv_);
    if (rec.lost || !rec.reply.is_error() || !rec.reply.text().starts_with("NOSCRIPT")) return rec;
    const Args sent = argv_.views();
    const std::vector<std::string> rest(sent.begin() + 2, sent.end());
    argv_.clear().add("EVAL").add(executor_script_body(script));
    for (const std::string& arg : rest) argv_.add(arg);
    return call(actor, argv_);
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

  void on_add(const Event& e);
  void on_claim(const Event& e);
  void on_extend_all(const Event& e);
  void on_extend_one(const Event& e);
  void on_finish(const Event& e);
  void on_resend(const Event& e);
  void on_sweep();
  void on_adversarial_call();
  bool expired_lease_in(const std::string& queue) const;
  // EXTENDS of the target's lease and every other lease in its queue's active set, each
  // with its row's attempts, as a worker holding several sends it.
  std::vector<std::string> extends_of_every_lease(const AdversaryTarget& t, const std::string& token) const;
  // Sends `argv` as the adversarial client (actor x).
  const Reply& send_as_adversary(const std::vector<std::string>& argv);
  std::vector<std::string> keys_written(const std::string& queue, const std::vector<std::string>& call) const;
  // What a corruption setup's verb meets on queue q (read from the dataset): the pending
  // ids whose row is not a hash; whether seq is at int64's top, where INCR refuses.
  std::size_t ghosts_in_pending(std::string_view q) const;
  bool seq_at_top(std::string_view q) const;
  // Whether `id` is in q's pending or active set while its row is not a hash (a ghost).
  bool id_in_a_set(std::string_view q, std::string_view id) const;
  void on_fault(const Fault& f);
  void on_liveness();
  bool drained() const;

  // A run with an adversarial client (RunPlan::adversarial_calls) has a sloppy fleet too: its own calls
  // spelt otherwise (MAXFAILURES left out, lower-case count/limit, COMPLETE without a
  // result) and its payloads and texts sometimes empty or binary.
  bool sloppy() const { return plan_.adversarial_calls > 0; }

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
  std::array<std::int64_t, situation_count> situations_{};  // by Situation
  std::vector<std::string> queue_names_;  // plan_.queue_name(0..queues-1)
  std::vector<bool> claimed_from_;        // a CLAIM got a job from this queue
  // The adversarial client's edge probes (draw_boundary_probe) draw from a stream of their own, seeded
  // from the run's seed as the plan's stream is (sim/plan.cpp): the same seed gives the same
  // probes, and every other draw of the run, the adversarial client's included, stays what it was
  // before the probes existed (their calls touch only a queue of their own).
  Prng edge_prng_;
};

namespace {
// The opaque bytes a sloppy fleet sends (RunPlan::adversarial_calls): EMQ §1 keeps payload,
// result and error as the bytes sent, so some are 0 bytes and some carry a NUL and a byte
// above 0x7f. A core that reads them as C strings, takes "" for absent or refuses "" differs
// only on such bytes, which a well-behaved fleet's "payload-N" and "ok" never are. Each
// carries a CRLF too (inside the payload, at the end of the text): a core that cuts, trims
// or normalises line ends, as a RESP-minded or log-minded refactor might, differs only here.
constexpr std::string_view binary_payload{"pay\0lo\r\nad\xff", 11};
constexpr std::string_view binary_text{"ok\0\xfe\r\n", 6};
// Lengths at the edges of the buffers and small-string paths an implementation may keep
// (16, 23, 32, 64, 128, 256, 512, 1024 bytes, a C string's NUL on top of each), and texts
// that look like numbers (EMQ §1: opaque bytes all the same): some of a sloppy fleet's
// payloads, results and failure texts take them. The fleet's own are 2 to 23 bytes, its
// adversarial setups' 0, 4095 and more, and none is ever numeric: a core that cuts, pads or
// converts a value only at one of these lengths, or answers "10" or "007" as an integer,
// passes every run without them.
constexpr std::size_t edge_lengths[] = {15, 16, 17, 22, 23, 24, 31, 32, 33, 63, 64, 65,
                                        127, 128, 255, 256, 257, 511, 512, 1023, 1024, 1025};
constexpr std::string_view numeric_texts[] = {"0", "7", "10", "007", "-1", "-0", "+5", "1e3", "1.0",
                                              "9223372036854775807", "18446744073709551616"};
// The k-th such value: an edge length (bytes that differ along it, so a cut or a shift
// shows) three times in four, else a numeric text.
std::string edge_value(std::uint64_t k) {
  if (k % 4 == 3) return std::string(numeric_texts[(k / 4) % std::size(numeric_texts)]);
  std::string s(edge_lengths[k % std::size(edge_lengths)], 'a');
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>('a' + (i + k) % 26);
  return s;
}
// The job number N of "jN" (0 for anything else).
int job_number(std::string_view id) {
  int n = 0;
  if (id.size() > 1) std::from_chars(id.data() + 1, id.data() + id.size(), n);
  return n;
}
// Job jN's result or failure text in a sloppy fleet: by N, none, binary, or (N = 0 or 3 mod 4)
// an edge value drawn by N and the plan's seed. (The well-behaved fleet's is "ok" or "worker
// reported failure".)
std::string sloppy_text(std::string_view id, std::uint64_t seed) {
  const int n = job_number(id);
  switch (n % 4) {
    case 1: return {};
    case 2: return std::string(binary_text);
    default: return edge_value(seed + static_cast<std::uint64_t>(n));
  }
}

// Text a careless reply or store might take for a number: a sign, digits, a point or an
// exponent, and a digit among them ("10", "007", "-1", "1e3", "1.0").
bool looks_numeric(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789+-.e") == std::string_view::npos &&
         s.find_first_of("0123456789") != std::string_view::npos;
}
bool at_buffer_edge(std::size_t n) {
  return n == 16 || n == 23 || n == 32 || n == 64 || n == 255 || n == 256 || n == 1024;
}

bool one_char_apart(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  int differ = 0;
  for (std::size_t i = 0; i < a.size() && differ < 2; ++i) differ += a[i] != b[i];
  return differ == 1;
}
}  // namespace

// What the call is about to meet, read from the server's dataset (never written).
void Runner::look_before_call(Args argv) {
  if (argv.size() < 2 || !world_.module_loaded() || !valid_queue_name(argv[1])) return;
  const Keyspace& data = world_.data();
  const QueueKeys keys(argv[1]);
  const std::int64_t now_ms = world_.server_ms();
  const auto now = static_cast<double>(now_ms);
  bool wrong = false;
  const Keyspace::Zset* active = data.zset_at(keys.active(), wrong);
  const std::string_view verb = argv[0];
  if (verb == "EMQ.STALLED.CHECK") {
    // isolation: another queue holds an expired lease this sweep must leave alone
    for (const std::string& other : queue_names_) {
      if (other == argv[1]) continue;
      const Keyspace::Zset* theirs = data.zset_at(QueueKeys(other).active(), wrong);
      if (theirs && !theirs->order.empty() && theirs->order.begin()->first < now) {
        saw(Situation::other_queue_expired_at_sweep);
        break;
      }
    }
    if (!active) return;
    std::int64_t expired = 0;
    bool near = false, at_deadline = false, unstamped = false, empty_lane = false, case_stamp = false;
    const std::string& run_id = world_.run_ids()[static_cast<std::size_t>(world_.incarnation())];
    std::int64_t limit = 1000;
    if (argv.size() >= 5) std::from_chars(argv[4].data(), argv[4].data() + argv[4].size(), limit);
    const std::optional<std::int64_t> budget = argv.size() >= 3 ? parse_int64(argv[2]) : std::nullopt;
    bool past_9 = false;
    bool one_ms_past = false, fractional = false;
    for (const auto& [score, member] : active->order) {
      if (score == now) at_deadline = true;
      if (score == now - 1) one_ms_past = true;
      if (score > now - 1 && score < now + 1 && score != now) fractional = true;
      if (!(score < now)) break;
      ++expired;
      if (const Keyspace::Hash* row = data.hash_at(keys.row(member), wrong)) {
        const std::string* stamp = Keyspace::hash_field(*row, "lease_epoch");
        // a counted lease with some stalls already, judged against a budget of two digits
        const std::string* stalled = Keyspace::hash_field(*row, "stalled");
        if (budget && *budget >= 10 && stamp && *stamp == run_id && stalled && parse_int64(*stalled).value_or(0) >= 1 &&
            expired <= limit) {
          past_9 = true;
        }
        if (stamp && one_char_apart(*stamp, run_id)) near = true;
        // the run_id in another case: another process's stamp (EMQ §2, byte-wise)
        if (stamp && *stamp != run_id && equals_ignore_case(*stamp, run_id) && expired <= limit) case_stamp = true;
        // within LIMIT and not a lane row: the sweep reads its lease_epoch and finds none
        const std::string* group = Keyspace::hash_field(*row, "group");
        if (!stamp && expired <= limit && !group) unstamped = true;
        if (group && group->empty() && expired <= limit) empty_lane = true;
      }
    }
    if (at_deadline) saw(Situation::sweep_at_a_deadline);
    if (one_ms_past) saw(Situation::sweep_one_ms_past_a_deadline);
    if (fractional) saw(Situation::sweep_at_a_fractional_deadline);
    if (past_9) saw(Situation::budget_past_9_judged);
    if (near) saw(Situation::sweep_met_near_epoch);
    if (unstamped) saw(Situation::unstamped_row_swept);
    if (empty_lane) saw(Situation::sweep_met_empty_group_lane);
    if (case_stamp) saw(Situation::sweep_met_stamp_differing_in_case);
    if (expired > 100 && argv.size() == 3) saw(Situation::sweep_default_limit_over_100);
    if (expired > limit) saw(Situation::sweep_cut_by_limit);
    if (expired > 100 && limit > 100) saw(Situation::sweep_over_100_expired);
  } else if (verb == "EMQ.CLAIM") {
    const Keyspace::Zset* pending = data.zset_at(keys.pending(), wrong);
    // a lease whose deadline would be 2^53, one past the largest score (EMQ §3: refused),
    // with a job to claim: a bound checked one too loosely hands it out
    if (pending && !pending->scores.empty() && argv.size() >= 3 &&
        parse_int64(argv[2]) == score_max - now_ms + 1) {
      saw(Situation::claim_deadline_one_past_bound);
    }
    if (!pending || argv.size() < 5) return;
    std::int64_t count = 0;
    std::from_chars(argv[4].data(), argv[4].data() + argv[4].size(), count);
    const auto waiting = static_cast<std::int64_t>(pending->scores.size());
    if (waiting > 0 && count > waiting) saw(Situation::claim_count_above_pending);
    if (waiting > 100 && count > 100) saw(Situation::claim_over_100_pending);
    if (count > 1) {
      std::int64_t claimable = 0;
      for (const auto& [score, member] : pending->order) {
        if (claimable >= count) break;
        if (data.type(keys.row(member)) != KeyType::hash) {
          saw(Situation::claim_met_ghost_count_gt_1);
          break;
        }
        ++claimable;
      }
    }
  } else if (verb == "EMQ.EXTEND" || verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL" || verb == "EMQ.EXTENDS") {
    // EXTEND, COMPLETE, FAIL: q id token ...; EXTENDS: q lease_ms id token ...
    const std::size_t first = verb == "EMQ.EXTENDS" ? 3 : 2;
    const std::size_t step = verb == "EMQ.EXTENDS" ? 2 : argv.size();
    // a row that says active with the call's token while its id is not in active (EMQ §3:
    // not live, whatever the row says)
    if (argv.size() > first + 1 && !(active && active->scores.find(argv[first]))) {
      if (const Keyspace::Hash* row = data.hash_at(keys.row(argv[first]), wrong)) {
        const std::string* state = Keyspace::hash_field(*row, "state");
        const std::string* attempts = Keyspace::hash_field(*row, "attempts");
        if (state && *state == "active" && attempts && *attempts == argv[first + 1]) {
          saw(Situation::lease_verb_met_row_off_active);
        }
      }
    }
    for (std::size_t i = first; active && i < argv.size(); i += step) {
      const auto* score = active->scores.find(argv[i]);
      if (score && score->second == now) {
        saw(Situation::holder_call_at_its_deadline);
        break;
      }
    }
    // a lease verb at one ms past a deadline, or half a ms either side of now (a deadline
    // written by hand: draw_boundary_probe)
    for (std::size_t i = first; active && i < argv.size(); i += step) {
      const auto* score = active->scores.find(argv[i]);
      if (!score) continue;
      if (score->second == now - 1) saw(Situation::lease_verb_one_ms_past_a_deadline);
      if (score->second > now - 1 && score->second < now + 1 && score->second != now) saw(Situation::lease_verb_at_a_fractional_deadline);
    }
    // a token past 2^31 for an id in active (EMQ §7: tokens run to 2^63-1)
    for (std::size_t i = first; active && i + 1 < argv.size(); i += verb == "EMQ.EXTENDS" ? 2 : argv.size()) {
      if (parse_int64(argv[i + 1]).value_or(0) > std::numeric_limits<std::int32_t>::max() && active->scores.find(argv[i])) {
        saw(Situation::lease_verb_token_past_2_31);
        break;
      }
    }
    // a FAIL of a lease whose budget has two digits, with a failure already counted
    if (verb == "EMQ.FAIL" && argv.size() >= 3 && active && active->scores.find(argv[2])) {
      if (const Keyspace::Hash* row = data.hash_at(keys.row(argv[2]), wrong)) {
        const std::string* failures = Keyspace::hash_field(*row, "failures");
        const std::string* budget = Keyspace::hash_field(*row, "max_failures");
        if (failures && budget && parse_int64(*failures).value_or(0) >= 1 && parse_int64(*budget).value_or(0) >= 10) {
          saw(Situation::budget_past_9_judged);
        }
      }
    }
  }
}

void Runner::look_after_call(const CallRecord& rec) {
  if (rec.actor == "x" && !rec.argv.empty()) {
    if (rec.reply.is_error()) saw(Situation::adversarial_call_refused);
    const bool read = equals_ignore_case(rec.argv[0], "EMQ.STATS") || equals_ignore_case(rec.argv[0], "EMQ.JOB");
    if (read && rec.reply.kind() == Reply::Kind::array) saw(Situation::adversarial_call_read);
    const std::string_view text = rec.reply.is_error() ? std::string_view(rec.reply.text()) : std::string_view();
    if (text.starts_with("ERR EMQ corrupt job row")) saw(Situation::corrupt_row_refused);
    if (text.starts_with("WRONGTYPE") && rec.argv[0].starts_with("EMQ.")) saw(Situation::wrong_type_refused);
    // a queue name or id with a colon, a high byte, CR and LF (EMQ §1 allows them) served
    if (!rec.reply.is_error() && rec.argv.size() >= 2 &&
        std::any_of(rec.argv.begin() + 1, rec.argv.begin() + std::min<std::size_t>(rec.argv.size(), 3),
                    [](std::string_view a) { return a.find(":\xff\r\n") != std::string_view::npos; })) {
      saw(Situation::rare_bytes_name_answered);
    }
  }
  if (rec.argv.empty() || rec.reply.is_error()) return;
  const std::string_view verb = rec.argv[0];
  if (verb == "EMQ.ADD" && rec.reply.kind() == Reply::Kind::integer) {
    if (rec.reply.as_integer() == 0) saw(Situation::add_of_an_existing_id);
    if (rec.reply.as_integer() == 1 && rec.argv.size() == 4) saw(Situation::add_without_maxfailures);
    // names past the 16 bytes the fleet's never reach, a payload past 4096 bytes (EMQ §1)
    if (rec.reply.as_integer() == 1 && rec.argv[1].size() > 16 && rec.argv[2].size() > 16) saw(Situation::long_names_written);
    if (rec.reply.as_integer() == 1 && rec.argv[3].size() > 4096) saw(Situation::long_payload_added);
  }
  // an ADD or a requeueing FAIL that ordered its job past 2^24, where a float stops holding
  // every integer (and up to just past 2^53, where a double does)
  if ((verb == "EMQ.ADD" || verb == "EMQ.FAIL") && rec.reply.kind() == Reply::Kind::integer &&
      rec.reply.as_integer() == 1 && valid_queue_name(rec.argv[1])) {
    bool wrong = false;
    const std::string* seq = world_.data().string_at(SpecKeys(rec.argv[1]).key("seq"), wrong);
    const auto order = seq ? parse_int64(*seq) : std::nullopt;
    if (order && *order > (std::int64_t{1} << 24) && *order <= (std::int64_t{1} << 53) + 1000) {
      saw(Situation::order_past_float_integers);
    }
  }
  if (verb == "EMQ.COMPLETE" && rec.argv.size() == 4 && rec.reply.kind() == Reply::Kind::integer &&
      rec.reply.as_integer() == 1) {
    saw(Situation::complete_without_result);
  }
  if (verb == "EMQ.CLAIM" && rec.reply.kind() == Reply::Kind::array && rec.reply.items().size() > 100) {
    saw(Situation::claim_granted_over_100);
  }
  if (verb == "EMQ.CLAIM" && rec.reply.kind() == Reply::Kind::array) {
    for (const Reply& item : rec.reply.items()) {
      if (item.kind() != Reply::Kind::array || item.items().size() != 3) continue;
      const std::string_view payload = item.items()[2].text();
      if (payload.empty()) saw(Situation::claimed_empty_payload);
      if (payload.find('\0') != std::string_view::npos) saw(Situation::claimed_binary_payload);
      if (looks_numeric(item.items()[0].text()) || looks_numeric(payload)) saw(Situation::numeric_looking_value_claimed);
    }
  }
  // a JOB that lists a field EMQ §1 does not name (its place is by bytes, EMQ §4)
  if (verb == "EMQ.JOB" && rec.reply.kind() == Reply::Kind::array) {
    static constexpr std::string_view listed[] = {"state", "payload", "attempts", "failures", "max_failures", "stalled",
                                                  "lease_epoch", "result", "error", "dead_reason", "group"};
    for (std::size_t i = 0; i < rec.reply.items().size(); i += 2) {
      if (std::find(std::begin(listed), std::end(listed), rec.reply.items()[i].text()) == std::end(listed)) {
        saw(Situation::job_read_unlisted_field);
        break;
      }
    }
  }
  if (verb == "EMQ.STATS" && rec.reply.kind() == Reply::Kind::array &&
      std::any_of(rec.reply.items().begin(), rec.reply.items().end(), [](const Reply& r) { return r.as_integer() > 255; })) {
    saw(Situation::stats_counted_over_255);
  }
  // a payload, result or failure text written at a buffer's edge length
  if (rec.reply.kind() == Reply::Kind::integer && rec.reply.as_integer() != 0 &&
      ((verb == "EMQ.ADD" && rec.argv.size() >= 4 && at_buffer_edge(rec.argv[3].size())) ||
       ((verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL") && rec.argv.size() == 5 && at_buffer_edge(rec.argv[4].size())))) {
    saw(Situation::text_at_a_buffer_edge);
  }
  // a COMPLETE or FAIL that took its lease, with a text of 0 bytes or with a NUL in it
  if ((verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL") && rec.argv.size() == 5 &&
      rec.reply.kind() == Reply::Kind::integer && rec.reply.as_integer() != 0) {
    if (rec.argv[4].empty()) saw(Situation::finished_with_empty_text);
    if (rec.argv[4].find('\0') != std::string_view::npos) saw(Situation::finished_with_binary_text);
  }
  if (verb == "EMQ.EXTENDS" && rec.reply.kind() == Reply::Kind::array) {
    bool live = false, dead = false;
    for (const Reply& r : rec.reply.items()) (r.as_integer() != 0 ? live : dead) = true;
    if (live && dead) saw(Situation::extends_live_and_dead);
    if (rec.reply.items().size() == 1000) saw(Situation::extends_at_1000_pairs);
    // the last pair names the first pair's id again, and both were live
    const auto& items = rec.reply.items();
    if (items.size() >= 2 && rec.argv.size() == 3 + 2 * items.size() && rec.argv[3] == rec.argv[rec.argv.size() - 2] &&
        items.front().as_integer() == 1 && items.back().as_integer() == 1) {
      saw(Situation::extends_repeated_live_pair);
    }
  } else if (verb == "EMQ.FAIL" && rec.reply.kind() == Reply::Kind::integer) {
    if (rec.reply.as_integer() == 1) saw(Situation::fail_requeued);
    if (rec.reply.as_integer() == 2) saw(Situation::fail_dead);
  } else if (verb == "EMQ.ADD" && rec.reply.kind() == Reply::Kind::integer && rec.reply.as_integer() == 1 &&
             rec.argv.size() >= 6 && rec.argv[5] == "1") {
    saw(Situation::add_maxfailures_1);
  }
}

void Runner::on_add(const Event& e) {
  argv_.clear().add("EMQ.ADD").add(queue_of_job(e.actor)).add("j", e.actor);
  if (sloppy() && e.actor % 5 == 1) {
    argv_.add("");  // a sloppy fleet: a payload of 0 bytes
  } else if (sloppy() && e.actor % 5 == 3) {
    argv_.add(binary_payload);
  } else if (sloppy() && e.actor % 5 == 4) {  // an edge length or a numeric text
    argv_.add(edge_value(plan_.seed * 7 + static_cast<std::uint64_t>(e.actor / 5)));
  } else {
    argv_.add("payload-", e.actor);
  }
  if (!sloppy() || e.actor % 3 == 0) {
    argv_.add("MAXFAILURES").add(std::int64_t{plan_.max_failures_of(e.actor)});
  } else if (e.actor % 3 == 2) {  // a sloppy fleet: the keyword in lower case, or left out (3)
    argv_.add("maxfailures").add(std::int64_t{plan_.max_failures_of(e.actor)});
  }
  const CallRecord& rec = call("p", argv_);
  if (rec.lost) {
    maybe_resend(-1, argv_.views());
  } else if (rec.reply.is_error()) {
    schedule(world_.true_ms() + plan_.poll_ms, EventKind::add, e.actor);
  }
}

void Runner::on_claim(const Event& e) {
  const int wi = e.actor;
  Worker& w = workers_[static_cast<std::size_t>(wi)];
  if (defer(w, e)) return;
  w.claim_pending = false;
  const auto capacity = static_cast<std::int64_t>(plan_.claim_count) - static_cast<std::int64_t>(w.held.size());
  if (capacity <= 0) return;  // a finish will ask again
  const std::int64_t count = capacity + plan_.claim_overask;
  const int qi = w.next_queue;
  w.next_queue = (qi + 1) % static_cast<int>(queue_names_.size());
  const std::string& queue = queue_name(qi);
  const CallRecord* sent = nullptr;
  if (w.scripted) {
    const QueueKeys keys(queue);
    script_argv(ExecutorScript::claim, 2).add(keys.pending()).add(keys.active()).add(plan_.lease_ms).add(count);
    sent = &call_script(w.name, ExecutorScript::claim);
  } else {
    // a sloppy fleet spells the option in lower case on odd workers
    const bool lower = sloppy() && wi % 2 == 1;
    sent = &call(w.name, argv_.clear().add("EMQ.CLAIM").add(queue).add(plan_.lease_ms).add(lower ? "count" : "COUNT").add(count));
  }
  const CallRecord& rec = *sent;
  if (rec.lost || rec.reply.is_error() || rec.reply.kind() != Reply::Kind::array) {
    // the claimed leases of a lost reply are orphaned: no worker holds them
    want_claim(wi, world_.true_ms() + (rec.lost ? retry_after_ms : plan_.poll_ms));
    return;
  }
  const auto got = static_cast<std::int64_t>(rec.reply.items().size());
  if (got > 0) claimed_from_[static_cast<std::size_t>(qi)] = true;
  for (const Reply& claimed : rec.reply.items()) {
    Held h{claimed.items()[0].text(), claimed.items()[1].as_integer(), ++gens_, qi};
    w.held.push_back(h);
    const std::int64_t work_ms = on_grid(world_.prng().between(plan_.work_min_ms, plan_.work_max_ms));
    schedule(after_worker_ms(w, work_ms), EventKind::finish, wi, h.gen);
    // the scripted executor has no EXTENDS: one extend.lua per lease
    if (!plan_.use_extends || w.scripted) schedule(after_worker_ms(w, extend_interval_ms()), EventKind::extend_one, wi, h.gen);
  }
  if (plan_.use_extends && !w.scripted && got > 0 && !w.batch_armed) {
    w.batch_armed = true;
    schedule(after_worker_ms(w, extend_interval_ms()), EventKind::extend_all, wi, ++w.batch_gen);
  }
  if (got < capacity) want_claim(wi, world_.true_ms() + plan_.poll_ms);
}

void Runner::on_extend_all(const Event& e) {
  Worker& w = workers_[static_cast<std::size_t>(e.actor)];
  if (e.gen != w.batch_gen) return;
  if (defer(w, e)) return;
  if (w.held.empty()) {
    w.batch_armed = false;
    return;
  }
  // One EXTENDS per queue it holds leases in, in queue order (one call with one queue).
  const std::vector<Held> held_now = w.held;
  bool lost_any = false;
  for (int qi = 0; qi < static_cast<int>(queue_names_.size()); ++qi) {
    std::vector<Held> sent;
    for (const auto& h : held_now) {
      if (h.queue == qi) sent.push_back(h);
    }
    if (sent.empty()) continue;
    argv_.clear().add("EMQ.EXTENDS").add(queue_name(qi)).add(plan_.lease_ms);
    for (const auto& h : sent) argv_.add(h.id).add(h.token);
    // a sloppy fleet names its first lease twice: both pairs are live, both answer 1
    if (sloppy()) argv_.add(sent[0].id).add(sent[0].token);
    const CallRecord& rec = call(w.name, argv_);
    if (rec.lost) {
      maybe_resend(e.actor, argv_.views());
    } else if (rec.reply.kind() == Reply::Kind::array) {
      for (std::size_t i = 0; i < sent.size() && i < rec.reply.items().size(); ++i) {
        if (rec.reply.items()[i].as_integer() != 0) continue;
        drop(w, sent[i].id);
        lost_any = true;
      }
    }
  }
  if (lost_any) want_claim(e.actor, world_.true_ms());
  schedule(after_worker_ms(w, extend_interval_ms()), EventKind::extend_all, e.actor, w.batch_gen);
}

void Runner::on_extend_one(const Event& e) {
  Worker& w = workers_[static_cast<std::size_t>(e.actor)];
  Held* h = held(w, e.gen);
  if (!h) return;
  if (defer(w, e)) return;
  const std::string id = h->id;
  const std::string& queue = queue_name(h->queue);
  const CallRecord* sent = nullptr;
  if (w.scripted) {
    const QueueKeys keys(queue);
    script_argv(ExecutorScript::extend, 2).add(keys.active()).add(keys.row(id)).add(id).add(h->token).add(plan_.lease_ms);
    sent = &call_script(w.name, ExecutorScript::extend);
  } else {
    sent = &call(w.name, argv_.clear().add("EMQ.EXTEND").add(queue).add(id).add(h->token).add(plan_.lease_ms));
  }
  const CallRecord& rec = *sent;
  if (rec.lost) {
    maybe_resend(e.actor, argv_.views());
  } else if (rec.reply.kind() == Reply::Kind::integer && rec.reply.as_integer() == 0) {
    drop(w, id);
    want_claim(e.actor, world_.true_ms());
    return;
  }
  schedule(after_worker_ms(w, extend_interval_ms()), EventKind::extend_one, e.actor, e.gen);
}

void Runner::on_finish(const Event& e) {
  Worker& w = workers_[static_cast<std::size_t>(e.actor)];
  Held* h = held(w, e.gen);
  if (!h) return;
  if (defer(w, e)) return;
  const std::string id = h->id;
  const std::string& queue = queue_name(h->queue);
  const CallRecord* sent = nullptr;
  if (world_.prng().chance(plan_.fail_per_mille)) {
    // no script stands for FAIL: the scripted executor fails natively too
    sent = &call(w.name, argv_.clear().add("EMQ.FAIL").add(queue).add(id).add(h->token).add(sloppy() ? sloppy_text(id, plan_.seed) : "worker reported failure"));
  } else if (w.scripted) {
    const QueueKeys keys(queue);
    script_argv(ExecutorScript::complete, 3).add(keys.active()).add(keys.done()).add(keys.row(id));
    argv_.add(id).add(h->token).add("ok");
    sent = &call_script(w.name, ExecutorScript::complete);
  } else {
    argv_.clear().add("EMQ.COMPLETE").add(queue).add(id).add(h->token);
    if (!sloppy()) {
      argv_.add("ok");
    } else if (h->token % 2 == 1) {  // a sloppy fleet: no result, or an empty, binary or edge one
      argv_.add(sloppy_text(id, plan_.seed));
    }
    sent = &call(w.name, argv_);
  }
  const CallRecord& rec = *sent;
  if (rec.reply.is_error() && !rec.lost) {
    schedule(world_.true_ms() + plan_.poll_ms, EventKind::finish, e.actor, e.gen);
    return;
  }
  if (rec.lost) maybe_resend(e.actor, argv_.views());
  drop(w, id);
  want_claim(e.actor, world_.true_ms());
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

void Runner::on_sweep() {
  // every queue in turn, one STALLED.CHECK each, at the same instant
  for (const std::string& queue : queue_names_) {
    argv_.clear().add("EMQ.STALLED.CHECK").add(queue).add(plan_.max_stalled);
    // Not in the liveness phase: lane rows stay in active (swept elsewhere, EMQ §5), lowest
    // deadlines first, so a LIMIT at or below their number would starve the sweep forever.
    if (plan_.sweep_limit > 0 && !liveness_) {
      argv_.add(sloppy() ? "limit" : "LIMIT").add(std::int64_t{plan_.sweep_limit});
    }
    call("s", argv_);
  }
  schedule(world_.true_ms() + plan_.sweep_interval_ms, EventKind::sweep);
}

std::size_t Runner::ghosts_in_pending(std::string_view q) const {
  if (!valid_queue_name(q)) return 0;
  const QueueKeys keys(q);
  bool wrong = false;
  const Keyspace::Zset* pending = world_.data().zset_at(keys.pending(), wrong);
  std::size_t ghosts = 0;
  if (pending) {
    for (const auto& [score, member] : pending->order) ghosts += world_.data().type(keys.row(member)) != KeyType::hash;
  }
  return ghosts;
}

bool Runner::seq_at_top(std::string_view q) const {
  if (!valid_queue_name(q)) return false;
  bool wrong = false;
  const std::string* seq = world_.data().string_at(QueueKeys(q).seq(), wrong);
  return seq && *seq == "9223372036854775807";
}

bool Runner::id_in_a_set(std::string_view q, std::string_view id) const {
  if (!valid_queue_name(q)) return false;
  const QueueKeys keys(q);
  if (world_.data().type(keys.row(id)) == KeyType::hash) return false;
  bool wrong = false;
  for (const std::string_view set : {keys.pending(), keys.active()}) {
    const Keyspace::Zset* z = world_.data().zset_at(set, wrong);
    if (z && z->scores.find(id)) return true;
  }
  return false;
}

// The keys a fleet call (draw_fleet_call) on `queue` may write, spelt as EMQ §1 names them
// (SpecKeys, as the corruption setups do), not by the core's QueueKeys: the queue's sets and seq as its verb
// writes them (EMQ §4), the rows of the ids it names, and for CLAIM and the sweep the rows
// of the first members they would take (the two lowest in pending; the two longest
// expired in active). Read from the dataset, never written; never empty.
std::vector<std::string> Runner::keys_written(const std::string& queue, const std::vector<std::string>& call) const {
  const std::string_view verb = call[0];
  const SpecKeys k(queue);
  auto key = [&](std::string_view suffix) { return k.key(suffix); };
  std::vector<std::string> keys;
  auto first_members = [&](std::string_view set) {
    bool wrong = false;
    const Keyspace::Zset* z = world_.data().zset_at(key(set), wrong);
    if (!z) return;
    int taken = 0;
    for (const auto& [score, member] : z->order) {
      if (taken++ == 2) break;
      keys.push_back(key("job:") + member);
    }
  };
  if (verb == "EMQ.ADD") {
    keys = {key("job:") + call[2], key("seq"), key("pending")};
  } else if (verb == "EMQ.CLAIM") {
    keys = {key("pending"), key("active")};
    first_members("pending");
  } else if (verb == "EMQ.EXTEND") {
    keys = {key("active"), key("job:") + call[2]};
  } else if (verb == "EMQ.EXTENDS") {
    keys = {key("active")};
    for (std::size_t i = 3; i + 1 < call.size(); i += 2) keys.push_back(key("job:") + call[i]);
  } else if (verb == "EMQ.COMPLETE") {
    keys = {key("active"), key("done"), key("job:") + call[2]};
  } else if (verb == "EMQ.FAIL") {
    keys = {key("active"), key("pending"), key("seq"), key("dead"), key("job:") + call[2]};
  } else if (verb == "EMQ.STALLED.CHECK") {
    keys = {key("active"), key("pending"), key("dead")};
    first_members("active");
  } else {
    keys = {key("pending")};  // a read verb: writes nothing, whatever is denied
  }
  return keys;
}

std::vector<std::string> Runner::extends_of_every_lease(const AdversaryTarget& t, const std::string& token) const {
  std::vector<std::string> call{"EMQ.EXTENDS", t.queue, std::to_string(t.lease_ms), t.id, token};
  bool wrong = false;
  const QueueKeys keys(t.queue);
  const Keyspace::Zset* active = world_.data().zset_at(keys.active(), wrong);
  if (!active) return call;
  for (const auto& [score, member] : active->order) {
    if (member == t.id) continue;
    const Keyspace::Hash* row = world_.data().hash_at(keys.row(member), wrong);
    const std::string* attempts = row ? Keyspace::hash_field(*row, "attempts") : nullptr;
    if (!attempts) continue;
    call.push_back(member);
    call.push_back(*attempts);
  }
  return call;
}

const Reply& Runner::send_as_adversary(const std::vector<std::string>& argv) {
  argv_.clear();
  for (const std::string& arg : argv) argv_.add(arg);
  return call("x", argv_).reply;
}

bool Runner::expired_lease_in(const std::string& queue) const {
  bool wrong = false;
  const Keyspace::Zset* active = world_.data().zset_at(QueueKeys(queue).active(), wrong);
  return active && !active->order.empty() && active->order.begin()->first < static_cast<double>(world_.server_ms());
}

void Runner::on_adversarial_call() {
  if (liveness_) return;  // a safety-phase client only
  const int job = static_cast<int>(world_.prng().between(1, plan_.jobs));
  AdversaryTarget t;
  t.queue = queue_of_job(job);
  t.id = "j" + std::to_string(job);
  t.lease_ms = plan_.lease_ms;
  t.max_stalled = plan_.max_stalled;
  t.server_ms = world_.server_ms();
  t.run_id = world_.run_ids()[static_cast<std::size_t>(world_.incarnation())];
  // One adversarial call in ten comes after a probe of a live window's edge: a lease written by hand
  // at or next to now and the one verb that judges it (sim/adversarial_calls.h draw_boundary_probe:
  // four calls on a queue of its own, which nothing else touches), drawn from the probes'
  // own stream (edge_prng_). A call refused (no module) ends it, with its closing DEL.
  if (edge_prng_.chance(100)) {
    const auto probe = draw_boundary_probe(edge_prng_, t);
    for (const auto& c : probe) {
      if (send_as_adversary(c).is_error() && &c != &probe.back()) {
        send_as_adversary(probe.back());
        break;
      }
    }
  }
  bool wrong = false;
  if (const Keyspace::Hash* row = world_.data().hash_at(QueueKeys(t.queue).row(t.id), wrong)) {
    const std::string* attempts = Keyspace::hash_field(*row, "attempts");
    const std::string* state = Keyspace::hash_field(*row, "state");
    t.attempts = attempts ? parse_int64(*attempts).value_or(0) : 0;
    t.active = state && *state == "active";
    t.exists = true;
  }
  // one adversarial call in four sets up a corrupt row, a key of the wrong type or a pending
  // list of ghosts on a queue of its own (a setup costs up to a few hundred calls). One in
  // ten was too few for the catalog it has grown into: over seeds 1-5 the mutants needed
  // 82 runs (geometric mean of the medians) and one was missed in 8000
  // (properties/mutants/reach.sh); then 31, and none more than 2900. With the adversarial client
  // in half the runs (PlanSpace::adversary_per_mille) and the ACL below at one in five, a
  // campaign makes 22% more calls. One in twenty of the rest sets up numbers and names at
  // their edges (draw_value_edges).
  const bool corruption = world_.prng().chance(250);
  if (corruption || world_.prng().chance(50)) {
    // a setup call refused (no module, a replica) or an ADD that added nothing ends it:
    // what follows would meet keys the setup did not make
    const auto calls = corruption ? draw_corruption_setup(world_.prng(), t) : draw_value_edges(world_.prng(), t);
    std::string deny;
    for (const auto& c : calls) {
      if (c[0] == "@DENY") {  // the next call goes out under an ACL denying this key
        deny = c[1];
        continue;
      }
      if (!deny.empty()) world_.deny_writes(deny);
      const std::size_t ghosts = c[0] == "EMQ.CLAIM" ? ghosts_in_pending(c[1]) : 0;
      const bool ghost_id = c[0] == "EMQ.ADD" && id_in_a_set(c[1], c[2]);
      if ((c[0] == "EMQ.ADD" || c[0] == "EMQ.FAIL") && seq_at_top(c[1])) saw(Situation::add_or_fail_met_seq_at_top);
      const Reply& reply = send_as_adversary(c);
      if (!deny.empty()) {
        world_.deny_writes("");
        deny.clear();
      }
      if (reply.kind() == Reply::Kind::array) {
        if (ghosts > 100) saw(Situation::claim_met_over_100_ghosts);
        if (ghosts > 1000) saw(Situation::claim_met_over_1000_ghosts);
      }
      if (ghost_id && reply.kind() == Reply::Kind::integer && reply.as_integer() == 1) saw(Situation::add_of_a_ghost_id);
      if (reply.is_error() || (c[0] == "EMQ.ADD" && !(reply.kind() == Reply::Kind::integer && reply.as_integer() == 1))) {
        // the setup's closing DEL still goes out: every id it made stays in the set its state names
        if (&c != &calls.back() && calls.back()[0] == "DEL") send_as_adversary(calls.back());
        break;
      }
    }
    return;
  }
  // one adversarial call in twenty is a well-formed call of the fleet's own sent to the server
  // while it is a replica (EMQ §6: every writing verb meets the fence, READONLY EMQ, and
  // writes nothing; the read verbs answer): the world never demotes a server otherwise
  if (world_.prng().chance(50)) {
    world_.set_replica(true);
    std::vector<std::string> replica_call = draw_fleet_call(world_.prng(), t);
    // an ADD of a new id, or (one time in two, when its row exists) of the target's own: an
    // ADD that would write nothing (0 on a primary) still meets the fence first
    if (replica_call[0] == "EMQ.ADD" && t.exists && world_.prng().chance(500)) replica_call[2] = t.id;
    const Reply& reply = send_as_adversary(replica_call);
    if (reply.is_error() && reply.text().starts_with("READONLY EMQ")) saw(Situation::write_refused_on_a_replica);
    world_.set_replica(false);
    return;
  }
  // one in five of the rest goes out under an ACL that denies one of the keys the call
  // would write: EMQ §6, NOPERM EMQ and nothing written, where the world otherwise lets
  // every caller write every key. Any of them, rows and seq, done and dead too: a verb
  // that forgets to ask about one key writes it anyway, and only an ACL on that very key
  // tells. Half the time, when the target holds a lease, a lease verb (the writes of a
  // live lease's COMPLETE or FAIL are the ones the fleet's calls rarely meet denied).
  if (world_.prng().chance(200)) {
    std::vector<std::string> fleet_call = draw_fleet_call(world_.prng(), t);
    if (t.active && world_.prng().chance(500)) {
      const std::string token = std::to_string(t.attempts), lease = std::to_string(t.lease_ms);
      switch (world_.prng().between(0, 3)) {
        case 0: fleet_call = {"EMQ.EXTEND", t.queue, t.id, token, lease}; break;
        case 1: fleet_call = extends_of_every_lease(t, token); break;
        case 2: fleet_call = {"EMQ.COMPLETE", t.queue, t.id, token, "ok"}; break;
        default: fleet_call = {"EMQ.FAIL", t.queue, t.id, token, "r"}; break;
      }
    } else if (world_.prng().chance(333) && expired_lease_in(t.queue)) {
      // a sweep that will judge an expired lease, so a row it writes may be the one denied
      fleet_call = {"EMQ.STALLED.CHECK", t.queue, std::to_string(t.max_stalled)};
    }
    const std::vector<std::string> keys = keys_written(t.queue, fleet_call);
    const std::string& denied = keys[static_cast<std::size_t>(world_.prng().between(0, static_cast<std::int64_t>(keys.size()) - 1))];
    world_.deny_writes(denied);
    const Reply& reply = send_as_adversary(fleet_call);
    if (reply.is_error() && reply.text().starts_with("NOPERM EMQ")) {
      saw(Situation::write_refused_by_acl);
      if (denied.find("}:job:") != std::string::npos) saw(Situation::write_refused_by_acl_on_a_row);
    }
    world_.deny_writes("");
    return;
  }
  send_as_adversary(draw_adversarial_call(world_.prng(), t));
}

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

RunSummary Runner::run() {
  if (options_.on_world) options_.on_world(world_);
  world_.stop_before_call(options_.stop_before_call);
  world_.begin("plan", "{\"plan\":" + plan_json(plan_) + "}");
  world_.phase("safety");
  // A long-lived queue (RunPlan::seq_start): an operator's SET puts each queue's counter far
  // past 0 before the first ADD, spelt as EMQ §1 names the key.
  if (plan_.seq_start > 0) {
    for (const std::string& queue : queue_names_) {
      call("op", argv_.clear().add("SET").add(SpecKeys(queue).key("seq")).add(plan_.seq_start));
    }
  }
  for (std::size_t i = 0; i < plan_.workers.size(); ++i) {
    Worker w;
    w.name = "w" + std::to_string(i);
    w.clock = LinearClock(plan_.workers[i].offset_ms,
                          static_cast<double>(plan_.workers[i].rate_per_mille) / 1000.0);
    w.scripted = static_cast<int>(i) < plan_.scripted_workers;
    w.next_queue = static_cast<int>(i % queue_names_.size());  // the fleet starts spread
    workers_.push_back(std::move(w));
  }
  for (int j = 1; j <= plan_.jobs; ++j) {
    const std::int64_t at_ms = world_.prng().between(0, std::max<std::int64_t>(0, plan_.add_spread_ms - 1));
    schedule(plan_.time_quantum_ms > 0 ? at_ms / plan_.time_quantum_ms * plan_.time_quantum_ms : at_ms,
             EventKind::add, j);
  }
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    const std::int64_t at_ms = world_.prng().between(0, plan_.poll_ms);
    want_claim(static_cast<int>(i),
               plan_.time_quantum_ms > 0 ? at_ms / plan_.time_quantum_ms * plan_.time_quantum_ms : at_ms);
  }
  schedule(plan_.sweep_interval_ms, EventKind::sweep);
  for (std::size_t i = 0; i < plan_.faults.size(); ++i) {
    if (plan_.faults[i].at_ms < plan_.safety_ms) schedule(plan_.faults[i].at_ms, EventKind::fault, static_cast<int>(i));
  }
  for (int i = 0; i < plan_.adversarial_calls; ++i) {
    const std::int64_t at_ms = world_.prng().between(0, plan_.safety_ms - 1);
    schedule(plan_.time_quantum_ms > 0 ? at_ms / plan_.time_quantum_ms * plan_.time_quantum_ms : at_ms, EventKind::adversarial_call);
  }
  schedule(plan_.safety_ms, EventKind::liveness);

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
      switch (e.kind) {
        case EventKind::add: on_add(e); break;
        case EventKind::claim: on_claim(e); break;
        case EventKind::extend_all: on_extend_all(e); break;
        case EventKind::extend_one: on_extend_one(e); break;
        case EventKind::finish: on_finish(e); break;
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
  for (std::size_t i = 2; i < world_.run_ids().size(); ++i) {
    for (std::size_t j = 1; j < i; ++j) {
      if (one_char_apart(world_.run_ids()[i], world_.run_ids()[j])) {
        saw(Situation::near_run_id);
        break;
      }
    }
  }
  if (summary.calls > 1000) saw(Situation::large_run);
  if (std::count(claimed_from_.begin(), claimed_from_.end(), true) >= 2) saw(Situation::several_queues);
  for (std::size_t i = 0; i < situation_count; ++i) {
    if (situations_[i]) summary.situations[std::string(situation_name(static_cast<Situation>(i)))] = situations_[i];
  }
  if (options_.keep_history_text) summary.history = world_.history().text();
  return summary;
}

}  // namespace

RunSummary run_plan(const RunPlan& plan, const RunOptions& options) {
  Runner runner(plan, options);
  return runner.run();
}

}  // namespace trafikey::sim
