// The sweep's pure decision (core/decide/sweep.h, the seed's decide_member; shared spec
// EMQ §5): it asks for one read at a time, TYPE -> group -> lease_epoch -> stalled, and
// stops at the first that decides. Then the verb itself, through a tracing host, performs
// exactly the reads the decision asked for.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/decide/sweep.h"
#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// A row as the decision could see it, and the reads the decision asked for on it.
struct Row {
  KeyType type = KeyType::hash;
  std::map<std::string, std::string> fields;
};

struct Decided {
  std::vector<MemberRead> reads;
  std::optional<Verdict> verdict;  // empty when the decision refused
  std::optional<Reply> error;
};

std::optional<std::string_view> field(const Row& row, const std::string& name) {
  auto it = row.fields.find(name);
  if (it == row.fields.end()) return std::nullopt;
  return it->second;
}

Decided decide(const Row& row, std::int64_t max_stalled, std::string_view run_id = NOW) {
  Decided out;
  MemberSeen seen;
  for (int step = 0; step < 8; ++step) {
    auto next = decide_member(run_id, max_stalled, seen);
    if (!next.ok()) {
      out.error = next.error();
      return out;
    }
    if (const auto* verdict = std::get_if<Verdict>(&next.value())) {
      out.verdict = *verdict;
      return out;
    }
    const MemberRead read = std::get<MemberRead>(next.value());
    out.reads.push_back(read);
    switch (read) {
      case MemberRead::type: seen.type = row.type; break;
      case MemberRead::group: seen.group = field(row, "group"); break;
      case MemberRead::lease_epoch: seen.lease_epoch = field(row, "lease_epoch"); break;
      case MemberRead::stalled: seen.stalled = field(row, "stalled"); break;
    }
  }
  ADD_FAILURE() << "the decision asked for more than 8 reads";
  return out;
}

using R = MemberRead;
const std::vector<MemberRead> kTypeOnly{R::type};
const std::vector<MemberRead> kToGroup{R::type, R::group};
const std::vector<MemberRead> kToEpoch{R::type, R::group, R::lease_epoch};
const std::vector<MemberRead> kAllFour{R::type, R::group, R::lease_epoch, R::stalled};

TEST(SweepDecision, first_question_is_the_row_type) {
  auto step = decide_member(NOW, 3, MemberSeen{});
  ASSERT_TRUE(step.ok());
  ASSERT_TRUE(std::holds_alternative<MemberRead>(step.value()));
  EXPECT_EQ(std::get<MemberRead>(step.value()), MemberRead::type);
}

TEST(SweepDecision, ghost_stops_at_type) {
  for (KeyType type : {KeyType::none, KeyType::string, KeyType::zset, KeyType::list,
                       KeyType::set}) {
    // fields a hash would have: never looked at once TYPE says "not a hash"
    Decided d = decide(Row{type, {{"group", "g"}, {"lease_epoch", std::string(NOW)}}}, 1);
    EXPECT_EQ(d.reads, kTypeOnly) << key_type_name(type);
    ASSERT_TRUE(d.verdict) << key_type_name(type);
    EXPECT_EQ(d.verdict->kind, VerdictKind::ghost);
  }
}

TEST(SweepDecision, lane_row_stops_at_group) {
  // a corrupt stalled field would refuse the sweep if it were read
  Decided d = decide(Row{KeyType::hash, {{"group", "g1"}, {"lease_epoch", std::string(NOW)},
                                         {"stalled", "x"}}},
                     1);
  EXPECT_EQ(d.reads, kToGroup);
  ASSERT_TRUE(d.verdict);
  EXPECT_EQ(d.verdict->kind, VerdictKind::lane);
}

TEST(SweepDecision, lane_row_is_any_present_group_even_empty) {
  Decided d = decide(Row{KeyType::hash, {{"group", ""}}}, 1);
  EXPECT_EQ(d.reads, kToGroup);
  ASSERT_TRUE(d.verdict);
  EXPECT_EQ(d.verdict->kind, VerdictKind::lane);
}

