// The adversarial client's corruption setups (sim/adversarial_calls.h draw_corruption_setup):
// a queue of its own, a defect an operator or a bug could leave, and the verb that must meet it.
//
// Where a setup leaves a field out, or stamps the lease empty (a row an older version or a
// script wrote), the verb reads its default (EMQ §1: attempts 0, failures 0, max_failures 3;
// §2: an empty lease_epoch is "not this process") and goes on; the setup's last call deletes
// the row, so the job it moved is a ghost, not an open job.
#include <iterator>

#include "core/args.h"
#include "sim/adversarial_setup.h"

namespace trafikey::sim {

using namespace adversary;

namespace {
// How often the ghost setup makes 1001 ghosts instead of 101 (per mille).
constexpr std::int64_t ghosts_1001_per_mille = 250;
// How often the ghost setup instead adds a ghost's id again (per mille).
constexpr std::int64_t ghost_readded_per_mille = 250;

// A corruption setup on the queue t.queue + "-bad": job c's row, the keys beside the
// setup's names, and the corrupt counter value drawn for it. The first call clears the
// queue's keys and c's row.
struct Corruption : Setup {
  Corruption(const AdversaryTarget& t, std::string corrupt_value)
      : Setup(t, t.queue + "-bad", {}),
        row(k.row("c")), done(k.key("done")), dead(k.key("dead")), seq(k.key("seq")), bad(std::move(corrupt_value)) {
    calls.push_back(k.clear());
    calls.front().push_back(row);
  }
  std::string row, done, dead, seq, bad;
};

// One of the four lease verbs on job c, token 1 (one draw).
Call lease_verb_on_c(Prng& prng, const Corruption& s) { return lease_verb(prng, s.b, "c", "1", s.lease); }

// attempts corrupt on a pending job: CLAIM refuses; absent: CLAIM takes it as 0 (an id of its
// own each time: the checker's fence would take a second grant of token 1 to one id for a
// reissued token).
std::vector<Call> corrupt_attempts(Prng& prng, Corruption& s) {
  const bool absent = prng.chance(250);
  const std::string id = absent ? "a" + std::to_string(prng.between(0, 999999999)) : "c";
  Call hset{"HSET", s.k.row(id), "state", "pending", "payload", "p", "failures", "0", "max_failures", "3"};
  if (!absent) {
    hset.push_back("attempts");
    hset.push_back(s.bad);
  }
  return s.then({hset, {"ZADD", s.pending, "1", id}, {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"}, {"DEL", s.k.row(id)}});
}

// A job added (so the checker's ledger holds it and judges its budget too), then failures or
// max_failures deleted from its row, as an older version's row could lack it: failures is
// read as 0, max_failures as 3 (the third failure kills it). An id of its own each time, so
// the fence sees no token granted twice to one id.
std::vector<Call> budget_field_absent(Prng& prng, Corruption& s) {
  const std::string id = "f" + std::to_string(prng.between(0, 999999999));
  const bool no_failures = prng.chance(500);
  s.calls.push_back({"EMQ.ADD", s.b, id, "p"});
  s.calls.push_back({"HDEL", s.k.row(id), no_failures ? "failures" : "max_failures"});
  for (int i = 1; i <= (no_failures ? 1 : 3); ++i) {
    s.calls.push_back({"EMQ.CLAIM", s.b, s.lease, "COUNT", "1"});
    s.calls.push_back({"EMQ.FAIL", s.b, id, std::to_string(i), "r"});
  }
  return s.then({{"DEL", s.k.row(id)}});
}

// The row says pending or done while its id sits expired in active, stamped by this process:
// the sweep reads TYPE, group, lease_epoch, stalled only (EMQ §5), never state.
std::vector<Call> swept_row_not_saying_active(const AdversaryTarget& t, Corruption& s, bool done) {
  return s.then({{"HSET", s.row, "state", done ? "done" : "pending", "payload", "p", "attempts", "1", "failures", "0",
                  "max_failures", "3", "lease_epoch", t.run_id},
                 {"ZADD", s.active, "-1", "c"},
                 {"EMQ.STALLED.CHECK", s.b, "5"},
                 {"DEL", s.row}});
}

// The row says active with token 1, its budget sound, while the id is not in active (in
// pending, or in no set: an operator's ZREM): not live (EMQ §3 asks for the id in active
// first), 0 and nothing written by every lease verb.
std::vector<Call> active_row_off_active(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  const bool in_pending = prng.chance(500);
  s.calls.push_back({"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                     "max_failures", "3", "lease_epoch", t.run_id});
  if (in_pending) s.calls.push_back({"ZADD", s.pending, "1", "c"});
  return s.then({lease_verb_on_c(prng, s), {"DEL", s.row}});
}

// A lease whose row has no attempts or a non-canonical one ("01", "+1": never live, EMQ §3/§6),
// alone or beside a sound live lease of its own id in one EXTENDS: [1 0], the live one
// extended (a dead pair is no error while another pair is live).
std::vector<Call> noncanonical_attempts(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  static constexpr const char* noncanonical_tokens[] = {"", "01", "+1", "001"};  // "": no attempts field
  const std::string held = noncanonical_tokens[prng.between(0, 3)];
  const Call hset = with_field({"HSET", s.row, "state", "active", "payload", "p", "failures", "0", "max_failures", "3",
                                "lease_epoch", t.run_id},
                               "attempts", held);
  if (prng.chance(500)) {
    const std::string x = "x" + std::to_string(prng.between(0, 999999999));
    return s.then({hset,
                   {"HSET", s.k.row(x), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", "3", "lease_epoch", t.run_id},
                   {"ZADD", s.active, s.live_score, "c", s.live_score, x},
                   {"EMQ.EXTENDS", s.b, s.lease, x, "1", "c", "1"},
                   {"DEL", s.row, s.k.row(x)}});
  }
  return s.then({hset, {"ZADD", s.active, s.live_score, "c"}, lease_verb_on_c(prng, s), {"DEL", s.row}});
}

// Rows EMQ §1 allows but no fleet writes: a row saying active whose id sits in pending (CLAIM
// claims it: only a row that is not a hash is a ghost); a lease whose row has no attempts or a
// non-canonical one; a budget of 0, failures at or past it (FAIL dead-letters).
std::vector<Call> sound_rare_lease_row(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  const std::int64_t kind = prng.between(0, 3);
  if (kind == 0) {
    // c (a ghost to the checker since the setup's first DEL, so its row may disagree with its
    // set), its token drawn so that no two claims grant c the same one
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts",
                    std::to_string(prng.between(1, 999999999)), "failures", "0", "max_failures", "3", "lease_epoch",
                    t.run_id},
                   {"ZADD", s.pending, "1", "c"},
                   {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                   {"DEL", s.row}});
  }
  if (kind == 1) return noncanonical_attempts(prng, t, s);
  // a budget of 0 (sound: a non-negative integer), with no failure yet or some already (past
  // it: 2, or a count past 32 bits, or one below int64's top, which FAIL raises to the top);
  // a row over a budget of 1 or more would break queue.budget by itself
  static constexpr const char* past[] = {"2", "4294967296", "9223372036854775806"};
  const std::string failed = kind == 2 ? "0" : past[prng.between(0, 2)];
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", failed,
                  "max_failures", "0", "lease_epoch", t.run_id},
                 {"ZADD", s.active, s.live_score, "c"},
                 {"EMQ.FAIL", s.b, "c", "1", "r"},
                 {"DEL", s.row}});
}

// The row says pending, done or dead, or has no state at all (a row an operator's HDEL left),
// while its id sits in active at a live deadline with its token: not live (EMQ §3: the row
// says active), 0 and nothing written by every lease verb; its budget sound, so only the
// state tells.
std::vector<Call> live_deadline_row_not_saying_active(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  static constexpr const char* states[] = {"pending", "done", "dead", ""};
  const std::string state = states[prng.between(0, 3)];
  const Call hset = with_field({"HSET", s.row, "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                                "lease_epoch", t.run_id},
                               "state", state);
  return s.then({hset, {"ZADD", s.active, s.live_score, "c"}, lease_verb_on_c(prng, s), {"DEL", s.row}});
}

// A sound lease expired by one ms that no sweep has taken back yet (EMQ §3: expired when
// deadline < now): not live, 0 from every lease verb, however close.
std::vector<Call> expired_by_one_ms(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                  "max_failures", "3", "lease_epoch", t.run_id},
                 {"ZADD", s.active, std::to_string(t.server_ms - 1), "c"},
                 lease_verb_on_c(prng, s),
                 {"DEL", s.row}});
}

// failures or max_failures corrupt under a live lease: FAIL refuses; or (`not_active`) the row
// says pending while the id sits in active with its token: not live (0). Or one of the rows
// around a lease above, by `shape`'s range (drawn 0..999).
std::vector<Call> lease_row(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  if (prng.chance(250)) return budget_field_absent(prng, s);
  const bool failures = prng.chance(500);
  const std::int64_t shape = prng.between(0, 999);
  if (shape >= 900) return swept_row_not_saying_active(t, s, shape >= 950);
  if (shape < 125) return active_row_off_active(prng, t, s);
  if (shape >= 250 && shape < 450) return sound_rare_lease_row(prng, t, s);
  const bool not_active = shape < 250;
  if (not_active && prng.chance(500)) return live_deadline_row_not_saying_active(prng, t, s);
  if (shape >= 450 && shape < 525) return expired_by_one_ms(prng, t, s);
  return s.then({{"HSET", s.row, "state", not_active ? "pending" : "active", "payload", "p", "attempts", "1",
                  "failures", failures ? s.bad : "0", "max_failures", failures ? "3" : s.bad},
                 {"ZADD", s.active, s.live_score, "c"},
                 {"EMQ.FAIL", s.b, "c", "1", "r"},
                 {"DEL", s.row}});
}

// stalled corrupt on an expired lease of this process: the sweep counts it and refuses;
// stamped empty, or with the run_id in upper case (EMQ §2: another byte is another process):
// exempt, stalled never read (recovered).
std::vector<Call> corrupt_stalled(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  const std::int64_t stamp = prng.between(0, 999);
  const std::string stamp_text = stamp < 200   ? std::string()
                                 : stamp < 400 ? upper_case(t.run_id)
                                 : stamp < 550 ? t.run_id + "0"
                                               : t.run_id;
  if (prng.chance(125)) {  // stalled already past the sweep's budget (a sweep with a larger one counted it)
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                    "lease_epoch", t.run_id, "stalled", "7"},
                   {"ZADD", s.active, "-1", "c"},
                   {"EMQ.STALLED.CHECK", s.b, "5"},
                   {"DEL", s.row}});
  }
  if (prng.chance(250)) {  // a sound member first and LIMIT 1: c lies past the LIMIT; or
                           // without LIMIT: c0 judged, then c refuses the whole sweep (a
                           // refusal mid-walk: nothing written, nothing of it kept for the
                           // next sweep)
    const std::string row0 = s.k.row("c0");
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                    "lease_epoch", t.run_id, "stalled", s.bad},
                   {"HSET", row0, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                    "lease_epoch", t.run_id},
                   {"ZADD", s.active, "-2", "c0", "-1", "c"},
                   prng.chance(500) ? Call{"EMQ.STALLED.CHECK", s.b, "5", "LIMIT", "1"} : Call{"EMQ.STALLED.CHECK", s.b, "5"},
                   {"DEL", s.row, row0}});
  }
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                  "lease_epoch", stamp_text, "stalled", s.bad},
                 {"ZADD", s.active, "-1", "c"},
                 {"EMQ.STALLED.CHECK", s.b, "5"},
                 {"DEL", s.row}});
}

