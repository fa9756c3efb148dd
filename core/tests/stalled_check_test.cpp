// EMQ.STALLED.CHECK q max_stalled [LIMIT n]  (shared spec EMQ §5; the seed's one reader of
// lease_epoch), first on the seed's four histories of one lease, each at max_stalled 1 and
// 3, then the sweep's selection. The decision's read order is in sweep_decision_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// ---- the four histories. Each starts with j1 added at now 1000 under the process NOW.

// (1) Claimed under NOW for 1000 ms (deadline 2000); the worker stops; the same process
// sweeps at 2001.
void stalled_under_live_server(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.set_now_ms(2001);
}

// (2) Claimed under NOW (deadline 2000); the server restarts as OTHER on the same data;
// OTHER sweeps at 2001.
void crossed_a_restart(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.restart(std::string(OTHER));
  s.set_now_ms(2001);
}

// (3) Claimed under NOW (deadline 2000); restart as OTHER; at 1500 the worker extends
// under OTHER for 1000 ms (deadline 2500); then it stops; OTHER sweeps at 2501.
void extended_after_restart(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.restart(std::string(OTHER));
  s.set_now_ms(1500);
  ASSERT_EQ(s.call({"EMQ.EXTEND", "q", "j1", "1", "1000"}), Int(1));
  ASSERT_EQ(s.call({"HGET", "emq:{q}:job:j1", "lease_epoch"}), Bulk(OTHER));
  s.set_now_ms(2501);
}

// (4) Written before the stamp existed: an active row with no lease_epoch field (as an
// older version left it), deadline 2000; the live process NOW sweeps at 2001.
void written_before_the_stamp(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "state", "active", "payload", "p", "attempts",
                    "1", "failures", "0", "max_failures", "3"}),
            Int(5));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "2000", "j1"}), Int(1));
  ASSERT_EQ(s.call({"INCR", "emq:{q}:seq"}), Int(1));
  s.set_now_ms(2001);
}

// The rows after each outcome.
constexpr std::string_view kCountedDeadRow =
    R"("emq:{q}:job:j1" hash "attempts"="1" "dead_reason"="stalled" "failures"="0" "lease"="<GRANT>" )"
    R"("lease_epoch"="<EPOCH>" "max_failures"="3" "payload"="p" "stalled"="1" )"
    R"("state"="dead")";
constexpr std::string_view kCountedRecoveredRow =
    R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" "lease"="<GRANT>" "lease_epoch"="<EPOCH>" )"
    R"("max_failures"="3" "payload"="p" "stalled"="1" "state"="pending")";

// The row with its stamp; its grant id is always NOW's first grant (EMQ §8: an extension
// after a restart re-stamps the lease but keeps the grant).
std::string with_epoch(std::string_view row, std::string_view run_id) {
  std::string out(row);
  out.replace(out.find("<EPOCH>"), 7, run_id);
  out.replace(out.find("<GRANT>"), 7, std::string(NOW) + "-1000");
  return out;
}

// ---- (1) stalled under a live server: counted

TEST(StalledCheck, stall_under_live_server_is_counted_and_dead_at_max_stalled_1) {
  ServerUnderTest s;
  stalled_under_live_server(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({}, {"j1"}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:dead 2001 j1",
                            "HSET emq:{q}:job:j1 state dead stalled 1 dead_reason stalled",
                        }));
  EXPECT_EQ(s.dump(), R"("emq:{q}:dead" zset "j1"@2001)"
                      "\n" +
                          with_epoch(kCountedDeadRow, NOW) + "\n" +
                          R"("emq:{q}:seq" string "1")"
                          "\n");
}

TEST(StalledCheck, stall_under_live_server_is_counted_and_recovered_at_max_stalled_3) {
  ServerUnderTest s;
  stalled_under_live_server(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending stalled 1",
                        }));
  EXPECT_EQ(s.dump(), with_epoch(kCountedRecoveredRow, NOW) + "\n" +
                          R"("emq:{q}:pending" zset "j1"@0)"
                          "\n"
                          R"("emq:{q}:seq" string "1")"
                          "\n");
}

// ---- (2) crossed a restart: exempt, stalled never written

constexpr std::string_view kExemptRow =
    R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" "lease"="<NOW>-1000" "lease_epoch"="<NOW>" )"
    R"("max_failures"="3" "payload"="p" "state"="pending")";

TEST(StalledCheck, lease_that_crossed_a_restart_is_exempt_at_max_stalled_1) {
  ServerUnderTest s;
  crossed_a_restart(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending",
                        }));
  EXPECT_EQ(s.dump(), lines({kExemptRow, R"("emq:{q}:pending" zset "j1"@0)",
                             R"("emq:{q}:seq" string "1")"}));
}

TEST(StalledCheck, lease_that_crossed_a_restart_is_exempt_at_max_stalled_3) {
  ServerUnderTest s;
  crossed_a_restart(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending",
                        }));
  EXPECT_EQ(s.dump(), lines({kExemptRow, R"("emq:{q}:pending" zset "j1"@0)",
                             R"("emq:{q}:seq" string "1")"}));
}

// ---- (3) crossed a restart, extended under the new process, then stalled: counted

TEST(StalledCheck, lease_extended_after_restart_is_counted_and_dead_at_max_stalled_1) {
  ServerUnderTest s;
  extended_after_restart(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({}, {"j1"}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:dead 2501 j1",
                            "HSET emq:{q}:job:j1 state dead stalled 1 dead_reason stalled",
                        }));
  EXPECT_EQ(s.dump(), R"("emq:{q}:dead" zset "j1"@2501)"
                      "\n" +
                          with_epoch(kCountedDeadRow, OTHER) + "\n" +
                          R"("emq:{q}:seq" string "1")"
                          "\n");
}

