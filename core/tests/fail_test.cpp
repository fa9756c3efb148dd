// EMQ.FAIL q id attempts reason  (shared spec EMQ §4): f = failures + 1; 1 requeued when
// f < max_failures, 2 dead-lettered when f >= max_failures, 0 when not live.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

TEST(Fail, requeues_below_max_failures_behind_the_queue) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.set_now_ms(1200);
  EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j1", "1", "boom"}), Int(1));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "INCR emq:{q}:seq",
                            "ZADD emq:{q}:pending 2 j1",
                            "HSET emq:{q}:job:j1 state pending failures 1 error boom",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:job:j1" hash "attempts"="1" "error"="boom" )"
                          R"("failures"="1" "lease"="<NOW>-1000" "lease_epoch"="<NOW>" "max_failures"="3" )"
                          R"("payload"="p" "state"="pending")",
                          R"("emq:{q}:pending" zset "j1"@2)",
                          R"("emq:{q}:seq" string "2")",
                      }));
}

TEST(Fail, dead_letters_at_max_failures) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p", "MAXFAILURES", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.set_now_ms(1200);
  EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j1", "1", "fatal"}), Int(2));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:dead 1200 j1",
                            "HSET emq:{q}:job:j1 state dead failures 1 dead_reason failed "
                            "error fatal",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:dead" zset "j1"@1200)",
                          R"("emq:{q}:job:j1" hash "attempts"="1" "dead_reason"="failed" )"
                          R"("error"="fatal" "failures"="1" "lease"="<NOW>-1000" "lease_epoch"="<NOW>" )"
                          R"("max_failures"="1" "payload"="p" "state"="dead")",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Fail, failures_accumulate_across_claims_until_the_budget) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p", "MAXFAILURES", "2"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j1", "1", "first"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 2, "p")}));
  EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j1", "1", "stale"}), Int(0));  // the old token
  EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j1", "2", "second"}), Int(2));
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "j1"}),
            Arr({Bulk("attempts"), Bulk("2"), Bulk("dead_reason"), Bulk("failed"),
                 Bulk("error"), Bulk("second"), Bulk("failures"), Bulk("2"),
                 Bulk("lease"), Bulk(std::string(NOW) + "-1001"),
                 Bulk("lease_epoch"), Bulk(NOW), Bulk("max_failures"), Bulk("2"),
                 Bulk("payload"), Bulk("p"), Bulk("state"), Bulk("dead")}));
}

TEST(Fail, requeued_job_orders_after_those_already_pending) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("a", 1, "p")}));
  ASSERT_EQ(s.call({"EMQ.FAIL", "q", "a", "1", "x"}), Int(1));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("b"), Bulk("2"), Bulk("a"), Bulk("3")}));
}

TEST(Fail, does_not_charge_the_stall_budget) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "stalled", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  ASSERT_EQ(s.call({"EMQ.FAIL", "q", "j1", "1", "x"}), Int(1));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "stalled"}), Bulk("1"));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "failures"}), Bulk("1"));
}

TEST(Fail, not_live_answers_0_and_writes_nothing) {
  struct Case {
    const char* why;
    std::int64_t now_ms;
    std::vector<std::string> argv;
  };
  const Case cases[] = {
      {"stale token", 1500, {"EMQ.FAIL", "q", "j1", "2", "x"}},
      {"expired", 2001, {"EMQ.FAIL", "q", "j1", "1", "x"}},
      {"unknown id", 1500, {"EMQ.FAIL", "q", "zz", "1", "x"}},
  };
  for (const auto& c : cases) {
    ServerUnderTest s;
    ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p", "MAXFAILURES", "1"}), Int(1));
    ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
    s.set_now_ms(c.now_ms);
    const std::string before = s.dump();
    EXPECT_EQ(s.call(c.argv), Int(0)) << c.why;
    EXPECT_EQ(s.dump(), before) << c.why;
    EXPECT_TRUE(s.writes().empty()) << c.why;
  }
}

}  // namespace
}  // namespace trafikey::test
