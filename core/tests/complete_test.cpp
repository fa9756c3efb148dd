// EMQ.COMPLETE q id attempts [result]  (shared spec EMQ §4): 1 done, 0 not live.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

using namespace std::string_literals;

void claimed_j1(ServerUnderTest& s) {  // at now 1000 for 1000 ms: deadline 2000, token 1
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
}

TEST(Complete, moves_live_lease_to_done_without_result) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(1200);
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1"}), Int(1));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:done 1200 j1",
                            "HSET emq:{q}:job:j1 state done",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:done" zset "j1"@1200)",
                          R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1000" "lease_epoch"="<NOW>" "max_failures"="3" "payload"="p" )"
                          R"("state"="done")",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Complete, stores_result_in_the_same_hset) {
  ServerUnderTest s;
  claimed_j1(s);
  const std::string result = "r\0\xff"s;
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1", result}), Int(1));
  EXPECT_EQ(s.writes(), (std::vector<std::string>{
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:done 1000 j1",
                            "HSET emq:{q}:job:j1 state done result " + result,
                        }));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "result"}), Bulk(result));
}

TEST(Complete, empty_result_is_stored_as_an_empty_field) {
  ServerUnderTest s;
  claimed_j1(s);
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1", ""}), Int(1));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "result"}), Bulk(""));
}

TEST(Complete, lease_at_its_deadline_is_still_live) {
  ServerUnderTest s;
  claimed_j1(s);
  s.set_now_ms(2000);
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1"}), Int(1));
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:done", "j1"}), Bulk("2000"));
}

TEST(Complete, not_live_answers_0_and_writes_nothing) {
  struct Case {
    const char* why;
    std::int64_t now_ms;
    std::vector<std::string> argv;
  };
  const Case cases[] = {
      {"stale token", 1500, {"EMQ.COMPLETE", "q", "j1", "2"}},
      {"expired", 2001, {"EMQ.COMPLETE", "q", "j1", "1", "late"}},
      {"unknown id", 1500, {"EMQ.COMPLETE", "q", "zz", "1"}},
      {"other queue", 1500, {"EMQ.COMPLETE", "other", "j1", "1"}},
  };
  for (const auto& c : cases) {
    ServerUnderTest s;
    claimed_j1(s);
    s.set_now_ms(c.now_ms);
    const std::string before = s.dump();
    EXPECT_EQ(s.call(c.argv), Int(0)) << c.why;
    EXPECT_EQ(s.dump(), before) << c.why;
    EXPECT_TRUE(s.writes().empty()) << c.why;
  }
}

TEST(Complete, second_complete_answers_0) {
  ServerUnderTest s;
  claimed_j1(s);
  ASSERT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1"}), Int(1));
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j1", "1", "again"}), Int(0));
  EXPECT_EQ(s.dump(), before);
}

}  // namespace
}  // namespace trafikey::test