TEST(StalledCheck, lease_extended_after_restart_is_counted_and_recovered_at_max_stalled_3) {
  ServerUnderTest s;
  extended_after_restart(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending stalled 1",
                        }));
  EXPECT_EQ(s.dump(), with_epoch(kCountedRecoveredRow, OTHER) + "\n" +
                          R"("emq:{q}:pending" zset "j1"@0)"
                          "\n"
                          R"("emq:{q}:seq" string "1")"
                          "\n");
}

// ---- (4) written before the stamp existed: exempt, no stamp written either

constexpr std::string_view kUnstampedRow =
    R"("emq:{q}:job:j1" hash "attempts"="1" "failures"="0" "max_failures"="3" )"
    R"("payload"="p" "state"="pending")";

TEST(StalledCheck, lease_without_stamp_is_exempt_at_max_stalled_1) {
  ServerUnderTest s;
  written_before_the_stamp(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending",
                        }));
  EXPECT_EQ(s.dump(), lines({kUnstampedRow, R"("emq:{q}:pending" zset "j1"@0)",
                             R"("emq:{q}:seq" string "1")"}));
}

TEST(StalledCheck, lease_without_stamp_is_exempt_at_max_stalled_3) {
  ServerUnderTest s;
  written_before_the_stamp(s);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active j1",
                            "ZADD emq:{q}:pending 0 j1",
                            "HSET emq:{q}:job:j1 state pending",
                        }));
  EXPECT_EQ(s.dump(), lines({kUnstampedRow, R"("emq:{q}:pending" zset "j1"@0)",
                             R"("emq:{q}:seq" string "1")"}));
}

// ---- budgets

TEST(StalledCheck, counted_stalls_accumulate_until_max_stalled) {
  ServerUnderTest s;
  stalled_under_live_server(s);  // now 2001
  ASSERT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 2, "p")}));  // to 3001
  s.set_now_ms(3002);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.writes().back(), "HSET emq:{q}:job:j1 state pending stalled 2");
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 3, "p")}));  // to 4002
  s.set_now_ms(4003);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({}, {"j1"}));
  EXPECT_EQ(s.writes().back(), "HSET emq:{q}:job:j1 state dead stalled 3 dead_reason stalled");
  EXPECT_EQ(s.call({"ZSCORE", "emq:{q}:dead", "j1"}), Bulk("4003"));
}

TEST(StalledCheck, exempt_recovery_keeps_the_stall_count) {
  ServerUnderTest s;
  crossed_a_restart(s);
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "stalled", "2"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "stalled"}), Bulk("2"));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "failures"}), Bulk("0"));
}

TEST(StalledCheck, counted_stall_does_not_charge_failures) {
  ServerUnderTest s;
  stalled_under_live_server(s);
  ASSERT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "failures"}), Bulk("0"));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j1", "error"}), Nil());
}

TEST(StalledCheck, recovered_job_is_claimed_before_newer_pending_jobs) {
  ServerUnderTest s;
  stalled_under_live_server(s);
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j2", "p2"}), Int(1));  // pending at seq 2
  ASSERT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"j1"}, {}));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 2, "p")}));
}

// ---- selection

TEST(StalledCheck, lease_at_its_deadline_is_not_expired) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j1", 1, "p")}));
  s.set_now_ms(2000);
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({}, {}));
  EXPECT_EQ(s.dump(), before);
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(StalledCheck, empty_queue_answers_four_empty_lists) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}),
            Arr({Bulk("recovered"), Arr(), Bulk("dead"), Arr(), Bulk("ghosts"), Arr(),
                 Bulk("lanes"), Arr()}));
  EXPECT_EQ(s.dump(), "");
}

TEST(StalledCheck, limit_takes_lowest_deadlines_first) {
  ServerUnderTest s;
  for (std::string id : {"a", "b", "c", "d"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  // deadlines: c 1100, a 1200, d 1300, b 5000 (live at the sweep)
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "200", "COUNT", "2"}).items().size(), 2u);  // a, b
  ASSERT_EQ(s.call({"EMQ.EXTEND", "q", "b", "1", "4000"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("c", 1, "p")}));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "300"}), Arr({Claimed("d", 1, "p")}));
  s.set_now_ms(1400);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "5", "LIMIT", "2"}), Swept({"c", "a"}, {}));
  EXPECT_EQ(s.reads().at(5), "ZRANGEBYSCORE emq:{q}:active -inf (1400 LIMIT 0 2");
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:active", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("d"), Bulk("1300"), Bulk("b"), Bulk("5000")}));
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "5", "limit", "10"}), Swept({"d"}, {}));
}

TEST(StalledCheck, verdicts_are_listed_in_deadline_order_per_kind) {
  ServerUnderTest s;
  for (std::string id : {"a", "b", "c"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "300"}), Arr({Claimed("a", 1, "p")}));  // 1300
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("b", 1, "p")}));  // 1100
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "200"}), Arr({Claimed("c", 1, "p")}));  // 1200
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:c", "lease_epoch", std::string(OTHER)}), Int(0));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "1000", "ghost"}), Int(1));
  s.set_now_ms(5000);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({"c"}, {"b", "a"}, {"ghost"}));
  EXPECT_EQ(s.call({"ZRANGE", "emq:{q}:dead", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("a"), Bulk("5000"), Bulk("b"), Bulk("5000")}));
  EXPECT_EQ(s.call({"EXISTS", "emq:{q}:active"}), Int(0));
}

}  // namespace
}  // namespace trafikey::test
