// The read-only verbs (shared spec EMQ §4): EMQ.STATS, EMQ.JOB, EMQ.EPOCH. None passes the
// fence, none writes.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// pending d e; active c; done a; dead b
void one_of_each(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "p", "MAXFAILURES", "1"}), Int(1));
  for (std::string id : {"c", "d", "e"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000", "COUNT", "3"}).items().size(), 3u);
  ASSERT_EQ(s.call({"EMQ.COMPLETE", "q", "a", "1"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.FAIL", "q", "b", "1", "x"}), Int(2));
}

TEST(Stats, counts_each_set_with_bulk_labels) {
  ServerUnderTest s;
  one_of_each(s);
  const std::string before = s.dump();
  EXPECT_EQ(s.call({"EMQ.STATS", "q"}), Arr({Bulk("pending"), Int(2), Bulk("active"), Int(1),
                                             Bulk("done"), Int(1), Bulk("dead"), Int(1)}));
  EXPECT_EQ(s.reads(), list({"ZCARD emq:{q}:pending", "ZCARD emq:{q}:active",
                             "ZCARD emq:{q}:done", "ZCARD emq:{q}:dead"}));
  EXPECT_EQ(s.tracer.writers_taken, 0);
  EXPECT_EQ(s.dump(), before);
}

TEST(Stats, empty_queue_counts_zero_everywhere) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.STATS", "q"}), Arr({Bulk("pending"), Int(0), Bulk("active"), Int(0),
                                             Bulk("done"), Int(0), Bulk("dead"), Int(0)}));
}

TEST(Stats, answers_on_a_replica) {
  ServerUnderTest s;
  one_of_each(s);
  s.server.set_role(sim::Role::replica);
  EXPECT_EQ(s.call({"EMQ.STATS", "q"}), Arr({Bulk("pending"), Int(2), Bulk("active"), Int(1),
                                             Bulk("done"), Int(1), Bulk("dead"), Int(1)}));
}

TEST(Job, answers_the_row_sorted_by_field_name) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "hello"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("j1", 1, "hello")}));
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "j1"}),
            Arr({Bulk("attempts"), Bulk("1"), Bulk("failures"), Bulk("0"), Bulk("lease"),
                 Bulk(std::string(NOW) + "-1000"), Bulk("lease_epoch"), Bulk(NOW), Bulk("max_failures"),
                 Bulk("3"), Bulk("payload"), Bulk("hello"), Bulk("state"), Bulk("active")}));
  EXPECT_EQ(s.tracer.writers_taken, 0);
}

TEST(Job, sorts_by_field_bytes_not_insertion_order) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j1", "z", "1", "a", "2", "_", "3", "B", "4"}), Int(4));
  // HGETALL answers in insertion order; JOB answers sorted
  EXPECT_EQ(s.call({"HGETALL", "emq:{q}:job:j1"}),
            Arr({Bulk("z"), Bulk("1"), Bulk("a"), Bulk("2"), Bulk("_"), Bulk("3"), Bulk("B"),
                 Bulk("4")}));
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "j1"}),
            Arr({Bulk("B"), Bulk("4"), Bulk("_"), Bulk("3"), Bulk("a"), Bulk("2"), Bulk("z"),
                 Bulk("1")}));
}

TEST(Job, absent_row_is_nil) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "nope"}), Nil());
  EXPECT_EQ(s.reads(), list({"TYPE emq:{q}:job:nope"}));
}

TEST(Job, answers_on_a_replica) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  s.server.set_role(sim::Role::loading);
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "j1"}).items().size(), 10u);
  s.server.set_role(sim::Role::replica);
  EXPECT_EQ(s.call({"EMQ.JOB", "q", "j1"}).items().at(9), Bulk("pending"));
}

TEST(EpochVerb, answers_the_cached_run_id) {
  ServerUnderTest s;
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(NOW));
  EXPECT_TRUE(s.reads().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
  EXPECT_EQ(s.call({"emq.epoch"}), Bulk(NOW));
}

TEST(EpochVerb, answers_on_a_replica) {
  ServerUnderTest s;
  s.server.set_role(sim::Role::replica);
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(NOW));
}

TEST(EpochVerb, answers_the_new_run_id_after_a_restart) {
  ServerUnderTest s;
  s.restart(std::string(OTHER));
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(OTHER));
}

}  // namespace
}  // namespace trafikey::test