// Job z added, its row deleted (a ghost, as the checker knows it) and its key made a zset:
// JOB refuses, ADD finds the key taken, CLAIM and the sweep take z for a ghost, the lease
// verbs find no live lease.
std::vector<Call> row_key_of_wrong_type(Prng& prng, Corruption& s) {
  const std::string zrow = s.k.row("z");
  for (const Call& c : {Call{"DEL", zrow}, Call{"EMQ.ADD", s.b, "z", "p"}, Call{"DEL", zrow}, Call{"ZADD", zrow, "1", "m"}}) {
    s.calls.push_back(c);
  }
  switch (prng.between(0, 3)) {
    case 0: return s.then({pick(prng, {{"EMQ.JOB", s.b, "z"}, {"EMQ.ADD", s.b, "z", "p"}})});
    case 1: return s.then({{"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"}});
    case 2:
      if (prng.chance(500)) {  // under an ACL that denies z's row key: the sweep writes only active
        return s.then({{"ZREM", s.pending, "z"}, {"ZADD", s.active, "-1", "z"}, {"@DENY", zrow},
                       {"EMQ.STALLED.CHECK", s.b, "5"}});
      }
      return s.then({{"ZREM", s.pending, "z"}, {"ZADD", s.active, "-1", "z"}, {"EMQ.STALLED.CHECK", s.b, "5"}});
    default:
      return s.then({{"ZREM", s.pending, "z"},
                     {"ZADD", s.active, s.live_score, "z"},
                     pick(prng, {{"EMQ.EXTEND", s.b, "z", "1", s.lease}, {"EMQ.COMPLETE", s.b, "z", "1"},
                                 {"EMQ.FAIL", s.b, "z", "1", "r"}, {"EMQ.EXTENDS", s.b, s.lease, "z", "1"}})});
  }
}

