// Every refusal of shared spec EMQ §3, §4 and §6, table-driven: each case answers its exact
// error text, takes no Writer, and leaves the keyspace byte-identical (Keyspace::dump()
// before and after). Each case runs on the same populated queue, where every refusal would
// otherwise have something to write.
#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

struct Refusal {
  std::string name;  // the rule, as the ctest name
  std::vector<std::string> argv;
  std::string error;
  std::function<void(ServerUnderTest&)> setup;  // on top of the populated queue
};

void PrintTo(const Refusal& r, std::ostream* os) {
  *os << r.name << ":";
  for (const auto& a : r.argv) *os << ' ' << sim::quote_bytes(a);
}

// Queue q at now 2000:
//   active  a1@6000 (live, token 1, max_failures 3), d1@6000 (live, token 1,
//           max_failures 1), x1@1010 (expired, stamped NOW)
//   pending p1@6 p2@7;  done c1@1000;  dead e1@1000;  seq 7
void populate(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a1", "pa1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "d1", "pd1", "MAXFAILURES", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "x1", "px1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "c1", "pc1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "e1", "pe1", "MAXFAILURES", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "p1", "pp1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "p2", "pp2"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "5000", "COUNT", "2"}).items().size(), 2u);
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "10"}), Arr({Claimed("x1", 1, "px1")}));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "5000", "COUNT", "2"}).items().size(), 2u);
  ASSERT_EQ(s.call({"EMQ.COMPLETE", "q", "c1", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.FAIL", "q", "e1", "1", "boom"}), Int(2));
  s.set_now_ms(2000);
  ASSERT_EQ(s.call({"ZRANGE", "emq:{q}:active", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("x1"), Bulk("1010"), Bulk("a1"), Bulk("6000"), Bulk("d1"),
                 Bulk("6000")}));
}

// ---- setups
std::function<void(ServerUnderTest&)> as_string(std::string key) {
  return [key](ServerUnderTest& s) {
    s.data.del(key);
    s.data.set(key, "x");
  };
}
std::function<void(ServerUnderTest&)> as_hash(std::string key) {
  return [key](ServerUnderTest& s) {
    s.data.del(key);
    s.data.hset(key, "f", "v");
  };
}
std::function<void(ServerUnderTest&)> with_field(std::string key, std::string field,
                                                 std::string value) {
  return [=](ServerUnderTest& s) { s.data.hset(key, field, value); };
}
std::function<void(ServerUnderTest&)> as_role(sim::Role role) {
  return [role](ServerUnderTest& s) { s.server.set_role(role); };
}
std::function<void(ServerUnderTest&)> denied(std::string key) {
  return [key](ServerUnderTest& s) {
    s.server.set_write_denied([key](std::string_view k) { return k == key; });
  };
}

const std::string kArity = "ERR EMQ wrong number of arguments";
const std::string kSyntax = "ERR EMQ syntax error";
const std::string kBadQueue = "ERR EMQ bad queue name";
const std::string kBadId = "ERR EMQ bad job id";
const std::string kLease = "ERR EMQ lease out of range";
const std::string kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";
const std::string kReadonly = "READONLY EMQ not a writable primary";
const std::string kCorrupt = "ERR EMQ corrupt job row";
const std::string kNotInteger = "ERR value is not an integer or out of range";
const std::string kMaxFailures = "ERR EMQ max_failures must be an integer in 1..1000000";
const std::string kLeaseMs = "ERR EMQ lease_ms must be an integer in 1..9007199254740991";
const std::string kCount = "ERR EMQ count must be an integer in 1..1000";
const std::string kAttempts = "ERR EMQ attempts must be an integer in 1..9223372036854775807";
const std::string kMaxStalled = "ERR EMQ max_stalled must be an integer in 1..1000000";
const std::string kLimit = "ERR EMQ limit must be an integer in 1..10000";
std::string noperm(std::string_view key) {
  return "NOPERM EMQ no write access to " + std::string(key);
}

// argv with every "$" replaced by `value`
std::vector<std::string> fill(const std::vector<std::string>& shape, const std::string& value) {
  std::vector<std::string> out;
  for (const auto& a : shape) out.push_back(a == "$" ? value : a);
  return out;
}

// now 2000: the largest lease_ms whose deadline is 2^53 - 1, plus one
const std::string kOverflowLease = "9007199254738992";

std::vector<Refusal> all_refusals() {
  std::vector<Refusal> t;
  auto add = [&t](std::string name, std::vector<std::string> argv, std::string error,
                  std::function<void(ServerUnderTest&)> setup = {}) {
    t.push_back({std::move(name), std::move(argv), std::move(error), std::move(setup)});
  };

  // ---- arity, counted against the command table
  add("add_arity_too_few", {"EMQ.ADD", "q", "j"}, kArity);
  add("add_arity_too_many", {"EMQ.ADD", "q", "j", "p", "MAXFAILURES", "3", "x"}, kArity);
  add("claim_arity_too_few", {"EMQ.CLAIM", "q"}, kArity);
  add("claim_arity_too_many", {"EMQ.CLAIM", "q", "100", "COUNT", "1", "WIRE", "1", "x"}, kArity);
  add("claim_odd_option_tail", {"EMQ.CLAIM", "q", "100", "COUNT", "1", "x"}, kSyntax);
  add("extend_arity_too_few", {"EMQ.EXTEND", "q", "a1", "1"}, kArity);
  add("extend_arity_too_many", {"EMQ.EXTEND", "q", "a1", "1", "100", "x"}, kArity);
  add("extends_arity_without_pair", {"EMQ.EXTENDS", "q", "100", "a1"}, kArity);
  add("extends_arity_half_pair", {"EMQ.EXTENDS", "q", "100", "a1", "1", "x1"}, kArity);
  {
    std::vector<std::string> argv{"EMQ.EXTENDS", "q", "100"};
    for (int i = 0; i < 1001; ++i) {
      argv.push_back("a1");
      argv.push_back("1");
    }
    add("extends_arity_1001_pairs", argv, kArity);
  }
  add("complete_arity_too_few", {"EMQ.COMPLETE", "q", "a1"}, kArity);
  add("complete_arity_too_many", {"EMQ.COMPLETE", "q", "a1", "1", "r", "x"}, kArity);
  add("fail_arity_too_few", {"EMQ.FAIL", "q", "a1", "1"}, kArity);
  add("fail_arity_too_many", {"EMQ.FAIL", "q", "a1", "1", "r", "x"}, kArity);
  add("stalled_check_arity_too_few", {"EMQ.STALLED.CHECK", "q"}, kArity);
  add("stalled_check_arity_too_many", {"EMQ.STALLED.CHECK", "q", "1", "LIMIT", "5", "x"},
      kArity);
  add("stats_arity_too_few", {"EMQ.STATS"}, kArity);
  add("stats_arity_too_many", {"EMQ.STATS", "q", "x"}, kArity);
  add("job_arity_too_few", {"EMQ.JOB", "q"}, kArity);
  add("job_arity_too_many", {"EMQ.JOB", "q", "a1", "x"}, kArity);
  add("epoch_arity_too_many", {"EMQ.EPOCH", "x"}, kArity);

  // ---- option syntax
  add("add_option_without_value", {"EMQ.ADD", "q", "j", "p", "MAXFAILURES"}, kSyntax);
  add("add_unknown_option", {"EMQ.ADD", "q", "j", "p", "COUNT", "3"}, kSyntax);
  add("claim_option_without_value", {"EMQ.CLAIM", "q", "100", "COUNT"}, kSyntax);
  add("claim_unknown_option", {"EMQ.CLAIM", "q", "100", "LIMIT", "5"}, kSyntax);
  add("stalled_check_option_without_value", {"EMQ.STALLED.CHECK", "q", "1", "LIMIT"}, kSyntax);
  add("stalled_check_unknown_option", {"EMQ.STALLED.CHECK", "q", "1", "COUNT", "5"}, kSyntax);

  // ---- queue names: 1..200 bytes, no '{', '}', NUL
  const std::vector<std::pair<std::string, std::vector<std::string>>> queue_verbs{
      {"add", {"EMQ.ADD", "$", "new", "p"}},
      {"claim", {"EMQ.CLAIM", "$", "100"}},
      {"extend", {"EMQ.EXTEND", "$", "a1", "1", "100"}},
      {"extends", {"EMQ.EXTENDS", "$", "100", "a1", "1"}},
      {"complete", {"EMQ.COMPLETE", "$", "a1", "1"}},
      {"fail", {"EMQ.FAIL", "$", "a1", "1", "r"}},
      {"stalled_check", {"EMQ.STALLED.CHECK", "$", "1"}},
      {"stats", {"EMQ.STATS", "$"}},
      {"job", {"EMQ.JOB", "$", "a1"}},
  };
  const std::vector<std::pair<std::string, std::string>> bad_queues{
      {"with_open_brace", "q{"},
      {"with_close_brace", "}q"},
      {"with_nul", std::string("q\0", 2)},
      {"empty", ""},
      {"of_201_bytes", std::string(201, 'q')},
  };
  for (const auto& [verb, shape] : queue_verbs) {
    for (const auto& [why, q] : bad_queues) {
      add(verb + "_queue_" + why, fill(shape, q), kBadQueue);
    }
  }

  // ---- job ids: 1..200 bytes, no NUL
  const std::vector<std::pair<std::string, std::vector<std::string>>> id_verbs{
      {"add", {"EMQ.ADD", "q", "$", "p"}},
      {"extend", {"EMQ.EXTEND", "q", "$", "1", "100"}},
      {"extends_first_pair", {"EMQ.EXTENDS", "q", "100", "$", "1", "a1", "1"}},
      {"extends_second_pair", {"EMQ.EXTENDS", "q", "100", "a1", "1", "$", "1"}},
      {"complete", {"EMQ.COMPLETE", "q", "$", "1"}},
      {"fail", {"EMQ.FAIL", "q", "$", "1", "r"}},
      {"job", {"EMQ.JOB", "q", "$"}},
  };
  const std::vector<std::pair<std::string, std::string>> bad_ids{
      {"empty", ""},
      {"with_nul", std::string("a\0", 2)},
      {"of_201_bytes", std::string(201, 'j')},
  };
  for (const auto& [verb, shape] : id_verbs) {
    for (const auto& [why, id] : bad_ids) add(verb + "_job_id_" + why, fill(shape, id), kBadId);
  }

  // ---- integers: non-integers and out-of-range values name their range
  const std::vector<std::pair<std::string, std::string>> max_failures{
      {"0", "0"}, {"1000001", "1000001"}, {"negative", "-1"}, {"word", "abc"},
      {"leading_zero", "01"}, {"fraction", "1.5"}, {"leading_space", " 3"}};
  for (const auto& [why, v] : max_failures) {
    add("add_max_failures_" + why, {"EMQ.ADD", "q", "new", "p", "MAXFAILURES", v},
        kMaxFailures);
  }
  const std::vector<std::pair<std::string, std::string>> lease_ms{
      {"0", "0"}, {"negative", "-5"}, {"word", "x"}, {"exponent", "1e3"},
      {"2_pow_53", "9007199254740992"}, {"int64_overflow", "9223372036854775808"}};
  for (const auto& [why, v] : lease_ms) {
    add("claim_lease_ms_" + why, {"EMQ.CLAIM", "q", v}, kLeaseMs);
    add("extend_lease_ms_" + why, {"EMQ.EXTEND", "q", "a1", "1", v}, kLeaseMs);
    add("extends_lease_ms_" + why, {"EMQ.EXTENDS", "q", v, "a1", "1"}, kLeaseMs);
  }
  for (const auto& [why, v] : std::vector<std::pair<std::string, std::string>>{
           {"0", "0"}, {"1001", "1001"}, {"word", "two"}, {"negative", "-1"}}) {
    add("claim_count_" + why, {"EMQ.CLAIM", "q", "100", "COUNT", v}, kCount);
  }
  const std::vector<std::pair<std::string, std::string>> attempts{
      {"0", "0"}, {"negative", "-1"}, {"word", "abc"}, {"int64_overflow", "9223372036854775808"}};
  for (const auto& [why, v] : attempts) {
    add("extend_attempts_" + why, {"EMQ.EXTEND", "q", "a1", v, "100"}, kAttempts);
    add("extends_attempts_first_pair_" + why, {"EMQ.EXTENDS", "q", "100", "a1", v, "d1", "1"},
        kAttempts);
    add("extends_attempts_second_pair_" + why, {"EMQ.EXTENDS", "q", "100", "a1", "1", "d1", v},
        kAttempts);
    add("complete_attempts_" + why, {"EMQ.COMPLETE", "q", "a1", v}, kAttempts);
    add("fail_attempts_" + why, {"EMQ.FAIL", "q", "a1", v, "r"}, kAttempts);
  }
  for (const auto& [why, v] : std::vector<std::pair<std::string, std::string>>{
           {"0", "0"}, {"1000001", "1000001"}, {"word", "x"}, {"negative", "-3"}}) {
    add("stalled_check_max_stalled_" + why, {"EMQ.STALLED.CHECK", "q", v}, kMaxStalled);
  }
  for (const auto& [why, v] : std::vector<std::pair<std::string, std::string>>{
           {"0", "0"}, {"10001", "10001"}, {"word", "all"}}) {
    add("stalled_check_limit_" + why, {"EMQ.STALLED.CHECK", "q", "1", "LIMIT", v}, kLimit);
  }

  // ---- lease overflow: now 2000 + lease_ms > 2^53 - 1
  add("claim_deadline_past_2_pow_53_minus_1", {"EMQ.CLAIM", "q", kOverflowLease}, kLease);
  add("claim_largest_lease_ms_overflows_deadline", {"EMQ.CLAIM", "q", "9007199254740991"},
      kLease);
  add("extend_deadline_past_2_pow_53_minus_1", {"EMQ.EXTEND", "q", "a1", "1", kOverflowLease},
      kLease);
  add("extends_deadline_past_2_pow_53_minus_1",
      {"EMQ.EXTENDS", "q", kOverflowLease, "a1", "1", "d1", "1"}, kLease);

  // ---- wrong key types
  const std::string active = "emq:{q}:active", pending = "emq:{q}:pending",
                    done = "emq:{q}:done", dead = "emq:{q}:dead", seq = "emq:{q}:seq";
  add("add_pending_not_a_zset", {"EMQ.ADD", "q", "new", "p"}, kWrongType, as_string(pending));
  add("add_seq_not_a_string", {"EMQ.ADD", "q", "new", "p"}, kWrongType, as_hash(seq));
  add("add_seq_not_an_integer", {"EMQ.ADD", "q", "new", "p"}, kNotInteger,
      [](ServerUnderTest& s) { s.data.set("emq:{q}:seq", "seven"); });
  add("add_seq_at_int64_max", {"EMQ.ADD", "q", "new", "p"}, kNotInteger,
      [](ServerUnderTest& s) { s.data.set("emq:{q}:seq", "9223372036854775807"); });
  add("claim_pending_not_a_zset", {"EMQ.CLAIM", "q", "100"}, kWrongType, as_string(pending));
  add("claim_active_not_a_zset", {"EMQ.CLAIM", "q", "100"}, kWrongType, as_hash(active));
  add("extend_active_not_a_zset", {"EMQ.EXTEND", "q", "a1", "1", "100"}, kWrongType,
      as_string(active));
  add("extends_active_not_a_zset", {"EMQ.EXTENDS", "q", "100", "a1", "1"}, kWrongType,
      as_string(active));
  add("complete_active_not_a_zset", {"EMQ.COMPLETE", "q", "a1", "1"}, kWrongType,
      as_string(active));
  add("complete_done_not_a_zset", {"EMQ.COMPLETE", "q", "a1", "1"}, kWrongType,
      as_string(done));
  add("fail_active_not_a_zset", {"EMQ.FAIL", "q", "a1", "1", "r"}, kWrongType,
      as_string(active));
  add("fail_pending_not_a_zset", {"EMQ.FAIL", "q", "a1", "1", "r"}, kWrongType,
      as_string(pending));
  add("fail_dead_not_a_zset", {"EMQ.FAIL", "q", "d1", "1", "r"}, kWrongType, as_string(dead));
  add("fail_requeue_seq_not_a_string", {"EMQ.FAIL", "q", "a1", "1", "r"}, kWrongType,
      as_hash(seq));
  add("stalled_check_active_not_a_zset", {"EMQ.STALLED.CHECK", "q", "1"}, kWrongType,
      as_hash(active));
  add("stalled_check_pending_not_a_zset", {"EMQ.STALLED.CHECK", "q", "1"}, kWrongType,
      as_string(pending));
  add("stalled_check_dead_not_a_zset", {"EMQ.STALLED.CHECK", "q", "1"}, kWrongType,
      as_string(dead));
  for (const auto& key : {pending, active, done, dead}) {
    add("stats_" + key.substr(8) + "_not_a_zset", {"EMQ.STATS", "q"}, kWrongType,
        as_string(key));
  }
  add("job_row_not_a_hash", {"EMQ.JOB", "q", "a1"}, kWrongType, as_string("emq:{q}:job:a1"));

  // ---- corrupt rows (an integer field that is not one)
  add("claim_row_attempts_not_an_integer", {"EMQ.CLAIM", "q", "100"}, kCorrupt,
      with_field("emq:{q}:job:p1", "attempts", "x"));
  add("fail_row_failures_not_an_integer", {"EMQ.FAIL", "q", "a1", "1", "r"}, kCorrupt,
      with_field("emq:{q}:job:a1", "failures", "x"));
  add("fail_row_max_failures_not_an_integer", {"EMQ.FAIL", "q", "a1", "1", "r"}, kCorrupt,
      with_field("emq:{q}:job:a1", "max_failures", "-"));
  add("stalled_check_counted_row_stalled_not_an_integer", {"EMQ.STALLED.CHECK", "q", "1"},
      kCorrupt, with_field("emq:{q}:job:x1", "stalled", "x"));

  // ---- the fence: writing verbs on a replica or a loading server
  const std::vector<std::pair<std::string, std::vector<std::string>>> writers{
      {"add", {"EMQ.ADD", "q", "new", "p"}},
      {"claim", {"EMQ.CLAIM", "q", "100"}},
      {"extend", {"EMQ.EXTEND", "q", "a1", "1", "100"}},
      {"extends", {"EMQ.EXTENDS", "q", "100", "a1", "1"}},
      {"complete", {"EMQ.COMPLETE", "q", "a1", "1"}},
      {"fail", {"EMQ.FAIL", "q", "a1", "1", "r"}},
      {"stalled_check", {"EMQ.STALLED.CHECK", "q", "1"}},
  };
  for (const auto& [verb, argv] : writers) {
    add(verb + "_on_a_replica", argv, kReadonly, as_role(sim::Role::replica));
    add(verb + "_while_loading", argv, kReadonly, as_role(sim::Role::loading));
  }

  // ---- access: every key the verb would write
  struct Access {
    std::string verb;
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> keys;  // name, key
  };
  const std::vector<Access> accesses{
      {"add", {"EMQ.ADD", "q", "new", "p"},
       {{"row", "emq:{q}:job:new"}, {"seq", seq}, {"pending", pending}}},
      {"claim", {"EMQ.CLAIM", "q", "100"},
       {{"pending", pending}, {"active", active}, {"row", "emq:{q}:job:p1"}}},
      {"extend", {"EMQ.EXTEND", "q", "a1", "1", "100"},
       {{"active", active}, {"row", "emq:{q}:job:a1"}}},
      {"extends", {"EMQ.EXTENDS", "q", "100", "x1", "1", "a1", "1", "d1", "1"},
       {{"active", active}, {"first_live_row", "emq:{q}:job:a1"},
        {"second_live_row", "emq:{q}:job:d1"}}},
      {"complete", {"EMQ.COMPLETE", "q", "a1", "1"},
       {{"active", active}, {"done", done}, {"row", "emq:{q}:job:a1"}}},
      {"fail_requeue", {"EMQ.FAIL", "q", "a1", "1", "r"},
       {{"active", active}, {"seq", seq}, {"pending", pending}, {"row", "emq:{q}:job:a1"}}},
      {"fail_dead_letter", {"EMQ.FAIL", "q", "d1", "1", "r"},
       {{"active", active}, {"dead", dead}, {"row", "emq:{q}:job:d1"}}},
      {"stalled_check_dead", {"EMQ.STALLED.CHECK", "q", "1"},
       {{"active", active}, {"dead", dead}, {"row", "emq:{q}:job:x1"}}},
      {"stalled_check_recover", {"EMQ.STALLED.CHECK", "q", "3"},
       {{"active", active}, {"pending", pending}, {"row", "emq:{q}:job:x1"}}},
  };
  for (const auto& a : accesses) {
    for (const auto& [name, key] : a.keys) {
      add(a.verb + "_without_write_access_to_" + name, a.argv, noperm(key), denied(key));
    }
  }
  return t;
}

class Refuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(Refuses, with_exact_text_and_keyspace_byte_identical) {
  const Refusal& r = GetParam();
  ServerUnderTest s;
  populate(s);
  if (r.setup) r.setup(s);
  const std::string before = s.dump();
  EXPECT_EQ(s.call(r.argv), Err(r.error));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

INSTANTIATE_TEST_SUITE_P(Emq, Refuses, ::testing::ValuesIn(all_refusals()),
                         [](const ::testing::TestParamInfo<Refusal>& info) {
                           return info.param.name;
                         });

// ---- what is not refused

TEST(NotRefused, extends_needs_no_write_access_to_dead_pairs) {
  ServerUnderTest s;
  populate(s);
  s.server.set_write_denied([](std::string_view k) { return k == "emq:{q}:job:x1"; });
  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "100", "x1", "1", "a1", "1"}), Arr({Int(0), Int(1)}));
  EXPECT_EQ(s.writes(), list({"ZADD emq:{q}:active 2100 a1",
                              "HSET emq:{q}:job:a1 lease_epoch <NOW>"}));
}

TEST(NotRefused, read_only_verbs_pass_no_fence_and_need_no_write_access) {
  ServerUnderTest s;
  populate(s);
  s.server.set_role(sim::Role::replica);
  s.server.set_write_denied([](std::string_view) { return true; });
  EXPECT_EQ(s.call({"EMQ.STATS", "q"}), Arr({Bulk("pending"), Int(2), Bulk("active"), Int(3),
                                             Bulk("done"), Int(1), Bulk("dead"), Int(1)}));
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "c1"}).items().size(), 14u);
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(NOW));
}

TEST(NotRefused, lowercase_verb_names_dispatch) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"emq.add", "q", "j", "p"}), Int(1));
  EXPECT_EQ(s.call({"Emq.Claim", "q", "100"}), Arr({Claimed("j", 1, "p")}));
}

}  // namespace
}  // namespace trafikey::test
