// The fleet of a generated run: the producer `p` adds the plan's jobs, the workers `wK` claim,
// extend and finish them (natively or by the scripted executor's scripts), the sweeper `s`
// sweeps every queue on its interval (sim/run.h says how each acts). A run with an
// adversarial client has a sloppy fleet: its spellings and its values are in this file too.
#include <iterator>

#include "core/keys.h"
#include "sim/runner.h"

namespace trafikey::sim::driver {

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
}  // namespace

void Runner::start_fleet() {
  for (std::size_t i = 0; i < plan_.workers.size(); ++i) {
    Worker w;
    w.name = "w" + std::to_string(i);
    w.clock = LinearClock(plan_.workers[i].offset_ms,
                          static_cast<double>(plan_.workers[i].rate_per_mille) / 1000.0);
    w.scripted = static_cast<int>(i) < plan_.scripted_workers;
    w.wire2 = plan_.wire2_worker(static_cast<int>(i));
    w.next_queue = static_cast<int>(i % queue_names_.size());  // the fleet starts spread
    workers_.push_back(std::move(w));
  }
  for (int j = 1; j <= plan_.jobs; ++j) {
    schedule(at_on_grid(world_.prng().between(0, std::max<std::int64_t>(0, plan_.add_spread_ms - 1))), EventKind::add, j);
  }
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    want_claim(static_cast<int>(i), at_on_grid(world_.prng().between(0, plan_.poll_ms)));
  }
  schedule(plan_.sweep_interval_ms, EventKind::sweep);
}

const CallRecord& Runner::call_script(std::string_view actor, ExecutorScript script) {
  const CallRecord& rec = call(actor, argv_);
  if (rec.lost || !rec.reply.is_error() || !rec.reply.text().starts_with("NOSCRIPT")) return rec;
  const Args sent = argv_.views();
  const std::vector<std::string> rest(sent.begin() + 2, sent.end());
  argv_.clear().add("EVAL").add(executor_script_body(script));
  for (const std::string& arg : rest) argv_.add(arg);
  return call(actor, argv_);
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
    argv_.clear().add("EMQ.CLAIM").add(queue).add(plan_.lease_ms).add(lower ? "count" : "COUNT").add(count);
    if (w.wire2) argv_.add(lower ? "wire" : "WIRE").add(std::int64_t{2});
    sent = &call(w.name, argv_);
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
    const std::uint64_t gen = ++gens_;
    w.held.push_back(Held{claimed.items()[0].text(), claimed.items()[1].as_integer(),
                          claimed.items().size() > 3 ? claimed.items()[3].text() : std::string(), gen, qi});
    const std::int64_t work_ms = on_grid(world_.prng().between(plan_.work_min_ms, plan_.work_max_ms));
    schedule(after_worker_ms(w, work_ms), EventKind::finish, wi, gen);
    // the scripted executor has no EXTENDS: one extend.lua per lease
    if (!plan_.use_extends || w.scripted) schedule(after_worker_ms(w, extend_interval_ms()), EventKind::extend_one, wi, gen);
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
    for (const auto& h : sent) add_token(argv_.add(h.id), h);
    // a sloppy fleet names its first lease twice: both pairs are live, both answer 1
    if (sloppy()) add_token(argv_.add(sent[0].id), sent[0]);
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

// A timer of one lease (extend_one, finish): nothing when its worker no longer holds the
// lease; at resume when the worker is paused (defer).
void Runner::on_lease_timer(const Event& e) {
  Worker& w = workers_[static_cast<std::size_t>(e.actor)];
  Held* h = held(w, e.gen);
  if (!h || defer(w, e)) return;
  if (e.kind == EventKind::finish) {
    on_finish(e, w, *h);
  } else {
    on_extend_one(e, w, *h);
  }
}

void Runner::on_extend_one(const Event& e, Worker& w, const Held& h) {
  const std::string id = h.id;
  const std::string& queue = queue_name(h.queue);
  const CallRecord* sent = nullptr;
  if (w.scripted) {
    const QueueKeys keys(queue);
    script_argv(ExecutorScript::extend, 2).add(keys.active()).add(keys.row(id)).add(id).add(h.token).add(plan_.lease_ms);
    sent = &call_script(w.name, ExecutorScript::extend);
  } else {
    sent = &call(w.name, add_token(argv_.clear().add("EMQ.EXTEND").add(queue).add(id), h).add(plan_.lease_ms));
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

void Runner::on_finish(const Event& e, Worker& w, const Held& h) {
  const std::string id = h.id;
  const std::string& queue = queue_name(h.queue);
  const CallRecord* sent = nullptr;
  if (world_.prng().chance(plan_.fail_per_mille)) {
    // no script stands for FAIL: the scripted executor fails natively too
    sent = &call(w.name, add_token(argv_.clear().add("EMQ.FAIL").add(queue).add(id), h)
                             .add(sloppy() ? sloppy_text(id, plan_.seed) : "worker reported failure"));
  } else if (w.scripted) {
    const QueueKeys keys(queue);
    script_argv(ExecutorScript::complete, 3).add(keys.active()).add(keys.done()).add(keys.row(id));
    argv_.add(id).add(h.token).add("ok");
    sent = &call_script(w.name, ExecutorScript::complete);
  } else {
    add_token(argv_.clear().add("EMQ.COMPLETE").add(queue).add(id), h);
    if (!sloppy()) {
      argv_.add("ok");
    } else if (h.token % 2 == 1) {  // a sloppy fleet: no result, or an empty, binary or edge one
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

}  // namespace trafikey::sim::driver
