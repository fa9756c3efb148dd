// EMQ.ADD q id payload [MAXFAILURES n]  (shared spec EMQ §4): 1 added, 0 when the row key
// exists. Refusals are in refusals_test.cpp.
#include <gtest/gtest.h>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

using namespace std::string_literals;

TEST(Add, writes_row_then_incr_seq_then_zadd_pending) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j1", "hello"}), Int(1));
  EXPECT_EQ(s.writes(), list({
                            "HSET emq:{q}:job:j1 state pending payload hello attempts 0 "
                            "failures 0 max_failures 3",
                            "INCR emq:{q}:seq",
                            "ZADD emq:{q}:pending 1 j1",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:job:j1" hash "attempts"="0" "failures"="0" )"
                          R"("max_failures"="3" "payload"="hello" "state"="pending")",
                          R"("emq:{q}:pending" zset "j1"@1)",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Add, maxfailures_option_sets_the_failure_budget) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j1", "p", "MAXFAILURES", "7"}), Int(1));
  EXPECT_EQ(s.writes().front(),
            "HSET emq:{q}:job:j1 state pending payload p attempts 0 failures 0 max_failures 7");
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j2", "p", "maxfailures", "1"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j3", "p", "MaxFailures", "1000000"}), Int(1));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "max_failures"}), Bulk("7"));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j2", "max_failures"}), Bulk("1"));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j3", "max_failures"}), Bulk("1000000"));
}

TEST(Add, later_adds_order_after_earlier_ones) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "2"}), Int(1));
  EXPECT_EQ(s.writes().back(), "ZADD emq:{q}:pending 2 a");
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("b"), Bulk("1"), Bulk("a"), Bulk("2")}));
}

TEST(Add, order_continues_from_the_stored_seq) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"INCR", "emq:{q}:seq"}), Int(1));
  ASSERT_EQ(s.call({"INCR", "emq:{q}:seq"}), Int(2));
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j", "p"}), Int(1));
  EXPECT_EQ(s.writes().back(), "ZADD emq:{q}:pending 3 j");
}

TEST(Add, existing_row_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "first"}), Int(1));
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j1", "second", "MAXFAILURES", "9"}), Int(0));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(Add, row_key_of_another_type_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"INCR", "emq:{q}:job:j1"}), Int(1));
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(0));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
}

TEST(Add, payload_is_opaque_bytes) {
  ServerUnderTest s;
  const std::string payload = "a\0b\r\n\"\xff"s;
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j1", payload}), Int(1));
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "j2", ""}), Int(1));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "payload"}), Bulk(payload));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j2", "payload"}), Bulk(""));
}

TEST(Add, accepts_names_of_200_bytes) {
  ServerUnderTest s;
  const std::string q(200, 'q'), id(200, 'i');
  EXPECT_EQ(s.call({"EMQ.ADD", q, id, "p"}), Int(1));
  EXPECT_EQ(s.call({"ZSCORE", "emq:{" + q + "}:pending", id}), Bulk("1"));
  EXPECT_EQ(s.call({"TYPE", "emq:{" + q + "}:job:" + id}), Reply::simple("hash"));
}

TEST(Add, job_ids_may_hold_braces_and_colons) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.ADD", "q", "{x}:1", "p"}), Int(1));
  EXPECT_EQ(s.writes().back(), "ZADD emq:{q}:pending 1 {x}:1");
  EXPECT_EQ(s.call({"TYPE", "emq:{q}:job:{x}:1"}), Reply::simple("hash"));
}

TEST(Add, queues_keep_separate_keys_and_order) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "a", "j", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "b", "j", "2"}), Int(1));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{a}:job:j" hash "attempts"="0" "failures"="0" )"
                          R"("max_failures"="3" "payload"="1" "state"="pending")",
                          R"("emq:{a}:pending" zset "j"@1)",
                          R"("emq:{a}:seq" string "1")",
                          R"("emq:{b}:job:j" hash "attempts"="0" "failures"="0" )"
                          R"("max_failures"="3" "payload"="2" "state"="pending")",
                          R"("emq:{b}:pending" zset "j"@1)",
                          R"("emq:{b}:seq" string "1")",
                      }));
}

}  // namespace
}  // namespace trafikey::test
