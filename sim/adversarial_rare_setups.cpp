// Setups of sound but rare data (sim/adversarial_setup.h), drawn among the corruption setups
// (sim/adversarial_calls.h draw_corruption_setup): more than 100 jobs at once, long names and
// payloads, two ids with one trait the fleet never shows, and rows and keys EMQ §1-§3 allow
// that no fleet writes. Each ends by deleting the rows it made.
#include <iterator>

#include "core/args.h"
#include "sim/adversarial_setup.h"

namespace trafikey::sim::adversary {

namespace {
// How often the many-jobs setup gives its ids runs of equal scores and bytes above 0x7f.
constexpr std::int64_t ties_per_mille = 333;
// How often the setup of an id in pending and active at once deletes its row (a ghost in both).
constexpr std::int64_t ghost_in_both_per_mille = 500;
// How often the long-lease setup puts a deadline in active by hand instead (+inf, past int64).
constexpr std::int64_t hand_deadline_per_mille = 333;

// `n` bytes a name may hold (EMQ §1: no brace, no NUL), a colon and a byte above 0x7f
// among them, drawn from `prng`.
std::string name_bytes(Prng& prng, std::size_t n) {
  static constexpr char pool[] = {'a', 'b', 'z', '0', '9', ':', '-', ' ', '\xff', '\x80', '\x01', '~'};
  std::string s(n, 'a');
  for (char& c : s) c = pool[prng.between(0, static_cast<std::int64_t>(std::size(pool)) - 1)];
  return s;
}

// A live lease's row for `id`, token 1, stamped by this process.
Call live_row(const AdversaryTarget& t, const Setup& s, const std::string& id) {
  return Call{"HSET", s.k.row(id), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
              "max_failures", "3", "lease_epoch", t.run_id};
}

// A live lease's verb under an ACL that denies a key of the queue this verb does not write on
// its path (EMQ §6 asks only of the keys it will write): COMPLETE (pending, seq, dead), FAIL
// that kills with a budget of 1 (pending, seq, done), FAIL that requeues (done, dead),
// EXTEND(S) (any).
std::vector<Call> lease_verb_under_an_acl_off_its_path(Prng& prng, const AdversaryTarget& t, Setup& s,
                                                       const std::string& x) {
  const std::int64_t verb = prng.between(0, 4);
  const bool kill = verb == 1;
  std::vector<std::string> others;
  if (verb == 0) others = {s.pending, s.k.key("seq"), s.k.key("dead")};
  else if (verb == 1) others = {s.pending, s.k.key("seq"), s.k.key("done")};
  else if (verb == 2) others = {s.k.key("done"), s.k.key("dead")};
  else others = {s.pending, s.k.key("seq"), s.k.key("done"), s.k.key("dead")};
  const std::string denied = others[static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(others.size()) - 1))];
  const Call call = verb == 0   ? Call{"EMQ.COMPLETE", s.b, x, "1", "r"}
                    : verb <= 2 ? Call{"EMQ.FAIL", s.b, x, "1", "r"}
                    : verb == 3 ? Call{"EMQ.EXTEND", s.b, x, "1", s.lease}
                                : Call{"EMQ.EXTENDS", s.b, s.lease, x, "1"};
  return s.then({{"HSET", s.k.row(x), "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                  "max_failures", kill ? "1" : "3", "lease_epoch", t.run_id},
                 {"ZADD", s.active, s.live_score, x}, {"@DENY", denied}, call, {"DEL", s.k.row(x)}});
}

// A rare-rows setup: a job id of its own and its row, and whether the case takes the sweep's
// shape (else CLAIM's). Draws the id, then the shape of the case.
struct RareRow : Setup {
  RareRow(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> start)
      : Setup(t, b, std::move(start)), id("w" + std::to_string(prng.between(0, 999999999))), row(k.row(id)),
        sweep(prng.chance(500)) {}
  std::string id, row;
  bool sweep;
};

// A row without state.
std::vector<Call> row_without_state(const AdversaryTarget& t, RareRow& s) {
  if (s.sweep) {
    return s.then({{"HSET", s.row, "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
                    "lease_epoch", t.run_id},
                   {"ZADD", s.active, "-1", s.id},
                   {"EMQ.STALLED.CHECK", s.b, "5"},
                   {"DEL", s.row}});
  }
  return s.then({{"HSET", s.row, "payload", "p", "attempts", "0", "failures", "0", "max_failures", "3"},
                 {"ZADD", s.pending, "1", s.id},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 {"DEL", s.row}});
}

// An id in pending and in active at once.
std::vector<Call> id_in_two_sets(Prng& prng, const AdversaryTarget& t, RareRow& s) {
  if (prng.chance(ghost_in_both_per_mille)) {
    // its row gone too (the first DEL took it): a ghost in both sets. The sweep removes
    // it from active only, a CLAIM from pending only (EMQ §4, §5: nothing else is
    // written); a core that "removes a ghost everywhere" passes without this.
    return s.then({{"ZADD", s.active, s.sweep ? "-1" : s.live_score, s.id},
                   {"ZADD", s.pending, "1", s.id},
                   s.sweep ? Call{"EMQ.STALLED.CHECK", s.b, "5"} : Call{"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"}});
  }
  if (s.sweep) {
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", "3", "lease_epoch", t.run_id},
                   {"ZADD", s.active, "-1", s.id},
                   {"ZADD", s.pending, "7", s.id},
                   {"EMQ.STALLED.CHECK", s.b, "5"},  // recovered: a death would leave it in pending too
                   {"DEL", s.row}});
  }
  return s.then({{"HSET", s.row, "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                  "max_failures", "3"},
                 {"ZADD", s.pending, "1", s.id},
                 {"ZADD", s.active, s.live_score, s.id},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 {"DEL", s.row}});
}