TEST(SweepDecision, exempt_member_stops_at_lease_epoch_before_stalled) {
  const std::vector<std::map<std::string, std::string>> rows{
      {{"stalled", "x"}},                                        // no stamp
      {{"lease_epoch", std::string(OTHER)}, {"stalled", "x"}},   // another process
      {{"lease_epoch", ""}, {"stalled", "x"}},                   // empty stamp
      {{"lease_epoch", "3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812"}, {"stalled", "x"}}};
  for (const auto& fields : rows) {
    Decided d = decide(Row{KeyType::hash, fields}, 1);
    EXPECT_EQ(d.reads, kToEpoch);
    ASSERT_TRUE(d.verdict);
    EXPECT_EQ(d.verdict->kind, VerdictKind::exempt);
    EXPECT_EQ(d.verdict->stalled_after, 0);
  }
}

TEST(SweepDecision, counted_member_reads_stalled_last) {
  Decided d = decide(Row{KeyType::hash, {{"lease_epoch", std::string(NOW)}}}, 3);
  EXPECT_EQ(d.reads, kAllFour);
  ASSERT_TRUE(d.verdict);
  EXPECT_EQ(*d.verdict, (Verdict{VerdictKind::counted_recovered, 1}));
}

TEST(SweepDecision, first_counted_stall_is_death_at_max_stalled_1) {
  Decided d = decide(Row{KeyType::hash, {{"lease_epoch", std::string(NOW)}}}, 1);
  EXPECT_EQ(d.reads, kAllFour);
  ASSERT_TRUE(d.verdict);
  EXPECT_EQ(*d.verdict, (Verdict{VerdictKind::counted_dead, 1}));
}

TEST(SweepDecision, counted_stall_adds_one_to_stalled_and_dies_at_the_budget) {
  const Row once{KeyType::hash, {{"lease_epoch", std::string(NOW)}, {"stalled", "1"}}};
  EXPECT_EQ(*decide(once, 3).verdict, (Verdict{VerdictKind::counted_recovered, 2}));
  EXPECT_EQ(*decide(once, 2).verdict, (Verdict{VerdictKind::counted_dead, 2}));
  const Row twice{KeyType::hash, {{"lease_epoch", std::string(NOW)}, {"stalled", "2"}}};
  EXPECT_EQ(*decide(twice, 3).verdict, (Verdict{VerdictKind::counted_dead, 3}));
  // already past the budget (the budget was lowered): still dead
  const Row many{KeyType::hash, {{"lease_epoch", std::string(NOW)}, {"stalled", "9"}}};
  EXPECT_EQ(*decide(many, 3).verdict, (Verdict{VerdictKind::counted_dead, 10}));
}

TEST(SweepDecision, counted_member_with_corrupt_stalled_refuses) {
  for (std::string bad : {"x", "-1", "1.5", "", "9223372036854775807"}) {
    Decided d = decide(Row{KeyType::hash, {{"lease_epoch", std::string(NOW)}, {"stalled", bad}}},
                       3);
    EXPECT_EQ(d.reads, kAllFour) << bad;
    EXPECT_FALSE(d.verdict) << bad;
    ASSERT_TRUE(d.error) << bad;
    EXPECT_EQ(*d.error, Err("ERR EMQ corrupt job row")) << bad;
  }
}

TEST(SweepDecision, judged_against_the_run_id_it_is_given) {
  const Row row{KeyType::hash, {{"lease_epoch", std::string(OTHER)}}};
  EXPECT_EQ(decide(row, 1, NOW).verdict->kind, VerdictKind::exempt);
  EXPECT_EQ(decide(row, 1, OTHER).verdict->kind, VerdictKind::counted_dead);
}

TEST(SweepDecision, read_and_verdict_names) {
  EXPECT_EQ(member_read_name(MemberRead::type), "type");
  EXPECT_EQ(member_read_name(MemberRead::group), "group");
  EXPECT_EQ(member_read_name(MemberRead::lease_epoch), "lease_epoch");
  EXPECT_EQ(member_read_name(MemberRead::stalled), "stalled");
  EXPECT_EQ(verdict_name(VerdictKind::ghost), "ghost");
  EXPECT_EQ(verdict_name(VerdictKind::lane), "lane");
  EXPECT_EQ(verdict_name(VerdictKind::exempt), "exempt");
  EXPECT_EQ(verdict_name(VerdictKind::counted_recovered), "counted-recovered");
  EXPECT_EQ(verdict_name(VerdictKind::counted_dead), "counted-dead");
}

// ---- the verb performs exactly the reads the decision asks for

