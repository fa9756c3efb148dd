// EMQ.EXTENDS q lease_ms id attempts [id attempts ...]  (shared spec EMQ §4; the seed's
// third writer of lease_epoch): one `now` per call, every live pair re-scored to the same
// deadline and stamped; a dead pair answers 0, never an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

TEST(Extends, stamps_every_live_pair_under_one_now) {
  ServerUnderTest s;
  for (std::string id : {"a", "b", "c"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  // three leases with three deadlines: 1100, 1550, 2080
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("a", 1, "p")}));
  s.set_now_ms(1050);
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "500"}), Arr({Claimed("b", 1, "p")}));
  s.set_now_ms(1080);
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("c", 1, "p")}));
  s.restart(std::string(OTHER));
  s.set_now_ms(1090);

  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "5000", "a", "1", "b", "1", "c", "1"}),
            Arr({Int(1), Int(1), Int(1)}));
  EXPECT_EQ(std::count(s.reads().begin(), s.reads().end(), "TIME"), 1);
  EXPECT_EQ(s.writes(), list({
                            "ZADD emq:{q}:active 6090 a",
                            "HSET emq:{q}:job:a lease_epoch <OTHER>",
                            "ZADD emq:{q}:active 6090 b",
                            "HSET emq:{q}:job:b lease_epoch <OTHER>",
                            "ZADD emq:{q}:active 6090 c",
                            "HSET emq:{q}:job:c lease_epoch <OTHER>",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:active" zset "a"@6090 "b"@6090 "c"@6090)",
                          R"("emq:{q}:job:a" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1000" "lease_epoch"="<OTHER>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:job:b" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1001" "lease_epoch"="<OTHER>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:job:c" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1002" "lease_epoch"="<OTHER>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:seq" string "3")",
                      }));
}

TEST(Extends, answers_0_for_dead_pairs_without_error) {
  ServerUnderTest s;  // now 1000
  for (std::string id : {"c", "a", "b"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "10"}), Arr({Claimed("c", 1, "p")}));  // expires 1010
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "5000", "COUNT", "2"}),
            Arr({Claimed("a", 1, "p"), Claimed("b", 1, "p")}));  // deadline 6000
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "9000", "g"}), Int(1));  // ghost: no row
  s.restart(std::string(OTHER));
  s.set_now_ms(1500);

  // live a; stale token on b; expired c; unknown zz; ghost g
  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "1000", "a", "1", "b", "2", "c", "1", "zz", "1", "g",
                    "1"}),
            Arr({Int(1), Int(0), Int(0), Int(0), Int(0)}));
  EXPECT_EQ(s.writes(), list({
                            "ZADD emq:{q}:active 2500 a",
                            "HSET emq:{q}:job:a lease_epoch <OTHER>",
                        }));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:active" zset "c"@1010 "a"@2500 "b"@6000 "g"@9000)",
                          R"("emq:{q}:job:a" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1001" "lease_epoch"="<OTHER>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:job:b" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1002" "lease_epoch"="<NOW>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:job:c" hash "attempts"="1" "failures"="0" )"
                          R"("lease"="<NOW>-1000" "lease_epoch"="<NOW>" "max_failures"="3" "payload"="p" )"
                          R"("state"="active")",
                          R"("emq:{q}:seq" string "3")",
                      }));
}

TEST(Extends, answers_in_pair_order) {
  ServerUnderTest s;
  for (std::string id : {"a", "b"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100", "COUNT", "2"}).items().size(), 2u);
  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "100", "x", "1", "b", "1", "a", "9", "a", "1"}),
            Arr({Int(0), Int(1), Int(0), Int(1)}));
}

TEST(Extends, all_dead_pairs_answer_zeros_and_write_nothing) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("a", 1, "p")}));
  s.set_now_ms(1101);
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "100", "a", "1", "b", "1"}), Arr({Int(0), Int(0)}));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(Extends, accepts_1000_pairs) {
  ServerUnderTest s;
  std::vector<std::string> argv{"EMQ.EXTENDS", "q", "100"};
  for (int i = 0; i < 1000; ++i) {
    argv.push_back("j" + std::to_string(i));
    argv.push_back("1");
  }
  Reply reply = s.call(argv);
  ASSERT_EQ(reply.kind(), Reply::Kind::array) << debug_string(reply);
  EXPECT_EQ(reply.items().size(), 1000u);
  EXPECT_EQ(reply.items().front(), Int(0));
  EXPECT_EQ(reply.items().back(), Int(0));
}

}  // namespace
}  // namespace trafikey::test