// Counters far above the fleet's.
std::vector<Call> counters_far_above_the_fleets(Prng& prng, const AdversaryTarget& t, RareRow& s) {
  if (s.sweep) {
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", "3", "lease_epoch", t.run_id, "stalled",
                    prng.chance(500) ? "9223372036854775806" : "9007199254740993"},
                   {"ZADD", s.active, "-1", s.id},
                   {"EMQ.STALLED.CHECK", s.b, "5"},
                   {"DEL", s.row}});
  }
  static constexpr const char* high[] = {"9007199254740992", "9007199254740993", "9223372036854775806"};
  return s.then({{"HSET", s.row, "state", "pending", "payload", "p", "attempts", high[prng.between(0, 2)],
                  "failures", "0", "max_failures", "3"},
                 {"ZADD", s.pending, "1", s.id},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 {"DEL", s.row}});
}

// A stamp that is the run_id with a line end or a space around it.
std::vector<Call> stamp_with_a_line_end_or_space(Prng& prng, const AdversaryTarget& t, RareRow& s) {
  static constexpr const char* around[] = {"\r\n", "\n", "\r", " "};
  const std::string extra = around[prng.between(0, 3)];
  return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                  "max_failures", "3", "lease_epoch", prng.chance(750) ? t.run_id + extra : extra + t.run_id},
                 {"ZADD", s.active, "-1", s.id},
                 {"EMQ.STALLED.CHECK", s.b, "1"},
                 {"DEL", s.row}});
}

// A lane row stamped by another process, by none, or empty.
std::vector<Call> lane_row_stamp(Prng& prng, RareRow& s) {
  Call hset{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures", "3",
            "group", "g"};
  const std::int64_t stamp = prng.between(0, 2);
  if (stamp < 2) {
    hset.push_back("lease_epoch");
    hset.push_back(stamp == 0 ? std::string() : std::string(40, '0'));
  }
  return s.then({hset, {"ZADD", s.active, "-1", s.id}, {"EMQ.STALLED.CHECK", s.b, "1"}, {"DEL", s.row}});
}

// An id with braces, added, claimed, finished and read.
std::vector<Call> id_with_braces(Prng& prng, RareRow& s) {
  static constexpr const char* shapes[] = {"{", "}", "{x}", "}{", "{{"};
  const std::string bid = std::string(shapes[prng.between(0, 4)]) + s.id + (prng.chance(500) ? "}" : ":{z");
  return s.then({{"EMQ.ADD", s.b, bid, "p"},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 pick(prng, {{"EMQ.COMPLETE", s.b, bid, "1", "r"}, {"EMQ.FAIL", s.b, bid, "1", "r"},
                             {"EMQ.EXTEND", s.b, bid, "1", s.lease}, {"EMQ.EXTENDS", s.b, s.lease, bid, "1"}}),
                 {"EMQ.JOB", s.b, bid},
                 {"DEL", s.k.row(bid)}});
}

