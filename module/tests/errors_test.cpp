// Every refusal of shared spec EMQ §6 with its exact text, each leaving the keyspace as it
// was (DEBUG DIGEST unchanged). `ERR EMQ host call failed` is not reachable on a healthy
// server (the epoch is always loaded, or the module is not); core unit tests cover it.
#include <string>
#include <vector>

#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

struct Refusal {
  std::vector<std::string> call;
  std::string error;
};

const std::string arity = "ERR EMQ wrong number of arguments";
const std::string syntax = "ERR EMQ syntax error";
const std::string bad_queue = "ERR EMQ bad queue name";
const std::string bad_id = "ERR EMQ bad job id";
const std::string lease_range = "ERR EMQ lease out of range";
const std::string wrong_type = "WRONGTYPE Operation against a key holding the wrong kind of value";
const std::string score_max = "9007199254740991";  // 2^53 - 1

std::vector<Refusal> refusals() {
  const std::string long_name(201, 'x');
  const std::string with_nul("a\0b", 3);
  return {
      // arity, per verb
      {{"EMQ.ADD", "q"}, arity},
      {{"EMQ.ADD", "q", "z", "p", "MAXFAILURES", "3", "extra"}, arity},
      {{"EMQ.CLAIM", "q"}, arity},
      {{"EMQ.EXTEND", "q", "a", "1"}, arity},
      {{"EMQ.EXTENDS", "q", "100", "a"}, arity},
      {{"EMQ.EXTENDS", "q", "100", "a", "1", "b"}, arity},
      {{"EMQ.COMPLETE", "q", "a"}, arity},
      {{"EMQ.FAIL", "q", "a", "1"}, arity},
      {{"EMQ.STALLED.CHECK", "q"}, arity},
      {{"EMQ.STATS"}, arity},
      {{"EMQ.STATS", "q", "x"}, arity},
      {{"EMQ.JOB", "q"}, arity},
      {{"EMQ.EPOCH", "x"}, arity},
      // options
      {{"EMQ.CLAIM", "q", "100", "COUNT"}, syntax},
      {{"EMQ.CLAIM", "q", "100", "BOGUS", "1"}, syntax},
      {{"EMQ.ADD", "q", "z", "p", "MAXFAILURES"}, syntax},
      {{"EMQ.STALLED.CHECK", "q", "1", "COUNT", "5"}, syntax},
      // names
      {{"EMQ.ADD", "a{b", "z", "p"}, bad_queue},
      {{"EMQ.ADD", "", "z", "p"}, bad_queue},
      {{"EMQ.ADD", long_name, "z", "p"}, bad_queue},
      {{"EMQ.STATS", "x}"}, bad_queue},
      {{"EMQ.JOB", with_nul, "a"}, bad_queue},
      {{"EMQ.ADD", "q", "", "p"}, bad_id},
      {{"EMQ.ADD", "q", long_name, "p"}, bad_id},
      {{"EMQ.JOB", "q", with_nul}, bad_id},
      // integers
      {{"EMQ.CLAIM", "q", "0"}, "ERR EMQ lease_ms must be an integer in 1.." + score_max},
      {{"EMQ.CLAIM", "q", "abc"}, "ERR EMQ lease_ms must be an integer in 1.." + score_max},
      {{"EMQ.CLAIM", "q", "100", "COUNT", "1001"},
       "ERR EMQ count must be an integer in 1..1000"},
      {{"EMQ.ADD", "q", "z", "p", "MAXFAILURES", "0"},
       "ERR EMQ max_failures must be an integer in 1..1000000"},
      {{"EMQ.EXTEND", "q", "a", "0", "100"},
       "ERR EMQ attempts must be an integer in 1..9223372036854775807"},
      {{"EMQ.STALLED.CHECK", "q", "0"}, "ERR EMQ max_stalled must be an integer in 1..1000000"},
      {{"EMQ.STALLED.CHECK", "q", "1", "LIMIT", "0"},
       "ERR EMQ limit must be an integer in 1..10000"},
      // leases past 2^53 - 1
      {{"EMQ.CLAIM", "q", score_max}, lease_range},
      {{"EMQ.EXTEND", "q", "a", "1", score_max}, lease_range},
      {{"EMQ.EXTENDS", "q", score_max, "a", "1"}, lease_range},
      // a queue key of the wrong type (emq:{w}:pending is a string)
      {{"EMQ.ADD", "w", "z", "p"}, wrong_type},
      {{"EMQ.CLAIM", "w", "100"}, wrong_type},
      {{"EMQ.STATS", "w"}, wrong_type},
      {{"EMQ.JOB", "q", "s"}, wrong_type},  // the row is a string
      // a row the core cannot read (not in §6's list, but a refusal all the same)
      {{"EMQ.CLAIM", "cq", "100"}, "ERR EMQ corrupt job row"},
  };
}

