// The adversarial client's value-edge setups (sim/adversarial_calls.h draw_value_edges).
#include <iterator>
#include <string_view>

#include "sim/adversarial_setup.h"

namespace trafikey::sim {

using namespace std::string_view_literals;
using namespace adversary;

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
struct ValueEdge : Setup {
  // Draws id, then id2.
  ValueEdge(Prng& prng, const AdversaryTarget& t, const std::string& b)
      : Setup(t, b, {SpecKeys(b).clear()}),
        id("v" + std::to_string(prng.between(0, 999999999))), row(k.row(id)),
        id2("u" + std::to_string(prng.between(0, 999999999))), row2(k.row(id2)) {}
  std::string id, row, id2, row2;  // two jobs of the setup's own, and their rows
};

// (10^6, the bound, twice: a count of 999999 below it becomes 10^6, the first number a
// shortest "%g" spells otherwise)
constexpr std::int64_t budgets[] = {10, 11, 20, 100, 1000, 65536, 1000000, 1000000};
constexpr std::int64_t below[] = {0, 1, 8, 9, 19, 99, 65535, 999999};

// A count below `budget`: one of `below`, or one or two short of it.
std::int64_t count_below(Prng& prng, std::int64_t budget) {
  if (prng.chance(400)) return budget - prng.between(1, 2);
  std::int64_t n = below[prng.between(0, static_cast<std::int64_t>(std::size(below)) - 1)];
  while (n >= budget) n = below[prng.between(0, 3)];
  return n;
}

// Shapes 0 and 1 together: a FAIL on id, a sweep of id2.
std::vector<Call> budgets_past_9(Prng& prng, const AdversaryTarget& t, ValueEdge& s) {
  const std::int64_t budget = budgets[prng.between(0, static_cast<std::int64_t>(std::size(budgets)) - 1)];
  const std::int64_t failures = count_below(prng, budget);
  const std::int64_t sweep_budget = budgets[prng.between(0, static_cast<std::int64_t>(std::size(budgets)) - 1)];
  // or, one time in four, a count far past any budget (a sweep with a larger one counted
  // it): at 2^31-1, 2^32-1, 2^53 or 2^63-2, where one more stall overflows 32 bits, leaves
  // a double's exact integers, or reaches int64's top (still sound, EMQ §6)
  static constexpr std::int64_t high[] = {2147483647, 4294967295, 9007199254740992, 9223372036854775806};
  const std::int64_t stalled = prng.chance(250) ? high[prng.between(0, 3)] : count_below(prng, sweep_budget);
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", std::to_string(failures),
                  "max_failures", std::to_string(budget), "lease_epoch", t.run_id},
                 {"ZADD", s.active, s.live_score, s.id},
                 with_field({"HSET", s.row2, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                             "max_failures", "3", "lease_epoch", t.run_id},
                            "stalled", stalled == 0 ? std::string() : std::to_string(stalled)),
                 {"ZADD", s.active, "-1", s.id2},
                 {"EMQ.STALLED.CHECK", s.b, std::to_string(sweep_budget)},
                 {"EMQ.FAIL", s.b, s.id, "1", "r"},
                 {"DEL", s.row, s.row2}});
}

// Shapes 2 and 3 together: a lease verb on id's large token, a CLAIM of id2.
std::vector<Call> large_tokens(Prng& prng, const AdversaryTarget& t, ValueEdge& s) {
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
  const std::string deadline = prng.chance(333) ? far[prng.between(0, 2)] : s.live_score;
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", std::to_string(held), "failures", "0",
                  "max_failures", "3", "lease_epoch", t.run_id},
                 {"ZADD", s.active, deadline, s.id},
                 lease_verb(prng, s.b, s.id, std::to_string(token), s.lease),
                 {"HSET", s.row2, "state", "pending", "payload", "p", "attempts", std::to_string(before), "failures", "0",
                  "max_failures", "3"},
                 {"ZADD", s.pending, "1", s.id2},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 lease_verb(prng, s.b, s.id2, std::to_string(prng.chance(750) ? before + 1 : before), s.lease),
                 {"EMQ.JOB", s.b, s.id2},
                 {"DEL", s.row, s.row2}});
}