// One ghost's id added again: its row deleted while the id sits in pending (or, claimed
// first, in active), then the same ADD. EMQ §4 asks only whether the row key exists, so it
// adds (1); a core that also looks for the id in a set answers 0. The row deleted again at
// the end: a ghost, not an open job. An id of its own each time (the claim grants token 1,
// which the checker's fence takes once per id).
std::vector<Call> ghost_id_added_again(Prng& prng, Corruption& s) {
  const std::string id = "r" + std::to_string(prng.between(0, 999999999));
  const Call add{"EMQ.ADD", s.b, id, "p"};
  s.calls.push_back(add);
  if (prng.chance(500)) s.calls.push_back({"EMQ.CLAIM", s.b, s.lease, "COUNT", "1"});
  return s.then({{"DEL", s.k.row(id)}, add, {"DEL", s.k.row(id)}});
}

// 1001 ghosts, one past the bound: the CLAIM removes the 1000 lowest and leaves g1000. Their
// rows deleted first (to the checker's ledger a DEL makes an id a ghost) and then the ids put
// in pending by hand: three calls, where 1001 ADDs would cost a thousand checked calls and a
// history no shorter than that.
std::vector<Call> ghosts_past_the_bound(Prng& prng, Corruption& s) {
  Call del{"DEL"}, zadd{"ZADD", s.pending};
  for (int i = 0; i < 1001; ++i) {
    const std::string id = "g" + std::to_string(i);
    del.push_back(s.k.row(id));
    zadd.push_back(std::to_string(i + 1));
    zadd.push_back(id);
  }
  // COUNT drawn so that the batch the core reads (COUNT + 8 ids, or whatever a core chooses)
  // need not end exactly at the 1000th ghost: COUNT 2 alone let a bound checked only between
  // batches pass. One time in two a sound pending row lies behind the ghosts: past the bound,
  // so not claimed (EMQ §7: the CLAIM then answers what it claimed so far), which a bound that
  // caps only removals claims.
  const std::int64_t shape = prng.between(0, 3);
  const Call claim = shape == 0 ? Call{"EMQ.CLAIM", s.b, s.lease}
                                : Call{"EMQ.CLAIM", s.b, s.lease, "COUNT", shape == 1 ? "1" : shape == 2 ? "2" : "7"};
  if (prng.chance(500)) {
    const std::string id = "b" + std::to_string(prng.between(0, 999999999));
    return s.then({del, zadd, {"EMQ.STATS", s.b},
                   {"HSET", s.k.row(id), "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", s.pending, "1002", id}, claim, {"DEL", s.k.row(id)}});
  }
  return s.then({del, zadd, {"EMQ.STATS", s.b}, claim});
}

