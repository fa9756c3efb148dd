// trafikey.so in a loopback cluster (module/harness/real_cluster.h): every node serves the
// verbs of the queues in its slots and redirects the rest, and a cluster failover leaves
// the old primary's leases exempt on the new one (shared spec EMQ §5: a lease stamped by
// another run_id comes back to pending without counting a stall).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "module/harness/real_cluster.h"
#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

TEST(Cluster, the_queues_owner_serves_it_and_every_other_node_answers_moved) {
  RealCluster cluster(with_module(), 3);
  const int slot = cluster.slot_of("q");
  const std::size_t owner = cluster.owner_of(slot);
  ASSERT_EQ(cluster.slot_of("emq:{q}:pending"), slot);
  for (std::size_t i = 0; i < cluster.size(); ++i) {
    if (i == owner) continue;
    auto c = cluster.node(i).connect();
    const std::string moved = "MOVED " + std::to_string(slot) + " 127.0.0.1:" + std::to_string(cluster.node(owner).port());
    EXPECT_EQ(show(c.call({"EMQ.ADD", "q", "j1", "x"})), show(Reply::error(moved))) << "node " << i;
    EXPECT_EQ(show(c.call({"EMQ.STALLED.CHECK", "q", "1"})), show(Reply::error(moved))) << "node " << i;
  }
  auto c = cluster.node(owner).connect();
  EXPECT_EQ(show(c.call({"EMQ.ADD", "q", "j1", "x"})), "1");
  EXPECT_EQ(show(c.call({"EMQ.STATS", "q"})).find("MOVED"), std::string::npos);
}

TEST(Cluster, after_a_cluster_failover_the_old_primarys_leases_come_back_exempt) {
  RealCluster cluster(with_module(), 3);
  const std::size_t owner = cluster.owner_of(cluster.slot_of("q"));
  const std::size_t replica = cluster.add_replica(owner);
  std::string old_epoch, new_epoch;
  {
    auto c = cluster.node(owner).connect();
    old_epoch = epoch_of(c);
    ASSERT_EQ(show(c.call({"EMQ.ADD", "q", "j1", "x"})), "1");
    ASSERT_NE(show(c.call({"EMQ.CLAIM", "q", "1"})).find("j1"), std::string::npos) << "a 1 ms lease";
    // The replica holds the lease before the failover.
    ASSERT_EQ(show(c.call({"WAIT", "1", "5000"})), "1");
  }
  cluster.failover(replica);
  auto c = cluster.node(replica).connect();
  new_epoch = epoch_of(c);
  ASSERT_NE(new_epoch, old_epoch) << "the promoted replica is another process";
  EXPECT_EQ(c.call({"HGET", "emq:{q}:job:j1", "lease_epoch"}), Reply::bulk(old_epoch));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the lease has run out
  // max_stalled 1: a counted stall would dead-letter j1; exempt, it goes back to pending.
  const Reply swept = c.call({"EMQ.STALLED.CHECK", "q", "1"});
  EXPECT_EQ(show(swept), show(Reply::array_of(Reply::bulk("recovered"), Reply::array_of(Reply::bulk("j1")),
                                              Reply::bulk("dead"), Reply::array(), Reply::bulk("ghosts"),
                                              Reply::array(), Reply::bulk("lanes"), Reply::array())));
  EXPECT_EQ(c.call({"HGET", "emq:{q}:job:j1", "state"}), Reply::bulk("pending"));
  EXPECT_EQ(c.call({"HGET", "emq:{q}:job:j1", "stalled"}), Reply::nil()) << "no stall counted";
  // The old primary now redirects to the new one.
  auto old = cluster.node(owner).connect();
  const int slot = cluster.slot_of("q");
  EXPECT_EQ(old.call({"EMQ.ADD", "q", "j2", "x"}),
            Reply::error("MOVED " + std::to_string(slot) + " 127.0.0.1:" + std::to_string(cluster.node(replica).port())));
}

}  // namespace
}  // namespace trafikey::real::test
