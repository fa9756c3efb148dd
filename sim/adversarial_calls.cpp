// The adversarial client's single calls (sim/adversarial_calls.h draw_adversarial_call): one
// malformed, out-of-range, unusually spelt or read-only call; and the fleet's own calls as it
// spells them (draw_fleet_call).
#include <string_view>

#include "core/args.h"
#include "sim/adversarial_setup.h"

namespace trafikey::sim {

using namespace adversary;

namespace {
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

// The wire 2 near misses of the target's grant (none when its row holds no grant id of the
// form `<run_id>-<n>`: then the wire 1 token one ahead stands in, never live either).
std::vector<std::string> wire2_near_misses(const AdversaryTarget& t) {
  const std::string ahead = std::to_string(t.attempts + 1);
  const std::size_t dash = t.grant.rfind('-');
  const auto n = dash == std::string::npos ? std::nullopt : parse_int64(std::string_view(t.grant).substr(dash + 1));
  if (!n || *n == INT64_MAX) return {ahead};
  const std::string next = t.grant.substr(0, dash + 1) + std::to_string(*n + 1);
  return {ahead + "-" + t.grant, std::to_string(std::max<std::int64_t>(t.attempts, 1)) + "-" + next};
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
  // Wire 2 near misses of the row's own grant (EMQ §8), each never live: its grant id with
  // the attempts one ahead, and its attempts with the next grant id of the same process (a
  // live check that skips either part, or compares grant ids by their run_id, takes them).
  const std::vector<std::string> near = wire2_near_misses(t);
  auto near_miss = [&] { return near[static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(near.size()) - 1))]; };
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
                         {"EMQ.EXTEND", q, id, ahead, "1"}, {"EMQ.EXTEND", q, id, near_miss(), lease}});
    case 10:  // COMPLETE: ahead (0), with and without result; extra argument; bad token;
              // the largest token
      return pick(prng, {{"EMQ.COMPLETE", q, id, ahead}, {"EMQ.COMPLETE", q, id, ahead, "r"}, {"EMQ.COMPLETE", q, id, token_top},
                         {"EMQ.COMPLETE", q, id, ahead, "r", "extra"}, {"EMQ.COMPLETE", q, id, bad_number(prng)},
                         {"EMQ.COMPLETE", q, id, near_miss(), "r"}});
    case 11:  // FAIL: ahead (0); without reason; bad token; the largest token
      return pick(prng, {{"EMQ.FAIL", q, id, ahead, "odd"}, {"EMQ.FAIL", q, id, ahead}, {"EMQ.FAIL", q, id, token_top, "odd"},
                         {"EMQ.FAIL", q, id, bad_number(prng), "odd"}, {"EMQ.FAIL", q, id, ahead, "odd", "extra"},
                         {"EMQ.FAIL", q, id, near_miss(), "odd"}});
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

}  // namespace trafikey::sim