// More than 100 jobs added and their rows deleted: ghosts in pending, which one CLAIM
// removes, up to 1000 of them (EMQ §7), however few it claims.
std::vector<Call> ghosts_in_pending(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  if (prng.chance(ghost_readded_per_mille)) return ghost_id_added_again(prng, s);
  if (prng.chance(ghosts_1001_per_mille)) return ghosts_past_the_bound(prng, s);
  Call del{"DEL"};
  for (int i = 0; i < 101; ++i) {
    const std::string id = "g" + std::to_string(i);
    s.calls.push_back({"EMQ.ADD", s.b, id, "p"});
    del.push_back(s.k.row(id));
  }
  // one time in four with a lease whose deadline passes 2^53-1 (EMQ §3): refused whole, the
  // ghosts left in pending, though no lease would be granted
  const std::string ghost_lease = prng.chance(250) ? std::to_string(score_max - t.server_ms + 1) : s.lease;
  return s.then({del, {"EMQ.CLAIM", s.b, ghost_lease, "COUNT", "2"}});
}

// A set key of the wrong type: every verb that reads it refuses (ADD reads pending, not
// active: with only active wrong it would add, and the queue's next clearing would take a job
// from under the checker). A hash, or one time in three a string (seq excepted: a string is
// its type): EMQ §6 refuses any type but a zset, and a check that looks for the one wrong type
// it expects (a hash) passes a string.
std::vector<Call> set_key_of_wrong_type(Prng& prng, const AdversaryTarget& t, Corruption& s) {
  const std::int64_t which = prng.between(0, 4);
  auto wrong_type = [&](const std::string& key) {
    return key != s.seq && prng.chance(333) ? Call{"SET", key, "v"} : Call{"HSET", key, "f", "v"};
  };
  if (which >= 2) {
    // done, dead or seq, which a verb reads only on its way to write it: a live lease of c
    // (budget 1 when dead is the key: its FAIL kills) and the verb that would write the key;
    // refused before any write (EMQ §6)
    const std::string& key = which == 2 ? s.done : which == 3 ? s.dead : s.seq;
    if (which == 3 && prng.chance(500)) {  // the sweep that would kill c meets dead a hash
      return s.then({wrong_type(key),
                     {"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                      "3", "lease_epoch", t.run_id},
                     {"ZADD", s.active, "-1", "c"},
                     {"EMQ.STALLED.CHECK", s.b, "1"},
                     {"DEL", s.row}});
    }
    return s.then({wrong_type(key),
                   {"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                    which == 3 ? "1" : "3", "lease_epoch", t.run_id},
                   {"ZADD", s.active, s.live_score, "c"},
                   prng.chance(250) ? Call{"EMQ.STATS", s.b}
                   : which == 2     ? Call{"EMQ.COMPLETE", s.b, "c", prng.chance(500) ? "2" : "1", "r"}
                   : which == 3     ? Call{"EMQ.FAIL", s.b, "c", prng.chance(500) ? "2" : "1", "r"}  // 2: not live, still WRONGTYPE
                                    : pick(prng, {{"EMQ.FAIL", s.b, "c", "1", "r"}, {"EMQ.ADD", s.b, "n", "p"}}),
                   {"DEL", s.row}});
  }
  const bool in_pending = which == 0;
  if (in_pending && prng.chance(250)) {  // a FAIL that would dead-letter meets pending a hash
    return s.then({wrong_type(s.pending),
                   {"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                    "1", "lease_epoch", t.run_id},
                   {"ZADD", s.active, s.live_score, "c"},
                   {"EMQ.FAIL", s.b, "c", prng.chance(500) ? "2" : "1", "r"},  // 2: not live, still WRONGTYPE (EMQ §6)
                   {"DEL", s.row}});
  }
  return s.then({wrong_type(in_pending ? s.pending : s.active),
                 pick(prng, {in_pending ? Call{"EMQ.ADD", s.b, "c", "p"} : Call{"EMQ.COMPLETE", s.b, "c", "1"},
                             {"EMQ.CLAIM", s.b, s.lease}, {"EMQ.STATS", s.b}, {"EMQ.STALLED.CHECK", s.b, "1"},
                             {"EMQ.EXTEND", s.b, "c", "1", s.lease}, {"EMQ.EXTENDS", s.b, s.lease, "c", "1"}})});
}

// seq where INCR refuses (EMQ §6: the server's "ERR value is not an integer or out of range",
// before any write): at int64's top or not an integer; or one below the top, where one INCR
// works and the next refuses (2^63, past int64, refused; -5, a counter INCR takes, for the
// ADDs only: a FAIL that requeues on it would be an ordinary requeue).
std::vector<Call> seq_where_incr_refuses(Prng& prng, Corruption& s) {
  static constexpr const char* seqs[] = {"9223372036854775807", "9223372036854775806", "x", "", "-0",
                                         "9223372036854775808", "-5"};
  const std::string value = seqs[prng.between(0, static_cast<std::int64_t>(std::size(seqs)) - 1)];
  if (value == "-5" || prng.chance(500)) {  // ADD; c's row deleted between, so the second ADD would add
    return s.then({{"SET", s.seq, value}, {"EMQ.ADD", s.b, "c", "p"}, {"DEL", s.row}, {"EMQ.ADD", s.b, "c", "p"}});
  }
  // FAIL requeues under a live lease with failures below the budget: it INCRs seq too (or,
  // with a budget of 1, dead-letters without reading seq)
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                  prng.chance(500) ? "1" : "3"},
                 {"ZADD", s.active, s.live_score, "c"},
                 {"SET", s.seq, value},
                 {"EMQ.FAIL", s.b, "c", "1", "r"},
                 {"DEL", s.row}});
}
}  // namespace

std::vector<std::vector<std::string>> draw_corruption_setup(Prng& prng, const AdversaryTarget& t) {
  // not a non-negative integer, as the server could hold it (EMQ §6; "-0" is not one either:
  // the server writes no sign on 0)
  static constexpr const char* corrupt[] = {"-1", "x", "01", "", "-0", "9223372036854775807", "-9999999999999999999"};
  Corruption s(t, corrupt[prng.between(0, static_cast<std::int64_t>(std::size(corrupt)) - 1)]);
  switch (prng.between(0, 10)) {
    case 0: return corrupt_attempts(prng, s);
    case 1: return lease_row(prng, t, s);
    case 2: return corrupt_stalled(prng, t, s);
    case 3: return row_key_of_wrong_type(prng, s);
    case 4: return ghosts_in_pending(prng, t, s);
    case 5: return set_key_of_wrong_type(prng, t, s);
    case 6: return many_jobs(prng, t, s.b);
    case 7: return long_names(prng, t);
    case 8: return two_id_setups(prng, t, s.b, s.calls, s.bad);
    case 9: return rare_rows(prng, t, s.b, s.calls);
    default: return seq_where_incr_refuses(prng, s);
  }
}

}  // namespace trafikey::sim