TEST(ModuleErrors, every_refusal_has_its_exact_text_and_writes_nothing) {
  RealServer server(with_module());
  auto c = server.connect();
  ASSERT_EQ(show(c.call({"EMQ.ADD", "q", "a", "pa"})), "1");
  ASSERT_EQ(show(c.call({"EMQ.ADD", "q", "b", "pb"})), "1");
  ASSERT_EQ(show(c.call({"EMQ.CLAIM", "q", "60000"})), R"([["a" 1 "pa"]])");
  ASSERT_EQ(show(c.call({"SET", "emq:{w}:pending", "x"})), "+OK");
  ASSERT_EQ(show(c.call({"SET", "emq:{q}:job:s", "x"})), "+OK");
  ASSERT_EQ(show(c.call({"HSET", "emq:{cq}:job:k", "state", "pending", "attempts", "x"})), "2");
  ASSERT_EQ(show(c.call({"ZADD", "emq:{cq}:pending", "1", "k"})), "1");
  const std::string before = digest(c);
  ASSERT_NE(before, std::string(40, '0'));

  for (const auto& r : refusals()) {
    SCOPED_TRACE(r.call[0] + " ... -> " + r.error);
    const Reply reply = c.call(r.call);
    EXPECT_EQ(show(reply), show(Reply::error(r.error)));
    EXPECT_EQ(digest(c), before);
  }
}

TEST(ModuleErrors, writers_refuse_on_a_replica_and_write_nothing) {
  RealServer server(with_module());
  auto c = server.connect();
  ASSERT_EQ(show(c.call({"EMQ.ADD", "q", "a", "pa"})), "1");
  const std::string before = digest(c);

  // A replica of an unreachable primary keeps its dataset. With replica-read-only off the
  // server lets write commands through and the verb's own fence answers.
  ASSERT_EQ(show(c.call({"CONFIG", "SET", "replica-read-only", "no"})), "+OK");
  ASSERT_EQ(show(c.call({"REPLICAOF", "127.0.0.1", "1"})), "+OK");
  for (const std::vector<std::string>& call : std::vector<std::vector<std::string>>{
           {"EMQ.ADD", "q", "z", "p"},
           {"EMQ.CLAIM", "q", "100"},
           {"EMQ.EXTEND", "q", "a", "1", "100"},
           {"EMQ.EXTENDS", "q", "100", "a", "1"},
           {"EMQ.COMPLETE", "q", "a", "1"},
           {"EMQ.FAIL", "q", "a", "1", "boom"},
           {"EMQ.STALLED.CHECK", "q", "1"}}) {
    SCOPED_TRACE(call[0]);
    EXPECT_EQ(show(c.call(call)), show(Reply::error("READONLY EMQ not a writable primary")));
  }
  EXPECT_EQ(digest(c), before);
  // Readers still answer on a replica.
  EXPECT_EQ(show(c.call({"EMQ.STATS", "q"})),
            R"(["pending" 1 "active" 0 "done" 0 "dead" 0])");

  // With replica-read-only on (the default) the server refuses first, with its own text.
  ASSERT_EQ(show(c.call({"CONFIG", "SET", "replica-read-only", "yes"})), "+OK");
  const Reply server_refusal = c.call({"EMQ.ADD", "q", "z", "p"});
  EXPECT_TRUE(server_refusal.is_error() && server_refusal.text().starts_with("READONLY "))
      << show(server_refusal);
  EXPECT_EQ(digest(c), before);

  ASSERT_EQ(show(c.call({"REPLICAOF", "NO", "ONE"})), "+OK");
  EXPECT_EQ(show(c.call({"EMQ.ADD", "q", "z", "p"})), "1");
}

}  // namespace
}  // namespace trafikey::real::test
