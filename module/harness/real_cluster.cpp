#include "module/harness/real_cluster.h"

#include <chrono>
#include <functional>
#include <stdexcept>
#include <thread>

namespace trafikey::real {

namespace {

using namespace std::chrono_literals;

constexpr int slot_count = 16384;
// A primary waits 2 s after its start before it calls its cluster ok (Redis'
// CLUSTER_WRITABLE_DELAY); gossip settles within a few hundred ms more.
constexpr auto settle_timeout = 20s;

Reply checked(ServerConnection& c, const std::vector<std::string>& argv) {
  Reply r = c.call(argv);
  if (r.is_error()) throw std::runtime_error("real_cluster: " + argv[0] + " " + argv[1] + " answered " + r.text());
  return r;
}

}  // namespace

RealCluster::RealCluster(ServerConfig config, std::size_t primaries) : config_(std::move(config)) {
  if (primaries == 0 || primaries > 100) throw std::runtime_error("real_cluster: 1 to 100 primaries");
  // A replica's full sync starts at once (the default waits 5 s for more replicas).
  config_.extra_args.insert(config_.extra_args.end(), {"--cluster-enabled", "yes", "--cluster-config-file",
                                                       "nodes.conf", "--repl-diskless-sync-delay", "0"});
  for (std::size_t i = 0; i < primaries; ++i) {
    start_node();
    const int first = static_cast<int>(i * slot_count / primaries);
    const int last = static_cast<int>((i + 1) * slot_count / primaries) - 1;
    ServerConnection c = node(i).connect();
    checked(c, {"CLUSTER", "ADDSLOTSRANGE", std::to_string(first), std::to_string(last)});
  }
  // Every node meets every other itself: no wait for gossip to spread them.
  for (std::size_t i = 1; i < primaries; ++i) meet_all(i);
  wait_until("every node to see the cluster ok", [&] { return settled(); });
}

bool RealCluster::settled() {
  for (std::size_t i = 0; i < size(); ++i) {
    const std::string info = node(i).connect().call({"CLUSTER", "INFO"}).text();
    if (info_field(info, "cluster_state") != "ok" || info_field(info, "cluster_known_nodes") != std::to_string(size())) {
      return false;
    }
  }
  return true;
}

std::size_t RealCluster::start_node() {
  nodes_.push_back(std::make_unique<RealServer>(config_));
  ServerConnection c = nodes_.back()->connect();
  ids_.push_back(checked(c, {"CLUSTER", "MYID"}).text());
  return nodes_.size() - 1;
}

void RealCluster::wait_until(const std::string& what, const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + settle_timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::string logs;
      for (const auto& n : nodes_) logs += "--- node on port " + std::to_string(n->port()) + ":\n" + n->log();
      throw std::runtime_error("real_cluster: timed out waiting for " + what + "; logs:\n" + logs);
    }
    std::this_thread::sleep_for(20ms);
  }
}

void RealCluster::meet_all(std::size_t newcomer) {
  ServerConnection c = node(newcomer).connect();
  for (std::size_t i = 0; i < size(); ++i) {
    if (i != newcomer) checked(c, {"CLUSTER", "MEET", "127.0.0.1", std::to_string(node(i).port())});
  }
}

int RealCluster::slot_of(std::string_view key) {
  ServerConnection c = node(0).connect();
  return static_cast<int>(checked(c, {"CLUSTER", "KEYSLOT", std::string(key)}).as_integer());
}

std::size_t RealCluster::owner_of(int slot, std::size_t asked) {
  ServerConnection c = node(asked).connect();
  const Reply slots = checked(c, {"CLUSTER", "SLOTS"});
  // Each range: [first, last, [host, port, id], replicas...]; the first node serves it.
  for (const Reply& range : slots.items()) {
    if (slot < range.items()[0].as_integer() || slot > range.items()[1].as_integer()) continue;
    const std::int64_t port = range.items()[2].items()[1].as_integer();
    for (std::size_t i = 0; i < size(); ++i) {
      if (node(i).port() == port) return i;
    }
  }
  throw std::runtime_error("real_cluster: no node serves slot " + std::to_string(slot));
}

std::size_t RealCluster::add_replica(std::size_t primary) {
  const std::size_t replica = start_node();
  meet_all(replica);
  // REPLICATE needs the primary known to the new node first.
  wait_until("the new node to learn its primary", [&] {
    return !node(replica).connect().call({"CLUSTER", "REPLICATE", node_id(primary)}).is_error();
  });
  wait_until("the replica to sync", [&] {
    const std::string wanted = node(primary).info("replication", "master_repl_offset");
    return node(replica).info("replication", "master_link_status") == "up" &&
           node(replica).info("replication", "master_repl_offset") == wanted;
  });
  // Every node knows the replica and it knows every slot's owner: promoted before that,
  // it would call the cluster down for want of the slots it had not heard of yet.
  wait_until("every node to know the replica", [&] { return settled(); });
  primary_of_[replica] = primary;
  return replica;
}

void RealCluster::failover(std::size_t replica) {
  const auto primary = primary_of_.find(replica);
  if (primary == primary_of_.end()) throw std::runtime_error("real_cluster: failover() of a node that is no replica");
  // The first slot of each range the primary serves stands for its range.
  std::vector<int> slots;
  {
    ServerConnection c = node(primary->second).connect();
    const Reply ranges = checked(c, {"CLUSTER", "SLOTS"});
    for (const Reply& range : ranges.items()) {
      if (range.items()[2].items()[1].as_integer() == node(primary->second).port()) {
        slots.push_back(static_cast<int>(range.items()[0].as_integer()));
      }
    }
  }
  {
    ServerConnection c = node(replica).connect();
    checked(c, {"CLUSTER", "FAILOVER", "TAKEOVER"});
  }
  wait_until("every node to route the taken slots to the new primary, and call the cluster ok", [&] {
    try {
      for (std::size_t i = 0; i < size(); ++i) {
        for (int slot : slots) {
          if (owner_of(slot, i) != replica) return false;
        }
      }
      return settled();
    } catch (const std::runtime_error&) {
      return false;  // a node between two configs lists no server for the slot yet
    }
  });
}

}  // namespace trafikey::real