// A long lease granted by CLAIM: 2^31 ms, 2^32 + 1 ms, or up to the 2^53-1 bound.
std::vector<Call> long_lease_granted(Prng& prng, const AdversaryTarget& t, RareRow& s) {
  if (prng.chance(hand_deadline_per_mille)) {
    // or a deadline no verb writes, put in active by hand (an operator pinning a lease):
    // +inf, 1e300 or 2^63 and more, past what an int64 holds. Live (EMQ §3: deadline >=
    // now; the row's state and token match): its verb extends, completes or fails it. The
    // verbs' deadlines are whole ms below 2^53: a core that reads a deadline as an int64
    // passes every run without this.
    static constexpr const char* far[] = {"+inf", "1e300", "9223372036854775808", "1.8e19"};
    return s.then({{"HSET", s.row, "state", "active", "payload", "p", "attempts", "1", "failures", "0",
                    "max_failures", "3", "lease_epoch", t.run_id},
                   {"ZADD", s.active, far[prng.between(0, 3)], s.id},
                   pick(prng, {{"EMQ.COMPLETE", s.b, s.id, "1", "r"}, {"EMQ.FAIL", s.b, s.id, "1", "r"},
                               {"EMQ.EXTEND", s.b, s.id, "1", s.lease}, {"EMQ.EXTENDS", s.b, s.lease, s.id, "1"}}),
                   {"DEL", s.row}});
  }
  const std::int64_t r = prng.between(0, 2);
  const std::string long_lease = r == 0 ? "2147483648" : r == 1 ? "4294967297" : std::to_string(score_max - t.server_ms);
  return s.then({{"EMQ.ADD", s.b, s.id, "p"},
                 {"EMQ.CLAIM", s.b, long_lease, "COUNT", "2"},
                 {"EMQ.JOB", s.b, s.id},
                 {"DEL", s.row}});
}

