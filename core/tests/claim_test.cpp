// EMQ.CLAIM q lease_ms [COUNT n]  (shared spec EMQ §4; the seed's first writer of
// lease_epoch). Refusals are in refusals_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

using namespace std::string_literals;

TEST(Claim, grants_lease_stamped_with_epoch_in_one_hset) {
  ServerUnderTest s;  // now 1000
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "hello"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "30000"}), Arr({Claimed("j1", 1, "hello")}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:pending j1",
                            "HSET emq:{q}:job:j1 state active attempts 1 lease_epoch <NOW> lease <NOW>-1000",
                            "ZADD emq:{q}:active 31000 j1",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:active" zset "j1"@31000)",
                          R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1000" "lease_epoch"="<NOW>" "max_failures"="3" "payload"="hello" )"
                          R"("state"="active")",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Claim, empty_queue_answers_empty_array_and_writes_nothing) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000", "COUNT", "5"}), Arr());
  EXPECT_EQ(s.dump(), "");
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(Claim, nothing_pending_while_leases_are_held_answers_empty) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}).items().size(), 1u);
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr());
  EXPECT_EQ(s.dump(), before);
}

TEST(Claim, default_count_is_one) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "pa"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "pb"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("a", 1, "pa")}));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1"}), Arr({Bulk("b")}));
}

TEST(Claim, count_claims_lowest_pending_first) {
  ServerUnderTest s;
  for (std::string id : {"a", "b", "c", "d"}) {
    ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p" + id}), Int(1));
  }
  s.set_now_ms(2000);
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "500", "count", "3"}),
            Arr({Claimed("a", 1, "pa"), Claimed("b", 1, "pb"), Claimed("c", 1, "pc")}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:pending a",
                            "HSET emq:{q}:job:a state active attempts 1 lease_epoch <NOW> lease <NOW>-1000",
                            "ZADD emq:{q}:active 2500 a",
                            "ZREM emq:{q}:pending b",
                            "HSET emq:{q}:job:b state active attempts 1 lease_epoch <NOW> lease <NOW>-1001",
                            "ZADD emq:{q}:active 2500 b",
                            "ZREM emq:{q}:pending c",
                            "HSET emq:{q}:job:c state active attempts 1 lease_epoch <NOW> lease <NOW>-1002",
                            "ZADD emq:{q}:active 2500 c",
                        }));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("d"), Bulk("4")}));
}

TEST(Claim, count_beyond_pending_claims_all) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "2"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000", "COUNT", "1000"}),
            Arr({Claimed("a", 1, "1"), Claimed("b", 1, "2")}));
  EXPECT_EQ(s.call({"EXISTS", "emq:{q}:pending"}), Int(0));
}

TEST(Claim, orders_by_score_then_id_bytes) {
  ServerUnderTest s;
  for (std::string id : {"b", "a", "B", "\xff", "z"}) {
    ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  }
  // tie four of them at 7 (as a recovery at one score would); z keeps its seq 5
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "7", "b", "7", "a", "7", "B", "7", "\xff"}),
            Int(0));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000", "COUNT", "5"}),
            Arr({Claimed("z", 1, "p"), Claimed("B", 1, "p"), Claimed("a", 1, "p"),
                 Claimed("b", 1, "p"), Claimed("\xff", 1, "p")}));
}

TEST(Claim, recovered_jobs_at_score_0_go_first) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "new", "p"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:old", "state", "pending", "attempts", "1", "payload",
                    "po"}),
            Int(3));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "0", "old"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("old", 2, "po")}));
}

