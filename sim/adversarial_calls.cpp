#include "sim/adversarial_calls.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>

#include "core/args.h"

namespace trafikey::sim {

namespace {
using Call = std::vector<std::string>;

// How often the ghost setup makes 1001 ghosts instead of 101 (per mille).
constexpr std::int64_t ghosts_1001_per_mille = 250;
// How often the ghost setup instead adds a ghost's id again (per mille).
constexpr std::int64_t ghost_readded_per_mille = 250;
// How often the many-jobs setup gives its ids runs of equal scores and bytes above 0x7f.
constexpr std::int64_t ties_per_mille = 333;
// How often the setup of an id in pending and active at once deletes its row (a ghost in both).
constexpr std::int64_t ghost_in_both_per_mille = 500;
// How often the long-lease setup puts a deadline in active by hand instead (+inf, past int64).
constexpr std::int64_t hand_deadline_per_mille = 333;

// Numbers no argument accepts (EMQ §6, §7): zero and below where the range starts at 1,
// not a number, empty, a leading zero or sign, a fraction, a space, past int64, and past
// 2^64 (2^64 + 1: a parse that lets 64 bits wrap reads it as 1); and a sign on a number of
// 19 digits or more (the length a parser may take apart from the short ones: "+1" alone
// would not reach it); and a number with a space or a line end after it, or a NUL and a
// byte after it (a parser that trims the text, or stops where a C string would end, as
// strtoll's end pointer does, takes each for a number).
using namespace std::string_view_literals;
constexpr std::string_view bad_numbers[] = {"0", "-1", "x", "", "01", "+1", "1.5", " 1", "9223372036854775808",
                                            "18446744073709551617", "-9223372036854775809", "0000000000000000001",
                                            "+9223372036854775807", "+1000000000000000000", "1 ", "10\r\n",
                                            "1\0"sv, "1\0" "0"sv};

// A name EMQ §1 allows (no brace, no NUL) with the bytes a stricter check might refuse: a
// colon (the key separator), a byte above 0x7f, CR, LF, a tab and a space. As a queue name
// or a job id every verb must take it: a core that refuses any of them differs only here.
constexpr const char* rare_bytes_name = "q:\xff\r\n\t x";

// The largest token (EMQ §7: 1..2^63-1), a number every lease verb takes: never a live
// lease's (a row holding it is corrupt, EMQ §6), so the answer is 0; a range checked one
// too tightly refuses it.
constexpr const char* token_top = "9223372036854775807";

std::string bad_number(Prng& prng) {
  return std::string(bad_numbers[prng.between(0, static_cast<std::int64_t>(std::size(bad_numbers)) - 1)]);
}

Call pick(Prng& prng, std::initializer_list<Call> calls) {
  return *(calls.begin() + prng.between(0, static_cast<std::int64_t>(calls.size()) - 1));
}

// A setup's list with `more` after it, as each case of a setup returns it.
std::vector<Call> then_append(std::vector<Call>& calls, std::initializer_list<Call> more) {
  calls.insert(calls.end(), more.begin(), more.end());
  return calls;
}

// What a setup on queue `b` writes with: the spec's key names, the run's lease, and a
// deadline live now (the server's clock plus the lease), as texts.
struct SetupNames {
  SetupNames(const AdversaryTarget& t, const std::string& b)
      : k(b), pending(k.key("pending")), active(k.key("active")), lease(std::to_string(t.lease_ms)),
        live_score(std::to_string(t.server_ms + t.lease_ms)) {}
  SpecKeys k;
  std::string pending, active, lease, live_score;
};

// `hset` with the field `name` set to `value` after the others; as it is when `value` is
// empty (a row without that field).
Call with_field(Call hset, const char* name, const std::string& value) {
  if (!value.empty()) {
    hset.push_back(name);
    hset.push_back(value);
  }
  return hset;
}

// One of the four lease verbs on job c, token 1, on queue b (one draw).
Call lease_verb_on_c(Prng& prng, const std::string& b, const std::string& lease) {
  return pick(prng, {{"EMQ.EXTEND", b, "c", "1", lease}, {"EMQ.EXTENDS", b, lease, "c", "1"},
                     {"EMQ.COMPLETE", b, "c", "1", "r"}, {"EMQ.FAIL", b, "c", "1", "r"}});
}

std::string upper_case(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

// `n` bytes a name may hold (EMQ §1: no brace, no NUL), a colon and a byte above 0x7f
// among them, drawn from `prng`.
std::string name_bytes(Prng& prng, std::size_t n) {
  static constexpr char pool[] = {'a', 'b', 'z', '0', '9', ':', '-', ' ', '\xff', '\x80', '\x01', '~'};
  std::string s(n, 'a');
  for (char& c : s) c = pool[prng.between(0, static_cast<std::int64_t>(std::size(pool)) - 1)];
  return s;
}

// More than 100 jobs at once on the adversarial client's queue, then one verb over all of them: a
// CLAIM with a COUNT above 100 (EMQ §4: up to COUNT, at most 1000), or a sweep without
// LIMIT (its default, 1000) of their expired leases, stamped by this process, by none or by
// the run_id in upper case; one sweep in eight over 1001-1010 of them with a LIMIT above
// 1000 (10000, or all of them), which a LIMIT capped at its default would cut. The fleet
// never holds more than a few dozen jobs in one place; without this a COUNT or default
// LIMIT capped at 100 passes. Their rows and set entries
// are written by one script (fill_script), where a hundred ADDs would cost a hundred
// checked calls and a hundred HSETs a history the minimizer cannot cut below a hundred
// steps. The rows deleted at the end (ghosts); their ids new each time (the checker's fence
// takes one grant of a token per id).
constexpr const char* fill_script = R"lua(local active = ARGV[1] == 'active'
for j = 1, #KEYS - 1 do
  local id, score, stamp = ARGV[3 * j - 1], ARGV[3 * j], ARGV[3 * j + 1]
  if active then
    redis.call('HSET', KEYS[j + 1], 'state', 'active', 'payload', 'p', 'attempts', '1', 'failures', '0',
               'max_failures', '3', 'lease_epoch', stamp, 'stalled', '0')
  else
    redis.call('HSET', KEYS[j + 1], 'state', 'pending', 'payload', 'p', 'attempts', '0', 'failures', '0',
               'max_failures', '3')
  end
  redis.call('ZADD', KEYS[1], score, id)
end
return #KEYS - 1)lua";

std::vector<Call> many_jobs(Prng& prng, const AdversaryTarget& t, const std::string& b) {
  const SpecKeys k(b);
  const std::string pending = k.key("pending"), active = k.key("active");
  int n = static_cast<int>(prng.chance(125) ? prng.between(257, 300) : prng.between(101, 130));
  const std::string base = "k" + std::to_string(prng.between(0, 999999999)) + "-";
  const bool sweep = prng.chance(500);
  const bool over_1000 = sweep && prng.chance(125);  // past LIMIT's default and COUNT's bound
  if (over_1000) n = static_cast<int>(prng.between(1001, 1010));
  const std::string upper = upper_case(t.run_id);
  // Drawn after the draws above: one time in three the scores come in runs of equal ones (deadlines or orders: what one CLAIM's or one
  // EXTENDS's leases share, what a sweep's requeues share) and each id carries, right after
  // the common base, a byte of 0x01, 'a', 0x80 or 0xff, so a run's order is its ids' bytes
  // (EMQ §1: ties by id bytes, unsigned); a sweep then has a LIMIT that may cut a run. The
  // fleet's leases tie only among ids of ASCII digits and no sweep of it cuts a run: a core
  // that orders ties by signed bytes, or lets LIMIT cut a run otherwise, passes without this.
  const bool ties = prng.chance(ties_per_mille);
  static constexpr char tie_bytes[] = {'\x01', 'a', '\x80', '\xff'};
  // and a CLAIM, one time in three, over 257..300 of them (its EXTENDS below then has more
  // than 255 live pairs)
  if (!sweep && prng.chance(333)) n = static_cast<int>(prng.between(257, 300));
  // EVAL body numkeys set row... mode (id score stamp)...
  Call fill{"EVAL", fill_script, std::to_string(n + 1), sweep ? active : pending};
  Call args{sweep ? "active" : "pending"}, del{"DEL"};
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i) {
    const std::string id = ties ? base + tie_bytes[(i * 7 + i / 4) % 4] + std::to_string(i) : base + std::to_string(i);
    ids.push_back(id);
    fill.push_back(k.row(id));
    del.push_back(k.row(id));
    args.push_back(id);
    if (ties) {
      args.push_back(std::to_string(sweep ? -1 - (n - i) / 5 : 1 + i / 5));  // runs of five
    } else {
      args.push_back(std::to_string(sweep ? i - n : i + 1));  // expired: below any server time
    }
    args.push_back(i % 3 == 0 ? t.run_id : i % 3 == 1 ? upper : std::string());
  }
  fill.insert(fill.end(), args.begin(), args.end());
  // STATS over them (EMQ §4: ZCARD of each set): 101..130, 257..300 or 1001..1010 in one set,
  // past 255 (a count kept in a byte) and 1000 (a count read as one page of members); the
  // fleet's sets hold a few dozen at most.
  std::vector<Call> calls{k.clear(), fill, {"EMQ.STATS", b}};
  if (sweep && ties && !over_1000) {
    calls.push_back({"EMQ.STALLED.CHECK", b, prng.chance(500) ? "1" : "5", "LIMIT", std::to_string(prng.between(2, n - 1))});
  } else if (sweep) {
    if (over_1000) {
      calls.push_back({"EMQ.STALLED.CHECK", b, "5", "LIMIT", prng.chance(500) ? "10000" : std::to_string(n)});
    } else {
      calls.push_back({"EMQ.STALLED.CHECK", b, prng.chance(500) ? "1" : "5"});
    }
  } else {
    const std::int64_t r = prng.between(0, 2);  // all of them, the bound, or fewer than all
    const std::int64_t count = r == 0 ? n : r == 1 ? 1000 : prng.between(101, n - 1);
    if (prng.chance(200)) {
      calls.push_back({"EMQ.CLAIM", b, std::to_string(t.lease_ms)});  // no COUNT: one
    } else {
      calls.push_back({"EMQ.CLAIM", b, std::to_string(t.lease_ms), "COUNT", std::to_string(count)});
    }
    // Then, one time in two, an EXTENDS of every one of them with token 1 and a longer lease
    // (the setup's calls share one instant: the CLAIM's lease again would write nothing new):
    // live for those the CLAIM took (up to all 101..300: past 100 and 255 live pairs in one
    // call), 0 for the rest (EMQ §4: every live pair re-scored and stamped). The fleet extends
    // only what one worker holds, a dozen or so: a core that answers or writes only the first
    // hundred (or 255) pairs passes without this.
    if (prng.chance(500)) {
      Call extends{"EMQ.EXTENDS", b, std::to_string(2 * t.lease_ms)};
      for (const std::string& id : ids) {
        extends.push_back(id);
        extends.push_back("1");
      }
      calls.push_back(extends);
    }
  }
  calls.push_back(del);
  return calls;
}

// A queue name of 17..200 bytes and a job id of 17..200 (often 17..24) with a colon and
// bytes above 0x7f, and a payload of 0, 4095..4097 or up to 70000 bytes: added, claimed,
// then extended, completed or failed, read by JOB and STATS (EMQ §1: names up to 200 bytes,
// any byte but a brace or NUL; payloads opaque). The fleet's names are a few bytes and its
// payloads "payload-N": a core that builds a longer name, or stores a longer payload,
// wrong passes every run without this. The row deleted at the end (a ghost); the id new
// each time.
std::vector<Call> long_names(Prng& prng, const AdversaryTarget& t) {
  std::string q = t.queue + "-long-";
  const auto q_len = static_cast<std::size_t>(prng.chance(250) ? prng.between(9, 16) : prng.between(17, 200));
  if (q.size() < q_len) q += name_bytes(prng, q_len - q.size());
  std::string id = "L" + std::to_string(prng.between(0, 999999999)) + ":";
  const auto id_len = static_cast<std::size_t>(prng.chance(500) ? prng.between(17, 24) : prng.between(17, 200));
  if (id.size() < id_len) id += name_bytes(prng, id_len - id.size());
  // (and 65535..65537: a length kept in 16 bits wraps there)
  static constexpr std::int64_t sizes[] = {0, 4095, 4096, 4097, 65535, 65536, 65537};
  const std::int64_t size = prng.chance(200) ? prng.between(4098, 70000) : sizes[prng.between(0, 6)];
  std::string payload(static_cast<std::size_t>(size), 'p');
  for (std::size_t i = 0; i < payload.size(); i += 997) payload[i] = static_cast<char>(i % 251);  // a NUL among them
  const SpecKeys k(q);
  const std::string lease = std::to_string(t.lease_ms);
  if (prng.chance(500)) {
    // the long row key denied: NOPERM EMQ names it whole, however long (EMQ §6)
    return {k.clear(), {"@DENY", k.row(id)}, {"EMQ.ADD", q, id, payload}, {"DEL", k.row(id)}};
  }
  // half the time a budget of 1, so its FAIL dead-letters into the long queue's dead set
  const std::string budget = prng.chance(500) ? "1" : "3";
  return {k.clear(),
          {"EMQ.ADD", q, id, payload, "MAXFAILURES", budget},
          {"EMQ.CLAIM", q, lease, "COUNT", "2"},
          pick(prng, {{"EMQ.EXTEND", q, id, "1", lease}, {"EMQ.EXTENDS", q, lease, id, "1"},
                      {"EMQ.COMPLETE", q, id, "1", payload}, {"EMQ.FAIL", q, id, "1", payload}}),
          {"EMQ.JOB", q, id},
          {"EMQ.STATS", q},
          {"DEL", k.row(id)}};
}

// EXTENDS with `pairs` pairs of the target's id and a token ahead of its row (never live).
Call extends_with(const AdversaryTarget& t, int pairs, const std::string& ahead) {
  Call c{"EMQ.EXTENDS", t.queue, std::to_string(t.lease_ms)};
  for (int i = 0; i < pairs; ++i) {
    c.push_back(t.id);
    c.push_back(ahead);
  }
  return c;
}
}  // namespace

std::vector<std::string> draw_adversarial_call(Prng& prng, const AdversaryTarget& t) {
  const std::string& q = t.queue;
  const std::string& id = t.id;
  const std::string lease = std::to_string(t.lease_ms);
  const std::string ahead = std::to_string(t.attempts + 1);  // one past the row's token: never live
  const std::string budget = std::to_string(t.max_stalled);
  const std::string name200(200, 'n'), name201(201, 'n');
  switch (prng.between(0, 19)) {
    case 0: return {"EMQ.STATS", q};
    case 1: return {"EMQ.JOB", q, id};
    case 2: return {"EMQ.EPOCH"};
    case 3:  // verb names match in any case
      return pick(prng, {{"emq.stats", q}, {"Emq.Job", q, id}, {"emq.epoch"}, {"emq.claim", q, "0"}});
    case 4:  // names of 200 bytes are names; 201 bytes are not (EMQ §1)
      return pick(prng, {{"EMQ.JOB", q, name200}, {"EMQ.JOB", q, name201}, {"EMQ.STATS", name200},
                         {"EMQ.STATS", name201}, {"EMQ.COMPLETE", q, name200, "1"}});
    case 5:  // queue names with a brace or NUL, or empty; or with bytes EMQ §1 allows
      return pick(prng, {{"EMQ.STATS", "a{b"}, {"EMQ.STATS", "a}"}, {"EMQ.STATS", ""},
                         {"EMQ.STATS", std::string("a\0b", 3)}, {"EMQ.CLAIM", "{" + q + "}", lease},
                         {"EMQ.STATS", rare_bytes_name}, {"EMQ.CLAIM", rare_bytes_name, lease, "COUNT", "2"}});
    case 6:  // ids empty or with a NUL; an id with braces and a space is an id (EMQ §1:
             // only NUL is not), with no row, and so is one with a colon, a high byte, CR, LF
      return pick(prng, {{"EMQ.JOB", q, ""}, {"EMQ.JOB", q, std::string("j\0", 2)}, {"EMQ.COMPLETE", q, "", "1"},
                         {"EMQ.ADD", q, "", "p"}, {"EMQ.JOB", q, "{j} x"}, {"EMQ.JOB", q, rare_bytes_name},
                         {"EMQ.EXTEND", q, rare_bytes_name, "1", lease}, {"EMQ.EXTEND", q, "", "1", lease},
                         {"EMQ.EXTENDS", q, lease, "", "1"}});
    case 7:  // lease_ms out of 1..2^53-1, or a deadline one past 2^53-1 (EMQ §3: refused)
      return pick(prng, {{"EMQ.CLAIM", q, bad_number(prng)}, {"EMQ.CLAIM", q, "9007199254740992"},
                         {"EMQ.CLAIM", q, bad_number(prng), "COUNT", "1"},
                         {"EMQ.CLAIM", q, std::to_string(score_max - t.server_ms + 1)}});
    case 8:  // COUNT out of 1..1000, without value, repeated, another verb's option, or
             // spelt with a byte after it or one short (EMQ §7: the keyword, nothing else)
      return pick(prng, {{"EMQ.CLAIM", q, lease, "COUNT", "0"}, {"EMQ.CLAIM", q, lease, "COUNT", "1001"},
                         {"EMQ.CLAIM", q, lease, "COUNTX", "1"}, {"EMQ.CLAIM", q, lease, "coun", "1"},
                         {"EMQ.CLAIM", q, lease, "COUNT"}, {"EMQ.CLAIM", q, lease, "COUNT", "1", "COUNT", "1"},
                         {"EMQ.CLAIM", q, lease, "LIMIT", "1"}, {"EMQ.CLAIM", q, lease, "COUNT", bad_number(prng)}});
    case 9:  // EXTEND: a bad token or lease, a token ahead of the row, the longest lease,
             // the largest token
      return pick(prng, {{"EMQ.EXTEND", q, id, bad_number(prng), lease}, {"EMQ.EXTEND", q, id, ahead, bad_number(prng)},
                         {"EMQ.EXTEND", q, id, token_top, lease},
                         {"EMQ.EXTEND", q, id, ahead, lease}, {"EMQ.EXTEND", q, id, ahead, "9007199254740991"},
                         {"EMQ.EXTEND", q, id, ahead, "1"}});
    case 10:  // COMPLETE: ahead (0), with and without result; extra argument; bad token;
              // the largest token
      return pick(prng, {{"EMQ.COMPLETE", q, id, ahead}, {"EMQ.COMPLETE", q, id, ahead, "r"}, {"EMQ.COMPLETE", q, id, token_top},
                         {"EMQ.COMPLETE", q, id, ahead, "r", "extra"}, {"EMQ.COMPLETE", q, id, bad_number(prng)}});
    case 11:  // FAIL: ahead (0); without reason; bad token; the largest token
      return pick(prng, {{"EMQ.FAIL", q, id, ahead, "odd"}, {"EMQ.FAIL", q, id, ahead}, {"EMQ.FAIL", q, id, token_top, "odd"},
                         {"EMQ.FAIL", q, id, bad_number(prng), "odd"}, {"EMQ.FAIL", q, id, ahead, "odd", "extra"}});
    case 12:  // EXTENDS: ahead ([0]); an id without token; a bad lease or token; the largest token
      return pick(prng, {{"EMQ.EXTENDS", q, lease, id, ahead}, {"EMQ.EXTENDS", q, lease, id, ahead, id},
                         {"EMQ.EXTENDS", q, lease, id, token_top},
                         {"EMQ.EXTENDS", q, bad_number(prng), id, ahead}, {"EMQ.EXTENDS", q, lease, id, bad_number(prng)},
                         {"EMQ.EXTENDS", q, lease, id, ahead, id, bad_number(prng)}});
    case 13: {  // EXTENDS past 100 pairs; rarely at its bound, 1000 pairs (answered, 1001
                // is refused by arity): a call of a thousand pairs costs the checker about
                // as much as a whole run, so one of these in forty
      const std::int64_t r = prng.between(0, 999);
      return extends_with(t, r < 25 ? 1000 : r < 525 ? 101 : 2, ahead);
    }
    case 14:  // ADD of the id when its row exists (0: an ADD that would re-create a
              // deleted row restarts its tokens, which the checker's fence judges as
              // reissued); else refused: a bad, missing or repeated MAXFAILURES
      // of an existing id also with MAXFAILURES at its bound, a budget its row does not
      // hold: still 0 and nothing written (an ADD that updated the budget answers the same)
      return pick(prng, {t.exists ? Call{"EMQ.ADD", q, id, "odd"} : Call{"EMQ.ADD", q, id, "odd", "MAXFAILURES", "x"},
                         t.exists ? Call{"EMQ.ADD", q, id, "odd", "MAXFAILURES", "1000000"} : Call{"EMQ.ADD", q, id, "odd", "MAXFAILURES", "1000001"},
                         {"EMQ.ADD", q, id, "odd", "MAXFAILURES", "0"},
                         {"EMQ.ADD", q, id, "odd", "MAXFAILURES", "1000001"}, {"EMQ.ADD", q, id, "odd", "maxfailures"},
                         {"EMQ.ADD", q, id, "odd", "MAXFAILURESX", "2"},
                         {"EMQ.ADD", q, id}, {"EMQ.ADD", q, id, "odd", "MAXFAILURES", "2", "MAXFAILURES", "2"}});
    case 15:  // max_stalled out of 1..1000000
      return pick(prng, {{"EMQ.STALLED.CHECK", q, bad_number(prng)}, {"EMQ.STALLED.CHECK", q, "1000001"}});
    case 16:  // LIMIT out of 1..10000, without value, repeated, another verb's option, or spelt LIMITS
      return pick(prng, {{"EMQ.STALLED.CHECK", q, budget, "LIMIT", "0"}, {"EMQ.STALLED.CHECK", q, budget, "LIMIT", "10001"},
                         {"EMQ.STALLED.CHECK", q, budget, "LIMIT"},
                         {"EMQ.STALLED.CHECK", q, budget, "LIMIT", "1", "LIMIT", "1"},
                         {"EMQ.STALLED.CHECK", q, budget, "COUNT", "1"}, {"EMQ.STALLED.CHECK", q, budget, "LIMITS", "1"}});
    case 17:  // a sweep spelt otherwise (it writes): the largest budget and LIMIT, lower case
      return pick(prng, {{"EMQ.STALLED.CHECK", q, "1000000"}, {"emq.stalled.check", q, budget, "limit", "10000"}});
    case 18:  // CLAIM at its COUNT bound on a queue of its own (empty: nothing to claim)
      return pick(prng, {{"EMQ.CLAIM", q + "-odd", lease, "COUNT", "1000"}, {"EMQ.CLAIM", q + "-odd", lease, "count", "1000"}});
    default:  // wrong arity
      return pick(prng, {{"EMQ.STATS"}, {"EMQ.STATS", q, "x"}, {"EMQ.JOB", q}, {"EMQ.EPOCH", "x"}, {"EMQ.CLAIM", q},
                         {"EMQ.EXTEND", q, id, ahead}, {"EMQ.STALLED.CHECK", q}, {"EMQ.ADD", q, id, "p", "MAXFAILURES"},
                         {"EMQ.EXTEND", q, id, ahead, lease, "x"}, {"EMQ.JOB", q, id, "x"},
                         {"EMQ.EXTENDS", q, lease}});
  }
}

std::vector<std::string> draw_fleet_call(Prng& prng, const AdversaryTarget& t) {
  const std::string& q = t.queue;
  const std::string& id = t.id;
  const std::string lease = std::to_string(t.lease_ms);
  const std::string token = std::to_string(std::max<std::int64_t>(t.attempts, 1));
  return pick(prng, {{"EMQ.ADD", q, id + "-r", "p"}, {"EMQ.CLAIM", q, lease, "COUNT", "2"},
                     {"EMQ.EXTEND", q, id, token, lease}, {"EMQ.EXTENDS", q, lease, id, token},
                     {"EMQ.COMPLETE", q, id, token, "ok"}, {"EMQ.FAIL", q, id, token, "r"},
                     {"EMQ.STALLED.CHECK", q, std::to_string(t.max_stalled)}, {"EMQ.STATS", q},
                     {"EMQ.JOB", q, id}, {"EMQ.EPOCH"}});
}

// Setups of two ids of their own (x..., y...), each with one trait the fleet never shows:
// a CLAIM without COUNT over two jobs (its default, 1), a corrupt row behind a sound one
// (the CLAIM refuses whole, EMQ §6, not with what it claimed first), rows without payload or
// attempts (read as "" and 0), a CLAIM that meets only a ghost while pending is denied
// (NOPERM: it would remove the ghost), two live leases extended in one EXTENDS while the
// second row is denied, an ADD of an existing id while its row is denied (0: nothing to
// write), an ADD with a budget far above the fleet's, a row with a field outside EMQ §1's
// table read by JOB, a live lease extended by 2^31 ms or past 2^53-1. Each ends with a DEL
// of its rows.
std::vector<Call> two_id_setups(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> calls,
                                const std::string& bad) {
  const SetupNames names(t, b);
  const SpecKeys& k = names.k;
  const std::string &pending = names.pending, &active = names.active, &lease = names.lease,
                    &live_score = names.live_score;
  auto then = [&](std::initializer_list<Call> more) { return then_append(calls, more); };
  const std::string x = "x" + std::to_string(prng.between(0, 999999999));
  const std::string y = "y" + std::to_string(prng.between(0, 999999999));
  auto live_row = [&](const std::string& id) {
    return Call{"HSET", k.row(id), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                "max_failures", "3", "lease_epoch", t.run_id};
  };
  switch (prng.between(0, 10)) {
    case 0:  // CLAIM without COUNT of two pending jobs
      return then({{"EMQ.ADD", b, x, "p"}, {"EMQ.ADD", b, y, "p"}, {"EMQ.CLAIM", b, lease},
                   {"DEL", k.row(x), k.row(y)}});
    case 1:  // a corrupt row behind a sound one: claimed with it (refused), or past COUNT
             // (COUNT 1, or none: x claimed, y never read, EMQ §4 walks only up to n)
      return then({{"HSET", k.row(x), "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", pending, "1", x},
                   {"HSET", k.row(y), "state", "pending", "payload", "p", "attempts", bad, "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", pending, "2", y},
                   pick(prng, {{"EMQ.CLAIM", b, lease, "COUNT", "2"}, {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                               {"EMQ.CLAIM", b, lease, "COUNT", "1"}, {"EMQ.CLAIM", b, lease}}),
                   {"DEL", k.row(x), k.row(y)}});
    case 2:  // a row without payload claimed
      return then({{"HSET", k.row(x), "state", "pending", "attempts", "0", "failures", "0", "max_failures", "3"},
                   {"ZADD", pending, "1", x},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", k.row(x)}});
    case 3:  // a row without payload or attempts claimed
      return then({{"HSET", k.row(x), "state", "pending", "failures", "0", "max_failures", "3"},
                   {"ZADD", pending, "1", x},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", k.row(x)}});
    case 4:  // a CLAIM that meets only a ghost, under an ACL denying pending
      return then({{"EMQ.ADD", b, x, "p"}, {"DEL", k.row(x)}, {"@DENY", pending},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"}});
    case 5:  // two live leases extended together, under an ACL denying the second row
      return then({live_row(x), live_row(y), {"ZADD", active, live_score, x, live_score, y},
                   {"@DENY", k.row(y)}, {"EMQ.EXTENDS", b, lease, x, "1", y, "1"},
                   {"DEL", k.row(x), k.row(y)}});
    case 6:  // an ADD of an existing id under an ACL denying its row
      return then({{"EMQ.ADD", b, x, "p"}, {"@DENY", k.row(x)}, {"EMQ.ADD", b, x, "p"}, {"DEL", k.row(x)}});
    case 7:  // an ADD with a budget far above the fleet's
      return then({{"EMQ.ADD", b, x, "p", "MAXFAILURES", std::to_string(prng.between(1001, 1000000))},
                   {"DEL", k.row(x)}});
    case 8: {  // a row with a field outside EMQ §1's table, read by JOB: ASCII, or (one time
               // in two) a name with a byte above 0x7f ("état"), which sorts after every
               // ASCII name by bytes (EMQ §4) and first by signed chars
      const std::string note = prng.chance(500) ? "\xc3\xa9tat" : "note";
      return then({{"EMQ.ADD", b, x, "p"}, {"HSET", k.row(x), note, "v"}, {"EMQ.JOB", b, x}, {"DEL", k.row(x)}});
    }
    case 10: {  // a live lease's verb under an ACL that denies a key of the queue this verb
                // does not write on its path (EMQ §6 asks only of the keys it will write):
                // COMPLETE (pending, seq, dead), FAIL that kills with a budget of 1
                // (pending, seq, done), FAIL that requeues (done, dead), EXTEND(S) (any)
      const std::int64_t verb = prng.between(0, 4);
      const bool kill = verb == 1;
      std::vector<std::string> others;
      if (verb == 0) others = {pending, k.key("seq"), k.key("dead")};
      else if (verb == 1) others = {pending, k.key("seq"), k.key("done")};
      else if (verb == 2) others = {k.key("done"), k.key("dead")};
      else others = {pending, k.key("seq"), k.key("done"), k.key("dead")};
      const std::string denied = others[static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(others.size()) - 1))];
      const Call call = verb == 0   ? Call{"EMQ.COMPLETE", b, x, "1", "r"}
                        : verb <= 2 ? Call{"EMQ.FAIL", b, x, "1", "r"}
                        : verb == 3 ? Call{"EMQ.EXTEND", b, x, "1", lease}
                                    : Call{"EMQ.EXTENDS", b, lease, x, "1"};
      return then({{"HSET", k.row(x), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", kill ? "1" : "3", "lease_epoch", t.run_id},
                   {"ZADD", active, live_score, x}, {"@DENY", denied}, call, {"DEL", k.row(x)}});
    }
    default:  // a live lease extended with a lease of 2^31 ms or more, or past 2^53-1
      return then({live_row(x), {"ZADD", active, live_score, x},
                   pick(prng, {{"EMQ.EXTEND", b, x, "1", "2147483648"}, {"EMQ.EXTEND", b, x, "1", "9007199254740991"},
                               {"EMQ.EXTENDS", b, "9007199254740991", x, "1"}}),
                   {"DEL", k.row(x)}});
  }
}

namespace {
// Rows and keys EMQ §1-§3 allow that neither the fleet nor the setups above make, each met
// by the verb that reads it (a job id of its own each time, its row deleted at the end):
// a row without `state` (CLAIM and the sweep read TYPE only: still a job), an id in pending
// and in active at once (CLAIM claims it, the sweep judges it like any expired member), a
// counter far above the fleet's (attempts 2^53 or 2^63-2: the token is attempts + 1 exactly;
// stalled 2^63-2: counted once more), a stamp that is the run_id with a line end or a space
// around it (another byte: another process, exempt), a lane row stamped by another process or
// by none (a lane whatever its stamp), an id with braces (EMQ §1: any byte but NUL) added,
// claimed and finished, a lease of 2^31 ms or more up to the 2^53-1 bound granted by CLAIM,
// and a ghost ahead of a sound row while the ghost's row key is denied (the CLAIM writes no
// ghost's row). The fleet's counters stay below a hundred, its stamps are the run_ids, its
// ids and leases short: a core that narrows, trims, misreads or skips any of these passes
// every run without them.
std::vector<Call> rare_rows(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> calls) {
  const SetupNames names(t, b);
  const SpecKeys& k = names.k;
  const std::string &pending = names.pending, &active = names.active, &lease = names.lease,
                    &live_score = names.live_score;
  auto then = [&](std::initializer_list<Call> more) { return then_append(calls, more); };
  const std::string id = "w" + std::to_string(prng.between(0, 999999999));
  const std::string row = k.row(id);
  const bool sweep = prng.chance(500);  // the sweep's shape of the case, else CLAIM's
  const std::int64_t shape = prng.between(0, 7);
  // the setup's first DEL takes the row key too: to the checker the id is then a ghost, whose
  // row may disagree with its sets (a row without state, an id in two sets)
  if (shape <= 4) calls.front().push_back(row);
  switch (shape) {
    case 0:  // a row without state
      if (sweep) {
        return then({{"HSET", row, "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                      "lease_epoch", t.run_id},
                     {"ZADD", active, "-1", id},
                     {"EMQ.STALLED.CHECK", b, "5"},
                     {"DEL", row}});
      }
      return then({{"HSET", row, "payload", "p", "attempts", "0", "failures", "0", "max_failures", "3"},
                   {"ZADD", pending, "1", id},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", row}});
    case 1:  // an id in pending and in active at once
      if (prng.chance(ghost_in_both_per_mille)) {
        // its row gone too (the first DEL took it): a ghost in both sets. The sweep removes
        // it from active only, a CLAIM from pending only (EMQ §4, §5: nothing else is
        // written); a core that "removes a ghost everywhere" passes without this.
        return then({{"ZADD", active, sweep ? "-1" : live_score, id},
                     {"ZADD", pending, "1", id},
                     sweep ? Call{"EMQ.STALLED.CHECK", b, "5"} : Call{"EMQ.CLAIM", b, lease, "COUNT", "2"}});
      }
      if (sweep) {
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", active, "-1", id},
                     {"ZADD", pending, "7", id},
                     {"EMQ.STALLED.CHECK", b, "5"},  // recovered: a death would leave it in pending too
                     {"DEL", row}});
      }
      return then({{"HSET", row, "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", pending, "1", id},
                   {"ZADD", active, live_score, id},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", row}});
    case 2: {  // counters far above the fleet's
      if (sweep) {
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id, "stalled",
                      prng.chance(500) ? "9223372036854775806" : "9007199254740993"},
                     {"ZADD", active, "-1", id},
                     {"EMQ.STALLED.CHECK", b, "5"},
                     {"DEL", row}});
      }
      static constexpr const char* high[] = {"9007199254740992", "9007199254740993", "9223372036854775806"};
      return then({{"HSET", row, "state", "pending", "payload", "p", "attempts", high[prng.between(0, 2)],
                    "failures", "0", "max_failures", "3"},
                   {"ZADD", pending, "1", id},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", row}});
    }
    case 3: {  // a stamp that is the run_id with a line end or a space around it
      static constexpr const char* around[] = {"\r\n", "\n", "\r", " "};
      const std::string extra = around[prng.between(0, 3)];
      return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", "3", "lease_epoch", prng.chance(750) ? t.run_id + extra : extra + t.run_id},
                   {"ZADD", active, "-1", id},
                   {"EMQ.STALLED.CHECK", b, "1"},
                   {"DEL", row}});
    }
    case 4: {  // a lane row stamped by another process, by none, or empty
      Call hset{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                "group", "g"};
      const std::int64_t stamp = prng.between(0, 2);
      if (stamp < 2) {
        hset.push_back("lease_epoch");
        hset.push_back(stamp == 0 ? std::string() : std::string(40, '0'));
      }
      return then({hset, {"ZADD", active, "-1", id}, {"EMQ.STALLED.CHECK", b, "1"}, {"DEL", row}});
    }
    case 5: {  // an id with braces, added, claimed, finished and read
      static constexpr const char* shapes[] = {"{", "}", "{x}", "}{", "{{"};
      const std::string bid = std::string(shapes[prng.between(0, 4)]) + id + (prng.chance(500) ? "}" : ":{z");
      return then({{"EMQ.ADD", b, bid, "p"},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   pick(prng, {{"EMQ.COMPLETE", b, bid, "1", "r"}, {"EMQ.FAIL", b, bid, "1", "r"},
                               {"EMQ.EXTEND", b, bid, "1", lease}, {"EMQ.EXTENDS", b, lease, bid, "1"}}),
                   {"EMQ.JOB", b, bid},
                   {"DEL", k.row(bid)}});
    }
    case 6: {  // a long lease granted by CLAIM: 2^31 ms, 2^32 + 1 ms, or up to the 2^53-1 bound
      if (prng.chance(hand_deadline_per_mille)) {
        // or a deadline no verb writes, put in active by hand (an operator pinning a lease):
        // +inf, 1e300 or 2^63 and more, past what an int64 holds. Live (EMQ §3: deadline >=
        // now; the row's state and token match): its verb extends, completes or fails it. The
        // verbs' deadlines are whole ms below 2^53: a core that reads a deadline as an int64
        // passes every run without this.
        static constexpr const char* far[] = {"+inf", "1e300", "9223372036854775808", "1.8e19"};
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", active, far[prng.between(0, 3)], id},
                     pick(prng, {{"EMQ.COMPLETE", b, id, "1", "r"}, {"EMQ.FAIL", b, id, "1", "r"},
                                 {"EMQ.EXTEND", b, id, "1", lease}, {"EMQ.EXTENDS", b, lease, id, "1"}}),
                     {"DEL", row}});
      }
      const std::int64_t r = prng.between(0, 2);
      const std::string long_lease = r == 0 ? "2147483648" : r == 1 ? "4294967297" : std::to_string(score_max - t.server_ms);
      return then({{"EMQ.ADD", b, id, "p"},
                   {"EMQ.CLAIM", b, long_lease, "COUNT", "2"},
                   {"EMQ.JOB", b, id},
                   {"DEL", row}});
    }
    default: {  // a ghost ahead of a sound row, the ghost's row key denied
      const std::string g = "g" + id;
      return then({{"DEL", k.row(g)},
                   {"ZADD", pending, "1", g},
                   {"HSET", row, "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", pending, "2", id},
                   {"@DENY", k.row(g)},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   {"DEL", row}});
    }
  }
}
}  // namespace

namespace {
// Numbers and names past the few values the fleet writes, each met by the verb that reads or
// writes it (a job id of its own each time, its row deleted at the end). The fleet's budgets
// are 1..4 (FAIL) and 1..3 (the sweep), its tokens below a dozen, its ids jN and its payloads
// and texts short and never numeric: a core that compares counters as text ("9" > "10"),
// keeps a budget or a token in 16 or 32 bits or in a double, bumps a counter's text with a
// wrong carry, answers a numeric-looking bulk as an integer, sorts JOB's fields other than
// by bytes, or reads a counter through a lax parser passes every run without these:
//   0. FAIL against a budget of two digits or more (10, 11, 20, 100, 1000, 2^16, 10^6) with
//      failures just below it, at 1, 8, 9, 19, 99, 2^16-1, 10^6-1: requeued or dead as
//      numbers say (and the new count written as a number: 10^6 as seven digits);
//   1. the sweep, max_stalled of two digits or more, on a counted lease with such a stalled,
//      or with one far past it (2^31-1, 2^32-1, 2^53, 2^63-2);
//   2. a live lease holding a large token (10, 19, 99, around 2^31, 2^32, 2^53, 2^63-2), its
//      deadline sometimes past int64 (+inf, 1e300, 2^63), met by a lease verb with that token
//      (live) or a neighbour: one off, or 2^32 off (never live);
//   3. a CLAIM of a row whose attempts ends in 9 or lies past 2^31, 2^32, 2^53, then a lease
//      verb with the token it granted, or the one before;
//   4. an id, payload and result or failure text that look like numbers (10, 007, -1, 1e3,
//      past int64...), added with MAXFAILURES 1, 999999, 1000000 or none: claimed, finished
//      or swept dead or recovered, read by JOB;
//   5. a row with fields named near EMQ §1's (a prefix of one, upper case, two sharing their
//      first 12 bytes or differing after a NUL, bytes above 0x7f, written in descending
//      order), or with 8 to 24 fields more than ADD writes, read by JOB;
//   6. a counter with a space, line end or NUL after it, or a tab before it (EMQ §6: not a
//      non-negative integer, corrupt) met by CLAIM, FAIL or the sweep; attempts so, or "01",
//      "+1", "001", on a lease met by a lease verb with token 1 (an EXTENDS with a sound live
//      pair beside it); or seq so, or with a leading zero or '+' (INCR refuses each) met by ADD.
// 0 and 1 go in one setup (two ids), and so do 2 and 3: five setups in all.
std::vector<Call> value_edges(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> calls) {
  const SetupNames names(t, b);
  const SpecKeys& k = names.k;
  const std::string &pending = names.pending, &active = names.active, &lease = names.lease,
                    &live_score = names.live_score;
  auto then = [&](std::initializer_list<Call> more) { return then_append(calls, more); };
  const std::string id = "v" + std::to_string(prng.between(0, 999999999));
  const std::string row = k.row(id);
  // a lease verb on `who` with token `token` (one draw)
  auto lease_verb = [&](const std::string& who, const std::string& token) {
    return pick(prng, {{"EMQ.EXTEND", b, who, token, lease}, {"EMQ.EXTENDS", b, lease, who, token},
                       {"EMQ.COMPLETE", b, who, token, "r"}, {"EMQ.FAIL", b, who, token, "r"}});
  };
  // (10^6, the bound, twice: a count of 999999 below it becomes 10^6, the first number a
  // shortest "%g" spells otherwise)
  static constexpr std::int64_t budgets[] = {10, 11, 20, 100, 1000, 65536, 1000000, 1000000};
  static constexpr std::int64_t below[] = {0, 1, 8, 9, 19, 99, 65535, 999999};
  // a count below `budget`: one of `below`, or one or two short of it
  auto count_below = [&](std::int64_t budget) {
    if (prng.chance(400)) return budget - prng.between(1, 2);
    std::int64_t n = below[prng.between(0, static_cast<std::int64_t>(std::size(below)) - 1)];
    while (n >= budget) n = below[prng.between(0, 3)];
    return n;
  };
  const std::string id2 = "u" + std::to_string(prng.between(0, 999999999));
  const std::string row2 = k.row(id2);
  switch (prng.between(0, 4)) {
    case 0: {  // shapes 0 and 1 together: a FAIL on id, a sweep of id2
      const std::int64_t budget = budgets[prng.between(0, static_cast<std::int64_t>(std::size(budgets)) - 1)];
      const std::int64_t failures = count_below(budget);
      const std::int64_t sweep_budget = budgets[prng.between(0, static_cast<std::int64_t>(std::size(budgets)) - 1)];
      // or, one time in four, a count far past any budget (a sweep with a larger one counted
      // it): at 2^31-1, 2^32-1, 2^53 or 2^63-2, where one more stall overflows 32 bits, leaves
      // a double's exact integers, or reaches int64's top (still sound, EMQ §6)
      static constexpr std::int64_t high[] = {2147483647, 4294967295, 9007199254740992, 9223372036854775806};
      const std::int64_t stalled = prng.chance(250) ? high[prng.between(0, 3)] : count_below(sweep_budget);
      return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", std::to_string(failures),
                    "max_failures", std::to_string(budget), "lease_epoch", t.run_id},
                   {"ZADD", active, live_score, id},
                   with_field({"HSET", row2, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                               "max_failures", "3", "lease_epoch", t.run_id},
                              "stalled", stalled == 0 ? std::string() : std::to_string(stalled)),
                   {"ZADD", active, "-1", id2},
                   {"EMQ.STALLED.CHECK", b, std::to_string(sweep_budget)},
                   {"EMQ.FAIL", b, id, "1", "r"},
                   {"DEL", row, row2}});
    }
    case 1: {  // shapes 2 and 3 together: a lease verb on id's large token, a CLAIM of id2
      static constexpr std::int64_t tokens[] = {10, 19, 99, 2147483647, 2147483648, 4294967295, 4294967296,
                                                4294967297, 9007199254740992, 9007199254740993, 9007199254740995,
                                                9223372036854775806};
      const std::int64_t held = tokens[prng.between(0, static_cast<std::int64_t>(std::size(tokens)) - 1)];
      constexpr std::int64_t two_32 = std::int64_t{1} << 32;
      const std::int64_t r = prng.between(0, 4);
      const std::int64_t token = r <= 1 ? held
                                 : r == 2 ? held - 1
                                 : r == 3 ? held + 1
                                 : held > two_32 ? held - two_32
                                                 : held + two_32;
      static constexpr std::int64_t attempts[] = {9, 19, 99, 199, 999, 2147483647, 4294967295, 4294967299,
                                                  9007199254740991, 9007199254740999};
      const std::int64_t before = attempts[prng.between(0, static_cast<std::int64_t>(std::size(attempts)) - 1)];
      // its deadline the usual now + lease, or (one time in three) one past what an int64
      // holds, as an operator may pin a lease: +inf, 1e300, 2^63 (EMQ §3: live, >= now)
      static constexpr const char* far[] = {"+inf", "1e300", "9223372036854775808"};
      const std::string deadline = prng.chance(333) ? far[prng.between(0, 2)] : live_score;
      return then({{"HSET", row, "state", "active", "payload", "p", "attempts", std::to_string(held), "failures", "0",
                    "max_failures", "3", "lease_epoch", t.run_id},
                   {"ZADD", active, deadline, id},
                   lease_verb(id, std::to_string(token)),
                   {"HSET", row2, "state", "pending", "payload", "p", "attempts", std::to_string(before), "failures", "0",
                    "max_failures", "3"},
                   {"ZADD", pending, "1", id2},
                   {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                   lease_verb(id2, std::to_string(prng.chance(750) ? before + 1 : before)),
                   {"EMQ.JOB", b, id2},
                   {"DEL", row, row2}});
    }
    case 2: {
      static constexpr std::string_view numeric[] = {"0", "7", "10", "007", "-1", "-0", "+5", "1e3", "1.0",
                                                     "9223372036854775807", "9223372036854775808"};
      auto number = [&] { return std::string(numeric[prng.between(0, static_cast<std::int64_t>(std::size(numeric)) - 1)]); };
      const std::string digits = std::to_string(prng.between(10, 999999999));
      const std::int64_t form = prng.between(0, 3);
      const std::string nid = form == 0 ? digits : form == 1 ? "0" + digits : form == 2 ? "-" + digits : digits + ".0";
      const std::string nrow = k.row(nid);
      const std::string payload = number();
      Call finish;
      std::vector<Call> expire;
      switch (prng.between(0, 3)) {
        case 0: finish = {"EMQ.COMPLETE", b, nid, "1", number()}; break;
        case 1: finish = {"EMQ.FAIL", b, nid, "1", number()}; break;
        default:  // its lease put past by hand, then swept: dead at max_stalled 1, else recovered
          expire = {{"ZADD", active, "-1", nid}};
          finish = {"EMQ.STALLED.CHECK", b, prng.chance(500) ? "1" : "2"};
          break;
      }
      // with a budget at its bounds, or none (EMQ §7: MAXFAILURES 1..1000000, written as sent)
      static constexpr const char* budgets_sent[] = {"1", "999999", "1000000"};
      const std::int64_t sent = prng.between(0, 3);
      calls.push_back(sent == 3 ? Call{"EMQ.ADD", b, nid, payload}
                                : Call{"EMQ.ADD", b, nid, payload, "MAXFAILURES", budgets_sent[sent]});
      calls.push_back({"EMQ.CLAIM", b, lease, "COUNT", "2"});
      for (const Call& c : expire) calls.push_back(c);
      return then({finish, {"EMQ.JOB", b, nid}, {"DEL", nrow}});
    }
    case 3: {
      // each set written after ADD's fields, in descending byte order where it has two
      static const std::vector<std::vector<std::string>> names{
          {"stat"}, {"Zeta"}, {"STATE"}, {"Payload"}, {"max_failures_b", "max_failures_a"},
          {std::string("k\0z", 3), std::string("k\0a", 3)}, {""}, {"_", "A"}, {"\xff", "\x80x", "\x01"}};
      std::vector<std::string> fields = names[static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(names.size()) - 1))];
      if (prng.chance(250)) {
        // or many more than EMQ §1's eleven (x-field-24 .. x-field-01, descending, their first
        // 8 bytes shared): a JOB of 13 to 29 fields, past a reply sized for the table and past
        // 16, where a sort may change ways
        fields.clear();
        for (std::int64_t i = prng.between(8, 24); i >= 1; --i) {
          fields.push_back((i < 10 ? "x-field-0" : "x-field-") + std::to_string(i));
        }
      }
      Call hset{"HSET", row};
      for (const std::string& f : fields) {
        hset.push_back(f);
        hset.push_back("v");
      }
      return then({{"EMQ.ADD", b, id, "p"}, hset, {"EMQ.JOB", b, id}, {"DEL", row}});
    }
    default: {
      static constexpr std::string_view lax[] = {"1 ", "0\n", "1\r\n", "1\0"sv, "\t1", "0 "};
      const std::string bad(lax[prng.between(0, static_cast<std::int64_t>(std::size(lax)) - 1)]);
      switch (prng.between(0, 4)) {
        case 0:
          return then({{"HSET", row, "state", "pending", "payload", "p", "attempts", bad, "failures", "0",
                        "max_failures", "3"},
                       {"ZADD", pending, "1", id},
                       {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                       {"DEL", row}});
        case 1: {
          const bool failures = prng.chance(500);
          return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", failures ? bad : "0",
                        "max_failures", failures ? "3" : bad, "lease_epoch", t.run_id},
                       {"ZADD", active, live_score, id},
                       {"EMQ.FAIL", b, id, "1", "r"},
                       {"DEL", row}});
        }
        case 2:
          return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                        "max_failures", "3", "lease_epoch", t.run_id, "stalled", bad},
                       {"ZADD", active, "-1", id},
                       {"EMQ.STALLED.CHECK", b, "5"},
                       {"DEL", row}});
        case 3: {
          // attempts so (or "01", "+1", "001", which a lax parser reads as 1 too) on a lease
          // under a live deadline: not live for token 1 (EMQ §3, §6), 0 and nothing written,
          // beside a sound live lease of id2 (an EXTENDS of both: [0 1] or [1 0], in order)
          static constexpr std::string_view ones[] = {"01", "+1", "001"};
          const std::string attempts = prng.chance(500) ? std::string(ones[prng.between(0, 2)]) : bad;
          const bool first = prng.chance(500);
          return then({{"HSET", row, "state", "active", "payload", "p", "attempts", attempts, "failures", "0",
                        "max_failures", "3", "lease_epoch", t.run_id},
                       {"ZADD", active, live_score, id},
                       {"HSET", row2, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                        "max_failures", "3", "lease_epoch", t.run_id},
                       {"ZADD", active, live_score, id2},
                       prng.chance(500) ? (first ? Call{"EMQ.EXTENDS", b, lease, id, "1", id2, "1"}
                                                 : Call{"EMQ.EXTENDS", b, lease, id2, "1", id, "1"})
                                        : lease_verb(id, "1"),
                       {"DEL", row, row2}});
        }
        default: {
          // seq so (or with a leading zero or sign, which INCR refuses too): ADD refuses
          static constexpr std::string_view seqs[] = {"05", "+5"};
          const std::string seq = prng.chance(500) ? std::string(seqs[prng.between(0, 1)]) : bad;
          return then({{"SET", k.key("seq"), seq}, {"EMQ.ADD", b, id, "p"}, {"DEL", row}});
        }
      }
    }
  }
}
}  // namespace