// Four expired members of active, one of each kind, lowest deadline first:
// g (ghost, no row) < l (lane) < e (exempt, stamped by OTHER) < c (counted, stamped NOW).
// Every row carries a corrupt `stalled`, except c: reading it anywhere else would refuse.
void four_kinds(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:l", "state", "active", "group", "g1",
                    "lease_epoch", std::string(NOW), "stalled", "x"}),
            Int(4));
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:e", "state", "active", "lease_epoch",
                    std::string(OTHER), "stalled", "x"}),
            Int(3));
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:c", "state", "active", "lease_epoch",
                    std::string(NOW)}),
            Int(2));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "100", "g", "200", "l", "300", "e", "400", "c"}),
            Int(4));
}

TEST(SweepVerbReads, each_member_is_read_only_as_far_as_its_verdict_needs) {
  ServerUnderTest s;
  four_kinds(s);
  s.set_now_ms(1000);
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Swept({"e", "c"}, {}, {"g"}, {"l"}));
  EXPECT_EQ(s.reads(), list({
                           "FENCE",
                           "TIME",
                           "TYPE emq:{q}:active",
                           "TYPE emq:{q}:pending",
                           "TYPE emq:{q}:dead",
                           "ZRANGEBYSCORE emq:{q}:active -inf (1000 LIMIT 0 1000",
                           "TYPE emq:{q}:job:g",
                           "TYPE emq:{q}:job:l",
                           "HGET emq:{q}:job:l group",
                           "TYPE emq:{q}:job:e",
                           "HGET emq:{q}:job:e group",
                           "HGET emq:{q}:job:e lease_epoch",
                           "TYPE emq:{q}:job:c",
                           "HGET emq:{q}:job:c group",
                           "HGET emq:{q}:job:c lease_epoch",
                           "HGET emq:{q}:job:c stalled",
                           "ACL emq:{q}:active",
                           "ACL emq:{q}:pending",
                           "ACL emq:{q}:job:e",
                           "ACL emq:{q}:job:c",
                       }));
  EXPECT_EQ(s.writes(), list({
                            "ZREM emq:{q}:active g",
                            "ZREM emq:{q}:active e",
                            "ZADD emq:{q}:pending 0 e",
                            "HSET emq:{q}:job:e state pending",
                            "ZREM emq:{q}:active c",
                            "ZADD emq:{q}:pending 0 c",
                            "HSET emq:{q}:job:c state pending stalled 1",
                        }));
}

TEST(SweepVerbReads, ghost_member_costs_one_type_read) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5", "g", "6", "s"}), Int(2));
  ASSERT_EQ(s.call({"INCR", "emq:{q}:job:s"}), Int(1));  // a row key holding a string
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({}, {}, {"g", "s"}));
  std::vector<std::string> row_reads;
  for (const auto& r : s.reads()) {
    if (r.find("emq:{q}:job:") != std::string::npos) row_reads.push_back(r);
  }
  EXPECT_EQ(row_reads, list({"TYPE emq:{q}:job:g", "TYPE emq:{q}:job:s"}));
  EXPECT_EQ(s.writes(), list({"ZREM emq:{q}:active g", "ZREM emq:{q}:active s"}));
  EXPECT_EQ(s.dump(), lines({R"("emq:{q}:job:s" string "1")"}));
}

TEST(SweepVerbReads, lane_rows_alone_write_nothing) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:l", "group", "g1", "state", "active"}), Int(2));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5", "l"}), Int(1));
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({}, {}, {}, {"l"}));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(SweepVerbReads, exempt_member_never_reads_a_corrupt_stalled) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:e", "state", "active", "stalled", "x"}), Int(2));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5", "e"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "1"}), Swept({"e"}, {}));
  EXPECT_EQ(s.dump(), lines({
                          R"("emq:{q}:job:e" hash "stalled"="x" "state"="pending")",
                          R"("emq:{q}:pending" zset "e"@0)",
                      }));
}

TEST(SweepVerbReads, counted_member_with_corrupt_stalled_refuses_the_whole_sweep) {
  ServerUnderTest s;
  four_kinds(s);
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:c", "stalled", "many"}), Int(1));
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "3"}), Err("ERR EMQ corrupt job row"));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
}

}  // namespace
}  // namespace trafikey::test