// A ghost ahead of a sound row, the ghost's row key denied.
std::vector<Call> ghost_ahead_denied(RareRow& s) {
  const std::string g = "g" + s.id;
  return s.then({{"DEL", s.k.row(g)},
                 {"ZADD", s.pending, "1", g},
                 {"HSET", s.row, "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                  "max_failures", "3"},
                 {"ZADD", s.pending, "2", s.id},
                 {"@DENY", s.k.row(g)},
                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                 {"DEL", s.row}});
}
}  // namespace

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
    // All of them, the bound, or fewer than all but more than 100 (all of them when n is
    // 101: no count lies between).
    const std::int64_t r = prng.between(0, 2);
    const std::int64_t count = r == 0 ? n : r == 1 ? 1000 : n > 101 ? prng.between(101, n - 1) : n;
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
  Setup s(t, b, std::move(calls));
  const std::string x = "x" + std::to_string(prng.between(0, 999999999));
  const std::string y = "y" + std::to_string(prng.between(0, 999999999));
  switch (prng.between(0, 10)) {
    case 0:  // CLAIM without COUNT of two pending jobs
      return s.then({{"EMQ.ADD", s.b, x, "p"}, {"EMQ.ADD", s.b, y, "p"}, {"EMQ.CLAIM", s.b, s.lease},
                     {"DEL", s.k.row(x), s.k.row(y)}});
    case 1:  // a corrupt row behind a sound one: claimed with it (refused), or past COUNT
             // (COUNT 1, or none: x claimed, y never read, EMQ §4 walks only up to n)
      return s.then({{"HSET", s.k.row(x), "state", "pending", "payload", "p", "attempts", "0", "failures", "0",
                      "max_failures", "3"},
                     {"ZADD", s.pending, "1", x},
                     {"HSET", s.k.row(y), "state", "pending", "payload", "p", "attempts", bad, "failures", "0",
                      "max_failures", "3"},
                     {"ZADD", s.pending, "2", y},
                     pick(prng, {{"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"}, {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                                 {"EMQ.CLAIM", s.b, s.lease, "COUNT", "1"}, {"EMQ.CLAIM", s.b, s.lease}}),
                     {"DEL", s.k.row(x), s.k.row(y)}});
    case 2:  // a row without payload claimed
      return s.then({{"HSET", s.k.row(x), "state", "pending", "attempts", "0", "failures", "0", "max_failures", "3"},
                     {"ZADD", s.pending, "1", x},
                     {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                     {"DEL", s.k.row(x)}});
    case 3:  // a row without payload or attempts claimed
      return s.then({{"HSET", s.k.row(x), "state", "pending", "failures", "0", "max_failures", "3"},
                     {"ZADD", s.pending, "1", x},
                     {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"},
                     {"DEL", s.k.row(x)}});
    case 4:  // a CLAIM that meets only a ghost, under an ACL denying pending
      return s.then({{"EMQ.ADD", s.b, x, "p"}, {"DEL", s.k.row(x)}, {"@DENY", s.pending},
                     {"EMQ.CLAIM", s.b, s.lease, "COUNT", "2"}});
    case 5:  // two live leases extended together, under an ACL denying the second row
      return s.then({live_row(t, s, x), live_row(t, s, y), {"ZADD", s.active, s.live_score, x, s.live_score, y},
                     {"@DENY", s.k.row(y)}, {"EMQ.EXTENDS", s.b, s.lease, x, "1", y, "1"},
                     {"DEL", s.k.row(x), s.k.row(y)}});
    case 6:  // an ADD of an existing id under an ACL denying its row
      return s.then({{"EMQ.ADD", s.b, x, "p"}, {"@DENY", s.k.row(x)}, {"EMQ.ADD", s.b, x, "p"}, {"DEL", s.k.row(x)}});
    case 7:  // an ADD with a budget far above the fleet's
      return s.then({{"EMQ.ADD", s.b, x, "p", "MAXFAILURES", std::to_string(prng.between(1001, 1000000))},
                     {"DEL", s.k.row(x)}});
    case 8: {  // a row with a field outside EMQ §1's table, read by JOB: ASCII, or (one time
               // in two) a name with a byte above 0x7f ("état"), which sorts after every
               // ASCII name by bytes (EMQ §4) and first by signed chars
      const std::string note = prng.chance(500) ? "\xc3\xa9tat" : "note";
      return s.then({{"EMQ.ADD", s.b, x, "p"}, {"HSET", s.k.row(x), note, "v"}, {"EMQ.JOB", s.b, x}, {"DEL", s.k.row(x)}});
    }
    case 10: return lease_verb_under_an_acl_off_its_path(prng, t, s, x);
    default:  // a live lease extended with a lease of 2^31 ms or more, or past 2^53-1
      return s.then({live_row(t, s, x), {"ZADD", s.active, s.live_score, x},
                     pick(prng, {{"EMQ.EXTEND", s.b, x, "1", "2147483648"}, {"EMQ.EXTEND", s.b, x, "1", "9007199254740991"},
                                 {"EMQ.EXTENDS", s.b, "9007199254740991", x, "1"}}),
                     {"DEL", s.k.row(x)}});
  }
}

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
  RareRow s(prng, t, b, std::move(calls));
  const std::int64_t shape = prng.between(0, 7);
  // the setup's first DEL takes the row key too: to the checker the id is then a ghost, whose
  // row may disagree with its sets (a row without state, an id in two sets)
  if (shape <= 4) s.calls.front().push_back(s.row);
  switch (shape) {
    case 0: return row_without_state(t, s);
    case 1: return id_in_two_sets(prng, t, s);
    case 2: return counters_far_above_the_fleets(prng, t, s);
    case 3: return stamp_with_a_line_end_or_space(prng, t, s);
    case 4: return lane_row_stamp(prng, s);
    case 5: return id_with_braces(prng, s);
    case 6: return long_lease_granted(prng, t, s);
    default: return ghost_ahead_denied(s);
  }
}

}  // namespace trafikey::sim::adversary