// Shape 4: an id, a payload and a text that look like numbers.
std::vector<Call> numeric_looking_values(Prng& prng, ValueEdge& s) {
  static constexpr std::string_view numeric[] = {"0", "7", "10", "007", "-1", "-0", "+5", "1e3", "1.0",
                                                 "9223372036854775807", "9223372036854775808"};
  auto number = [&] { return std::string(numeric[prng.between(0, static_cast<std::int64_t>(std::size(numeric)) - 1)]); };
  const std::string digits = std::to_string(prng.between(10, 999999999));
  const std::int64_t form = prng.between(0, 3);
  const std::string nid = form == 0 ? digits : form == 1 ? "0" + digits : form == 2 ? "-" + digits : digits + ".0";
  const std::string nrow = s.k.row(nid);
  const std::string payload = number();
  Call finish;
  std::vector<Call> expire;
  switch (prng.between(0, 3)) {
    case 0: finish = {"EMQ.COMPLETE", s.b, nid, "1", number()}; break;
    case 1: finish = {"EMQ.FAIL", s.b, nid, "1", number()}; break;
    default:  // its lease put past by hand, then swept: dead at max_stalled 1, else recovered
      expire = {{"ZADD", s.active, "-1", nid}};
      finish = {"EMQ.STALLED.CHECK", s.b, prng.chance(500) ? "1" : "2"};
      break;
  }
  // with a budget at its bounds, or none (EMQ §7: MAXFAILURES 1..1000000, written as sent)
  static constexpr const char* budgets_sent[] = {"1", "999999", "1000000"};
  const std::int64_t sent = prng.between(0, 3);
  s.calls.push_back(sent == 3 ? Call{"EMQ.ADD", s.b, nid, payload}
                              : Call{"EMQ.ADD", s.b, nid, payload, "MAXFAILURES", budgets_sent[sent]});
  s.calls.push_back({"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"});
  for (const Call& c : expire) s.calls.push_back(c);
  return s.then({finish, {"EMQ.JOB", s.b, nid}, {"DEL", nrow}});
}

// Shape 5: fields named near EMQ §1's, or many more of them, read by JOB.
std::vector<Call> fields_named_near_the_spec(Prng& prng, ValueEdge& s) {
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
  Call hset{"HSET", s.row};
  for (const std::string& f : fields) {
    hset.push_back(f);
    hset.push_back("v");
  }
  return s.then({{"EMQ.ADD", s.b, s.id, "p"}, hset, {"EMQ.JOB", s.b, s.id}, {"DEL", s.row}});
}

// Shape 6: a counter, or seq, that only a lax parser reads as a number.
std::vector<Call> counters_a_lax_parser_reads(Prng& prng, const AdversaryTarget& t, ValueEdge& s) {
  static constexpr std::string_view lax[] = {"1 ", "0\n", "1\r\n", "1\0"sv, "\t1", "0 "};
  const std::string bad(lax[prng.between(0, static_cast<std::int64_t>(std::size(lax)) - 1)]);
  switch (prng.between(0, 4)) {
    case 0:
      return s.then({{"HSET", s.row, "state", "pending", "payload", "p", "attempts", bad, "failures", "0",
                      "max_failures", "3"},
                     {"ZADD", s.pending, "1", s.id},
                     {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                     {"DEL", s.row}});
    case 1: {
      const bool failures = prng.chance(500);
      return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", failures ? bad : "0",
                      "max_failures", failures ? "3" : bad, "lease_epoch", t.run_id},
                     {"ZADD", s.active, s.live_score, s.id},
                     {"EMQ.FAIL", s.b, s.id, "1", "r"},
                     {"DEL", s.row}});
    }
    case 2:
      return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id, "stalled", bad},
                     {"ZADD", s.active, "-1", s.id},
                     {"EMQ.STALLED.CHECK", s.b, "5"},
                     {"DEL", s.row}});
    case 3: {
      // attempts so (or "01", "+1", "001", which a lax parser reads as 1 too) on a lease
      // under a live deadline: not live for token 1 (EMQ §3, §6), 0 and nothing written,
      // beside a sound live lease of id2 (an EXTENDS of both: [0 1] or [1 0], in order)
      static constexpr std::string_view ones[] = {"01", "+1", "001"};
      const std::string attempts = prng.chance(500) ? std::string(ones[prng.between(0, 2)]) : bad;
      const bool first = prng.chance(500);
      return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", attempts, "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", s.active, s.live_score, s.id},
                     {"HSET", s.row2, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                      "max_failures", "3", "lease_epoch", t.run_id},
                     {"ZADD", s.active, s.live_score, s.id2},
                     prng.chance(500) ? (first ? Call{"EMQ.EXTENDS", s.b, s.lease, s.id, "1", s.id2, "1"}
                                               : Call{"EMQ.EXTENDS", s.b, s.lease, s.id2, "1", s.id, "1"})
                                      : lease_verb(prng, s.b, s.id, "1", s.lease),
                     {"DEL", s.row, s.row2}});
    }
    default: {
      // seq so (or with a leading zero or sign, which INCR refuses too): ADD refuses
      static constexpr std::string_view seqs[] = {"05", "+5"};
      const std::string seq = prng.chance(500) ? std::string(seqs[prng.between(0, 1)]) : bad;
      return s.then({{"SET", s.k.key("seq"), seq}, {"EMQ.ADD", s.b, s.id, "p"}, {"DEL", s.row}});
    }
  }
}
}  // namespace

std::vector<std::vector<std::string>> draw_value_edges(Prng& prng, const AdversaryTarget& t) {
  ValueEdge s(prng, t, t.queue + "-bad");
  switch (prng.between(0, 4)) {
    case 0: return budgets_past_9(prng, t, s);
    case 1: return large_tokens(prng, t, s);
    case 2: return numeric_looking_values(prng, s);
    case 3: return fields_named_near_the_spec(prng, s);
    default: return counters_a_lax_parser_reads(prng, t, s);
  }
}

}  // namespace trafikey::sim