TEST(Claim, ghosts_are_removed_and_not_counted) {
  ServerUnderTest s;
  for (std::string id : {"a", "b", "c"}) {
    ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p" + id}), Int(1));
  }
  // g1 has no row; g2's row key holds a string: both are ghosts
  ASSERT_EQ(s.call({"INCR", "emq:{q}:job:g2"}), Int(1));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "0", "g1", "1.5", "g2"}), Int(2));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "COUNT", "2"}),
            Arr({Claimed("a", 1, "pa"), Claimed("b", 1, "pb")}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:pending g1",
                            "ZREM emq:{q}:pending a",
                            "HSET emq:{q}:job:a state active attempts 1 lease_epoch <NOW> lease <NOW>-1000",
                            "ZADD emq:{q}:active 1100 a",
                            "ZREM emq:{q}:pending g2",
                            "ZREM emq:{q}:pending b",
                            "HSET emq:{q}:job:b state active attempts 1 lease_epoch <NOW> lease <NOW>-1001",
                            "ZADD emq:{q}:active 1100 b",
                        }));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1"}), Arr({Bulk("c")}));
  EXPECT_EQ(s.call({"TYPE", "emq:{q}:job:g2"}), Reply::simple("string"));
}

TEST(Claim, only_ghosts_answer_empty_and_are_removed) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "1", "g1", "2", "g2"}), Int(2));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "COUNT", "5"}), Arr());
  EXPECT_EQ(s.writes(), list({"ZREM emq:{q}:pending g1", "ZREM emq:{q}:pending g2"}));
  EXPECT_EQ(s.dump(), "");
}

TEST(Claim, ghosts_after_the_last_claim_stay_pending) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "p"}), Int(1));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "9", "g"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("a", 1, "p")}));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1"}), Arr({Bulk("g")}));
}

TEST(Claim, removes_at_most_1000_ghosts_per_call) {
  ServerUnderTest s;
  std::vector<std::string> zadd{"ZADD", "emq:{q}:pending"};
  for (int i = 0; i < 1001; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "g%04d", i);
    zadd.push_back("0");
    zadd.push_back(id);
  }
  ASSERT_EQ(s.call(zadd), Int(1001));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j", "p"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr());
  EXPECT_EQ(s.writes().size(), 1000u);
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:pending", "0", "-1"}), Arr({Bulk("g1000"), Bulk("j")}));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j", 1, "p")}));
}

TEST(Claim, attempts_is_the_fencing_token_and_grows_per_claim) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "attempts", "4"}), Int(0));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 5, "p")}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "attempts"}), Bulk("5"));
}

TEST(Claim, reclaim_after_restart_is_stamped_by_the_new_process) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 1, "p")}));
  s.restart(std::string(OTHER));
  s.set_now_ms(1101);
  ASSERT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 2, "p")}));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:active" zset "j1"@1201)",
                          R"("emq:{q}:job:j1" hash "attempts"="2" "failures"="0" )"
                          R"("lease"="<OTHER>-1001000" "lease_epoch"="<OTHER>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:seq" string "1")",
                      }));
}

TEST(Claim, deadline_may_reach_2_pow_53_minus_1) {
  ServerUnderTest s;  // now 1000
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "9007199254739991"}), Arr({Claimed("j1", 1, "p")}));
  EXPECT_EQ(s.writes().back(), "ZADD emq:{q}:active 9007199254740991 j1");
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:active", "j1"}), Bulk("9007199254740991"));
}

TEST(Claim, payload_bytes_come_back_as_stored) {
  ServerUnderTest s;
  const std::string payload = "\0\r\n\xff"s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", payload}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 1, payload)}));
}

TEST(Claim, client_path_answers_and_writes_the_same) {
  // SimServer::call (the path the world uses) against the traced core path
  ServerUnderTest traced, client;
  for (ServerUnderTest* s : {&traced, &client}) {
    ASSERT_EQ(s->client_call({"EMQ.ADD", "q", "a", "1"}), Int(1));
    ASSERT_EQ(s->client_call({"EMQ.ADD", "q", "b", "2"}), Int(1));
  }
  EXPECT_EQ(traced.call({"EMQ.CLAIM", "q", "50", "COUNT", "2"}),
            client.client_call({"EMQ.CLAIM", "q", "50", "COUNT", "2"}));
  EXPECT_EQ(traced.dump(), client.dump());
}

}  // namespace
}  // namespace trafikey::test
