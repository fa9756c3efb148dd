// EMQ.EXTEND q id attempts lease_ms  (shared spec EMQ §3, §4; the seed's second writer of
// lease_epoch): 1 re-scored and re-stamped, 0 when the lease is not live.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// j1 added and claimed at now 1000 for 1000 ms: deadline 2000, token 1, stamp NOW.
void claimed_j1(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
}

void expect_extend_answers_0_and_writes_nothing(ServerUnderTest& s,
                                                const std::vector<std::string>& argv) {
  const std::string before = s.dump();
  EXPECT_EQ(s.call(argv), Int(0));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(Extend, rescores_live_lease_and_restamps_it) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(1500);
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "5000"}), Int(1));
  EXPECT_EQ(s.writes(), list({
                            "ZADD emq:{q}:active 6500 j1",
                            "HSET emq:{q}:job:j1 lease_epoch <NOW>",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:active" zset "j1"@6500)",
                          R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1000" "lease_epoch"="<NOW>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Extend, extension_moves_the_lease_to_the_new_process) {
  ServerUnderTest s;
  claimed_j1(s);
  s.restart(std::string(OTHER));
  s.set_now_ms(1500);
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "1000"}), Int(1));
  EXPECT_EQ(s.writes(), list({
                            "ZADD emq:{q}:active 2500 j1",
                            "HSET emq:{q}:job:j1 lease_epoch <OTHER>",
                        }));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "lease_epoch"}), Bulk(OTHER));
}

TEST(Extend, deadline_is_now_plus_lease_even_when_earlier) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(1200);
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "1"}), Int(1));
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:active", "j1"}), Bulk("1201"));
}

TEST(Extend, lease_at_its_deadline_is_still_live) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(2000);
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "10"}), Int(1));
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:active", "j1"}), Bulk("2010"));
}

TEST(Extend, expired_lease_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(2001);
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "j1", "1", "1000"});
}

TEST(Extend, stale_token_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "j1", "2", "1000"});
}

TEST(Extend, unknown_id_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "nope", "1", "1000"});
}

TEST(Extend, ghost_member_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5000", "g"}), Int(1));
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "g", "1", "1000"});
}

TEST(Extend, row_of_another_type_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5000", "s"}), Int(1));
  ASSERT_EQ(s.call({"INCR", "emq:{q}:job:s"}), Int(1));
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "s", "1", "1000"});
}

TEST(Extend, row_not_in_state_active_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "state", "pending"}), Int(0));
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "j1", "1", "1000"});
}

TEST(Extend, completed_job_answers_0_and_writes_nothing) {
  ServerUnderTest s;
  claimed_j1(s);
  ASSERT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1"}), Int(1));
  expect_extend_answers_0_and_writes_nothing(s, {"EMQ.EXTEND", "q", "j1", "1", "1000"});
}

TEST(Extend, lease_may_reach_2_pow_53_minus_1) {
  ServerUnderTest s;
  claimed_j1(s);
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "9007199254739991"}), Int(1));
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:active", "j1"}), Bulk("9007199254740991"));
}

}  // namespace
}  // namespace trafikey::test