std::vector<std::vector<std::string>> draw_boundary_probe(Prng& prng, const AdversaryTarget& t) {
  const std::string b = t.queue + "-edge";
  const SpecKeys k(b);
  const std::string id = "e";
  const std::string row = k.row(id);
  std::vector<Call> calls{k.clear()};
  calls.front().push_back(row);  // e a ghost to the checker from here: a row written by hand
  const std::string lease = std::to_string(t.lease_ms);
  // now, one ms before, or half a ms below or above (exact as a double at any server time)
  const std::int64_t edge = prng.between(0, 3);
  std::string deadline;
  if (edge < 2) {
    deadline = std::to_string(t.server_ms - edge);
  } else {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f", static_cast<double>(t.server_ms) + (edge == 2 ? -0.5 : 0.5));
    deadline = text;
  }
  const bool budget_1 = prng.chance(500);  // FAIL dead-letters; the sweep (max_stalled 1) kills
  calls.push_back({"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                   budget_1 ? "1" : "3", "lease_epoch", t.run_id});
  calls.push_back({"ZADD", k.key("active"), deadline, id});
  switch (prng.between(0, 4)) {
    case 0: calls.push_back({"EMQ.EXTEND", b, id, "1", lease}); break;
    case 1: {
      Call extends{"EMQ.EXTENDS", b, lease, id, "1"};
      if (prng.chance(500)) {  // the id again: with its token, or with one it never held
        extends.push_back(id);
        extends.push_back(prng.chance(500) ? "1" : "2");
      }
      calls.push_back(extends);
      break;
    }
    case 2:
      calls.push_back(prng.chance(500) ? Call{"EMQ.COMPLETE", b, id, "1", "r"} : Call{"EMQ.COMPLETE", b, id, "1"});
      break;
    case 3: calls.push_back({"EMQ.FAIL", b, id, "1", "r"}); break;
    default: calls.push_back({"EMQ.STALLED.CHECK", b, budget_1 ? "1" : "5"}); break;
  }
  calls.push_back({"DEL", row});
  return calls;
}

std::vector<std::vector<std::string>> draw_corruption_setup(Prng& prng, const AdversaryTarget& t) {
  const std::string b = t.queue + "-bad";
  const SpecKeys k(b);
  const std::string row = k.row("c");
  const std::string lease = std::to_string(t.lease_ms);
  const std::string pending = k.key("pending"), active = k.key("active");
  const std::string done = k.key("done"), dead = k.key("dead");
  // not a non-negative integer, as the server could hold it (EMQ §6; "-0" is not one
  // either: the server writes no sign on 0)
  static constexpr const char* corrupt[] = {"-1", "x", "01", "", "-0", "9223372036854775807", "-9999999999999999999"};
  const std::string bad = corrupt[prng.between(0, static_cast<std::int64_t>(std::size(corrupt)) - 1)];
  const std::string seq = k.key("seq");
  std::vector<std::vector<std::string>> calls{k.clear()};
  calls.front().push_back(row);
  auto then = [&](std::initializer_list<Call> more) { return then_append(calls, more); };
  switch (prng.between(0, 10)) {
    // In cases 0-2 one setup in four leaves a field out, or stamps the lease empty (a row
    // an older version or a script wrote): the verb reads its default (EMQ §1: attempts 0,
    // failures 0, max_failures 3; §2: an empty lease_epoch is "not this process") and goes
    // on; the setup's last call deletes the row, so the job it moved is a ghost, not an
    // open job.
    case 0: {  // attempts corrupt on a pending job: CLAIM refuses; absent: CLAIM takes it as 0
               // (an id of its own each time: the checker's fence would take a second grant
               // of token 1 to one id for a reissued token)
      const bool absent = prng.chance(250);
      const std::string id = absent ? "a" + std::to_string(prng.between(0, 999999999)) : "c";
      Call hset{"HSET", k.row(id), "state", "pending", "payload", "p", "failures", "0", "max_failures", "3"};
      if (!absent) {
        hset.push_back("attempts");
        hset.push_back(bad);
      }
      return then({hset, {"ZADD", pending, "1", id}, {"EMQ.CLAIM", b, lease, "COUNT", "2"}, {"DEL", k.row(id)}});
    }
    case 1: {  // failures or max_failures corrupt under a live lease: FAIL refuses; or the
               // row says pending while the id sits in active with its token: not live (0)
      if (prng.chance(250)) {
        // Or absent: a job added (so the checker's ledger holds it and judges its budget
        // too), then a field of its row deleted, as an older version's row could lack it:
        // failures is read as 0, max_failures as 3 (the third failure kills it). An id of
        // its own each time, so the fence sees no token granted twice to one id.
        const std::string id = "f" + std::to_string(prng.between(0, 999999999));
        const bool no_failures = prng.chance(500);
        calls.push_back({"EMQ.ADD", b, id, "p"});
        calls.push_back({"HDEL", k.row(id), no_failures ? "failures" : "max_failures"});
        for (int i = 1; i <= (no_failures ? 1 : 3); ++i) {
          calls.push_back({"EMQ.CLAIM", b, lease, "COUNT", "1"});
          calls.push_back({"EMQ.FAIL", b, id, std::to_string(i), "r"});
        }
        return then({{"DEL", k.row(id)}});
      }
      const bool failures = prng.chance(500);
      const std::int64_t shape = prng.between(0, 999);
      if (shape >= 900) {
        // Or the row says pending or done while its id sits expired in active, stamped by this
        // process: the sweep reads TYPE, group, lease_epoch, stalled only (EMQ §5), never state
        return then({{"HSET", row, "state", shape >= 950 ? "done" : "pending", "payload", "p", "attempts", "1",
                      "failures", "0", "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", active, "-1", "c"},
                     {"EMQ.STALLED.CHECK", b, "5"},
                     {"DEL", row}});
      }
      if (shape < 125) {
        // Or the opposite: the row says active with token 1, its budget sound, while the
        // id is not in active (in pending, or in no set: an operator's ZREM): not live
        // (EMQ §3 asks for the id in active first), 0 and nothing written by every lease verb
        const bool in_pending = prng.chance(500);
        calls.push_back({"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                         "max_failures", "3", "lease_epoch", t.run_id});
        if (in_pending) calls.push_back({"ZADD", pending, "1", "c"});
        return then({lease_verb_on_c(prng, b, lease), {"DEL", row}});
      }
      if (shape >= 250 && shape < 450) {
        // Rows EMQ §1 allows but no fleet writes: a row saying active whose id sits in
        // pending (CLAIM claims it: only a row that is not a hash is a ghost); a lease whose
        // row has no attempts or a non-canonical one ("01", "+1": never live, EMQ §3/§6);
        // a budget of 0, failures at or past it (FAIL dead-letters).
        const std::int64_t kind = prng.between(0, 3);
        if (kind == 0) {
          // c (a ghost to the checker since the setup's first DEL, so its row may disagree
          // with its set), its token drawn so that no two claims grant c the same one
          return then({{"HSET", row, "state", "active", "payload", "p", "attempts",
                        std::to_string(prng.between(1, 999999999)), "failures", "0", "max_failures", "3",
                        "lease_epoch", t.run_id},
                       {"ZADD", pending, "1", "c"},
                       {"EMQ.CLAIM", b, lease, "COUNT", "2"},
                       {"DEL", row}});
        }
        if (kind == 1) {
          static constexpr const char* noncanonical_tokens[] = {"", "01", "+1", "001"};  // "": no attempts field
          const std::string held = noncanonical_tokens[prng.between(0, 3)];
          const Call hset = with_field({"HSET", row, "state", "active", "payload", "p", "failures", "0",
                                        "max_failures", "3", "lease_epoch", t.run_id},
                                       "attempts", held);
          const std::string live_score = std::to_string(t.server_ms + t.lease_ms);
          if (prng.chance(500)) {
            // beside a sound live lease of its own id in one EXTENDS: [1 0], the live one
            // extended (a dead pair is no error while another pair is live)
            const std::string x = "x" + std::to_string(prng.between(0, 999999999));
            return then({hset,
                         {"HSET", k.row(x), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                          "max_failures", "3", "lease_epoch", t.run_id},
                         {"ZADD", active, live_score, "c", live_score, x},
                         {"EMQ.EXTENDS", b, lease, x, "1", "c", "1"},
                         {"DEL", row, k.row(x)}});
          }
          return then({hset,
                       {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                       lease_verb_on_c(prng, b, lease),
                       {"DEL", row}});
        }
        // a budget of 0 (sound: a non-negative integer), with no failure yet or some already
        // (past it: 2, or a count past 32 bits, or one below int64's top, which FAIL raises
        // to the top); a row over a budget of 1 or more would break queue.budget by itself
        static constexpr const char* past[] = {"2", "4294967296", "9223372036854775806"};
        const std::string failed = kind == 2 ? "0" : past[prng.between(0, 2)];
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", failed,
                      "max_failures", "0", "lease_epoch", t.run_id},
                     {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                     {"EMQ.FAIL", b, "c", "1", "r"},
                     {"DEL", row}});
      }
      const bool not_active = shape < 250;
      const std::string live_score = std::to_string(t.server_ms + t.lease_ms);
      auto lease_verb = [&] { return lease_verb_on_c(prng, b, lease); };
      if (not_active && prng.chance(500)) {
        // The row says pending, done or dead, or has no state at all (a row an operator's
        // HDEL left), while its id sits in active at a live deadline with its token: not
        // live (EMQ §3: the row says active), 0 and nothing written by every lease verb;
        // its budget sound, so only the state tells.
        static constexpr const char* states[] = {"pending", "done", "dead", ""};
        const std::string state = states[prng.between(0, 3)];
        const Call hset = with_field({"HSET", row, "payload", "p", "attempts", "1", "failures", "0",
                                      "max_failures", "3", "lease_epoch", t.run_id},
                                     "state", state);
        return then({hset, {"ZADD", active, live_score, "c"}, lease_verb(), {"DEL", row}});
      }
      if (shape >= 450 && shape < 525) {
        // A sound lease expired by one ms that no sweep has taken back yet (EMQ §3: expired
        // when deadline < now): not live, 0 from every lease verb, however close.
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", active, std::to_string(t.server_ms - 1), "c"},
                     lease_verb(),
                     {"DEL", row}});
      }
      return then({{"HSET", row, "state", not_active ? "pending" : "active", "payload", "p", "attempts", "1", "failures",
                    failures ? bad : "0", "max_failures", failures ? "3" : bad},
                   {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                   {"EMQ.FAIL", b, "c", "1", "r"},
                   {"DEL", row}});
    }
    case 2: {  // stalled corrupt on an expired lease of this process: the sweep counts it and
               // refuses; stamped empty, or with the run_id in upper case (EMQ §2: another
               // byte is another process): exempt, stalled never read (recovered)
      const std::int64_t stamp = prng.between(0, 999);
      const std::string stamp_text = stamp < 200   ? std::string()
                                     : stamp < 400 ? upper_case(t.run_id)
                                     : stamp < 550 ? t.run_id + "0"
                                                   : t.run_id;
      if (prng.chance(125)) {  // stalled already past the sweep's budget (a sweep with a larger one counted it)
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                      "lease_epoch", t.run_id, "stalled", "7"},
                     {"ZADD", active, "-1", "c"},
                     {"EMQ.STALLED.CHECK", b, "5"},
                     {"DEL", row}});
      }
      if (prng.chance(250)) {  // a sound member first and LIMIT 1: c lies past the LIMIT; or
                               // without LIMIT: c0 judged, then c refuses the whole sweep (a
                               // refusal mid-walk: nothing written, nothing of it kept for the
                               // next sweep)
        const std::string row0 = k.row("c0");
        return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                      "lease_epoch", t.run_id, "stalled", bad},
                     {"HSET", row0, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                      "lease_epoch", t.run_id},
                     {"ZADD", active, "-2", "c0", "-1", "c"},
                     prng.chance(500) ? Call{"EMQ.STALLED.CHECK", b, "5", "LIMIT", "1"} : Call{"EMQ.STALLED.CHECK", b, "5"},
                     {"DEL", row, row0}});
      }
      return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                    "lease_epoch", stamp_text, "stalled", bad},
                   {"ZADD", active, "-1", "c"},
                   {"EMQ.STALLED.CHECK", b, "5"},
                   {"DEL", row}});
    }
    case 3: {  // job z added, its row deleted (a ghost, as the checker knows it) and its
               // key made a zset: JOB refuses, ADD finds the key taken, CLAIM and the sweep
               // take z for a ghost, the lease verbs find no live lease
      const std::string zrow = k.row("z");
      for (const Call& c : {Call{"DEL", zrow}, Call{"EMQ.ADD", b, "z", "p"}, Call{"DEL", zrow}, Call{"ZADD", zrow, "1", "m"}}) {
        calls.push_back(c);
      }
      switch (prng.between(0, 3)) {
        case 0: return then({pick(prng, {{"EMQ.JOB", b, "z"}, {"EMQ.ADD", b, "z", "p"}})});
        case 1: return then({{"EMQ.CLAIM", b, lease, "COUNT", "2"}});
        case 2:
          if (prng.chance(500)) {  // under an ACL that denies z's row key: the sweep writes only active
            return then({{"ZREM", pending, "z"}, {"ZADD", active, "-1", "z"}, {"@DENY", zrow},
                         {"EMQ.STALLED.CHECK", b, "5"}});
          }
          return then({{"ZREM", pending, "z"}, {"ZADD", active, "-1", "z"}, {"EMQ.STALLED.CHECK", b, "5"}});
        default:
          return then({{"ZREM", pending, "z"},
                       {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "z"},
                       pick(prng, {{"EMQ.EXTEND", b, "z", "1", lease}, {"EMQ.COMPLETE", b, "z", "1"},
                                   {"EMQ.FAIL", b, "z", "1", "r"}, {"EMQ.EXTENDS", b, lease, "z", "1"}})});
      }
    }
    case 4: {  // more than 100 jobs added and their rows deleted: ghosts in pending, which
               // one CLAIM removes, up to 1000 of them (EMQ §7), however few it claims
      if (prng.chance(ghost_readded_per_mille)) {
        // Or one ghost's id added again: its row deleted while the id sits in pending (or,
        // claimed first, in active), then the same ADD. EMQ §4 asks only whether the row
        // key exists, so it adds (1); a core that also looks for the id in a set answers 0.
        // The row deleted again at the end: a ghost, not an open job. An id of its own
        // each time (the claim grants token 1, which the checker's fence takes once per id).
        const std::string id = "r" + std::to_string(prng.between(0, 999999999));
        const Call add{"EMQ.ADD", b, id, "p"};
        calls.push_back(add);
        if (prng.chance(500)) calls.push_back({"EMQ.CLAIM", b, lease, "COUNT", "1"});
        return then({{"DEL", k.row(id)}, add, {"DEL", k.row(id)}});
      }
      if (prng.chance(ghosts_1001_per_mille)) {
        // 1001 ghosts, one past the bound: the CLAIM removes the 1000 lowest and leaves
        // g1000. Their rows deleted first (to the checker's ledger a DEL makes an id a
        // ghost) and then the ids put in pending by hand: three calls, where 1001 ADDs
        // would cost a thousand checked calls and a history no shorter than that.
        Call del{"DEL"}, zadd{"ZADD", pending};
        for (int i = 0; i < 1001; ++i) {
          const std::string id = "g" + std::to_string(i);
          del.push_back(k.row(id));
          zadd.push_back(std::to_string(i + 1));
          zadd.push_back(id);
        }
        // COUNT drawn so that the batch the core reads (COUNT + 8 ids, or whatever a core
        // chooses) need not end exactly at the 1000th ghost: COUNT 2 alone let a bound
        // checked only between batches pass. One time in two a sound pending row lies behind
        // the ghosts: past the bound, so not claimed (EMQ §7: the CLAIM then answers what it
        // claimed so far), which a bound that caps only removals claims.
        const std::int64_t shape = prng.between(0, 3);
        const Call claim = shape == 0 ? Call{"EMQ.CLAIM", b, lease}
                                      : Call{"EMQ.CLAIM", b, lease, "COUNT", shape == 1 ? "1" : shape == 2 ? "2" : "7"};
        if (prng.chance(500)) {
          const std::string id = "b" + std::to_string(prng.between(0, 999999999));
          return then({del, zadd, {"EMQ.STATS", b},
                       {"HSET", k.row(id), "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                        "max_failures", "3"},
                       {"ZADD", pending, "1002", id}, claim, {"DEL", k.row(id)}});
        }
        return then({del, zadd, {"EMQ.STATS", b}, claim});
      }
      Call del{"DEL"};
      for (int i = 0; i < 101; ++i) {
        const std::string id = "g" + std::to_string(i);
        calls.push_back({"EMQ.ADD", b, id, "p"});
        del.push_back(k.row(id));
      }
      // one time in four with a lease whose deadline passes 2^53-1 (EMQ §3): refused whole,
      // the ghosts left in pending, though no lease would be granted
      const std::string ghost_lease = prng.chance(250) ? std::to_string(score_max - t.server_ms + 1) : lease;
      return then({del, {"EMQ.CLAIM", b, ghost_lease, "COUNT", "2"}});
    }
    case 5: {  // a set key holds a hash: every verb that reads it refuses (ADD reads
                // pending, not active: with only active wrong it would add, and the
                // queue's next clearing would take a job from under the checker)
      const std::int64_t which = prng.between(0, 4);
      // A hash, or one time in three a string (seq excepted: a string is its type): EMQ §6
      // refuses any type but a zset, and a check that looks for the one wrong type it
      // expects (a hash) passes a string.
      auto wrong_type = [&](const std::string& key) {
        return key != seq && prng.chance(333) ? Call{"SET", key, "v"} : Call{"HSET", key, "f", "v"};
      };
      if (which >= 2) {
        // done, dead or seq, which a verb reads only on its way to write it: a live lease of
        // c (budget 1 when dead is the key: its FAIL kills) and the verb that would write
        // the key; refused before any write (EMQ §6)
        const std::string& key = which == 2 ? done : which == 3 ? dead : seq;
        if (which == 3 && prng.chance(500)) {  // the sweep that would kill c meets dead a hash
          return then({wrong_type(key),
                       {"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                        "3", "lease_epoch", t.run_id},
                       {"ZADD", active, "-1", "c"},
                       {"EMQ.STALLED.CHECK", b, "1"},
                       {"DEL", row}});
        }
        return then({wrong_type(key),
                     {"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                      which == 3 ? "1" : "3", "lease_epoch", t.run_id},
                     {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                     prng.chance(250) ? Call{"EMQ.STATS", b}
                     : which == 2   ? Call{"EMQ.COMPLETE", b, "c", prng.chance(500) ? "2" : "1", "r"}
                     : which == 3 ? Call{"EMQ.FAIL", b, "c", prng.chance(500) ? "2" : "1", "r"}  // 2: not live, still WRONGTYPE
                                  : pick(prng, {{"EMQ.FAIL", b, "c", "1", "r"}, {"EMQ.ADD", b, "n", "p"}}),
                     {"DEL", row}});
      }
      const bool in_pending = which == 0;
      if (in_pending && prng.chance(250)) {  // a FAIL that would dead-letter meets pending a hash
        return then({wrong_type(pending),
                     {"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                      "1", "lease_epoch", t.run_id},
                     {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                     {"EMQ.FAIL", b, "c", prng.chance(500) ? "2" : "1", "r"},  // 2: not live, still WRONGTYPE (EMQ §6)
                     {"DEL", row}});
      }
      return then({wrong_type(in_pending ? pending : active),
                   pick(prng, {in_pending ? Call{"EMQ.ADD", b, "c", "p"} : Call{"EMQ.COMPLETE", b, "c", "1"},
                               {"EMQ.CLAIM", b, lease}, {"EMQ.STATS", b}, {"EMQ.STALLED.CHECK", b, "1"},
                               {"EMQ.EXTEND", b, "c", "1", lease}, {"EMQ.EXTENDS", b, lease, "c", "1"}})});
    }
    case 6: return many_jobs(prng, t, b);
    case 7: return long_names(prng, t);
    case 8: return two_id_setups(prng, t, b, calls, bad);
    case 9: return rare_rows(prng, t, b, calls);
    default: {  // seq where INCR refuses (EMQ §6: the server's "ERR value is not an integer
                // or out of range", before any write): at int64's top or not an integer; or
                // one below the top, where one INCR works and the next refuses
      // (2^63, past int64, refused; -5, a counter INCR takes, for the ADDs only: a FAIL that
      // requeues on it would be an ordinary requeue)
      static constexpr const char* seqs[] = {"9223372036854775807", "9223372036854775806", "x", "", "-0",
                                             "9223372036854775808", "-5"};
      const std::string value = seqs[prng.between(0, static_cast<std::int64_t>(std::size(seqs)) - 1)];
      if (value == "-5" || prng.chance(500)) {  // ADD; c's row deleted between, so the second ADD would add
        return then({{"SET", seq, value}, {"EMQ.ADD", b, "c", "p"}, {"DEL", row}, {"EMQ.ADD", b, "c", "p"}});
      }
      // FAIL requeues under a live lease with failures below the budget: it INCRs seq too (or,
      // with a budget of 1, dead-letters without reading seq)
      return then({{"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                    prng.chance(500) ? "1" : "3"},
                   {"ZADD", active, std::to_string(t.server_ms + t.lease_ms), "c"},
                   {"SET", seq, value},
                   {"EMQ.FAIL", b, "c", "1", "r"},
                   {"DEL", row}});
    }
  }
}

std::vector<std::vector<std::string>> draw_value_edges(Prng& prng, const AdversaryTarget& t) {
  const std::string b = t.queue + "-bad";
  return value_edges(prng, t, b, {SpecKeys(b).clear()});
}

}  // namespace trafikey::sim
