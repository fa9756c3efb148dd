// RealCluster: a loopback cluster of real servers (`--cluster-enabled`), each started by
// RealServer (real_server.h) with the same config (so the module is loaded on every
// node), for the cluster tests and the scenario runner's --cluster N.
//
// Promises:
// - The constructor starts N primaries on free loopback ports, gives each an equal range
//   of the 16384 slots (CLUSTER ADDSLOTSRANGE), joins them (CLUSTER MEET) and returns once
//   every node reports cluster_state:ok and knows every other node (about 3 s: a primary
//   calls its cluster ok 2 s after its start at the earliest); it throws (stopping what it
//   started) when that takes longer than 20 s.
// - add_replica() starts one more node as a replica of a primary (CLUSTER REPLICATE) and
//   returns once it holds everything the primary has written.
// - failover() promotes a replica with CLUSTER FAILOVER TAKEOVER (no vote: the replica
//   takes the primary's slots under a new config epoch) and returns once every node
//   routes those slots to it.
// - Each node is a RealServer: the destructor kills every node and removes its directory.
// Nodes are never restarted (a restart would move a node to a new port).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "module/harness/real_server.h"

namespace trafikey::real {

class RealCluster {
 public:
  RealCluster(ServerConfig config, std::size_t primaries);
  RealCluster(const RealCluster&) = delete;
  RealCluster& operator=(const RealCluster&) = delete;

  std::size_t size() const { return nodes_.size(); }  // primaries and replicas
  RealServer& node(std::size_t i) { return *nodes_.at(i); }
  const std::string& node_id(std::size_t i) const { return ids_.at(i); }

  // CLUSTER KEYSLOT of `key` (a queue name hashes to its keys' slot).
  int slot_of(std::string_view key);
  // The node that serves `slot` now, by CLUSTER SLOTS as node `asked` sees it.
  std::size_t owner_of(int slot, std::size_t asked = 0);
  // A new node, a replica of node `primary`, in sync with it. Returns its index.
  std::size_t add_replica(std::size_t primary);
  // Node `replica` takes over its primary's slots (CLUSTER FAILOVER TAKEOVER).
  void failover(std::size_t replica);

 private:
  std::size_t start_node();
  void meet_all(std::size_t newcomer);  // CLUSTER MEET every other node
  // Every node calls the cluster ok and knows every other node.
  bool settled();
  void wait_until(const std::string& what, const std::function<bool()>& done);

  ServerConfig config_;
  std::vector<std::unique_ptr<RealServer>> nodes_;
  std::vector<std::string> ids_;
  std::map<std::size_t, std::size_t> primary_of_;  // replica -> the primary it replicates
};

}  // namespace trafikey::real
