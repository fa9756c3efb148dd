#include "scenarios/runner/real_session.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "core/keys.h"
#include "core/text.h"

namespace trafikey::scenario {

namespace {

using namespace std::chrono_literals;

constexpr auto connect_timeout = 2000ms;
constexpr std::size_t scan_count = 1000;
const std::string admin_client;  // the runner's own connection: no scenario client is named ""

// A MATCH pattern for keys starting with `prefix` (glob characters escaped).
std::string glob_prefix(std::string_view prefix) {
  std::string out;
  for (char c : prefix) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out + "*";
}

std::string queue_prefix(std::string_view queue) { return std::string(QueueKeys(queue).prefix()); }

// The key a call is routed by in a cluster: an EMQ verb's queue name (the module declares
// it as the call's key: its keys carry the tag {q}), the first key of EVAL/EVALSHA, else
// a plain command's first argument. Empty for a call with no key (any node serves it).
std::string routing_key(const std::vector<std::string>& argv) {
  if (argv.size() < 2) return {};
  const std::string verb = upper(argv[0]);
  if (verb == "EVAL" || verb == "EVALSHA") return argv.size() > 3 && argv[2] != "0" ? argv[3] : std::string();
  if (verb == "SCRIPT" || verb == "INFO" || verb == "DEBUG") return {};
  return argv[1];
}

}  // namespace

std::string RealTarget::describe() const {
  if (cluster_primaries > 0) return server_bin + " (a cluster of " + std::to_string(cluster_primaries) + ")";
  if (starts_server()) return server_bin;
  return host + ":" + std::to_string(port);
}

RealSession::RealSession(const RealTarget& target, Persistence persistence, std::vector<std::string> sim_run_ids)
    : target_(target), persistence_(persistence), sim_ids_(std::move(sim_run_ids)) {}

RealSession::~RealSession() { stop(); }

std::vector<RealSession::Process> RealSession::start() {
  if (target_.starts_server()) {
    config_.binary = target_.server_bin;
    // absolute: MODULE LOAD (reload) resolves a relative path from the server's directory
    if (!target_.module_path.empty()) config_.module_path = std::filesystem::absolute(target_.module_path).string();
    switch (persistence_) {
      case Persistence::always: config_.extra_args = {"--appendfsync", "always"}; break;
      // The sim loses the writes since its last sync; the runner makes the server lose
      // exactly those (restart_keeping): it must append every write at once, in place.
      case Persistence::everysec:
      case Persistence::snapshot:
        config_.extra_args = {"--appendfsync", "always", "--auto-aof-rewrite-percentage", "0"};
        cuts_aof_ = target_.cluster_primaries == 0;
        break;
      case Persistence::none: config_.extra_args = {"--appendonly", "no"}; break;
    }
    // A replica's full sync starts at once (the default waits 5 s for more replicas).
    config_.extra_args.insert(config_.extra_args.end(), {"--repl-diskless-sync-delay", "0"});
    if (target_.cluster_primaries > 0) {
      // A cluster keeps true time: a primary calls its cluster ok only once its clock has
      // moved 2 s past its start, so a held clock would keep it down.
      cluster_ = std::make_unique<real::RealCluster>(config_, target_.cluster_primaries);
      std::vector<Process> out;
      for (std::size_t i = 0; i < cluster_->size(); ++i) out.push_back(opened(cluster_->node(i).port(), 1));
      return out;
    }
    // The sim's server clock reads 0 at the start; so does this one, held still.
    std::string pattern = (std::filesystem::temp_directory_path() / "trafikey-clock-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for the server clock");
    clock_dir_ = pattern;
    clock_ = std::make_unique<real::FakeClock>(clock_dir_, 0, 0.0);
    config_.env = clock_->env();
    server_ = std::make_unique<real::RealServer>(config_);
    file_begins();
  }
  return {opened(home_port(), 1)};
}

RealSession::Process RealSession::restart() {
  if (!server_) throw std::runtime_error("restart needs --server-bin (and no --cluster)");
  connections_.clear();
  if (persistence_ == Persistence::none) {
    // Nothing survives (the sim starts empty): a `reload` before it (DEBUG RELOAD) left a
    // dump.rdb in the directory, which the server would load at its start.
    server_->shutdown();
    std::error_code ec;
    std::filesystem::remove(server_->dir() / "dump.rdb", ec);
    server_->start();
  } else {
    server_->restart();
  }
  file_begins();
  return opened(home_port(), real_ids_.size());
}

void RealSession::file_begins() {
  file_first_call_ = calls_;
  aof_after_.assign(1, cuts_aof_ ? server_->aof_length() : 0);
}

RealSession::Process RealSession::restart_keeping(std::int64_t kept_calls) {
  if (!cuts_aof_) throw std::runtime_error("a restart that loses writes needs --server-bin under everysec or snapshot");
  if (kept_calls < file_first_call_ || kept_calls > calls_) {
    throw std::runtime_error("the sim's restart keeps the first " + std::to_string(kept_calls) +
                             " calls; this server's file holds calls " + std::to_string(file_first_call_) + " to " +
                             std::to_string(calls_));
  }
  connections_.clear();
  server_->kill();
  server_->cut_aof(aof_after_[static_cast<std::size_t>(kept_calls - file_first_call_)]);
  server_->start();
  // the calls after kept_calls are gone (their numbers are not reused: the sim counts on),
  // and the file as of each of them is the file as of kept_calls, which it now holds
  file_begins();
  return opened(home_port(), real_ids_.size());
}

void RealSession::sync_replica() {
  if (!server_) throw std::runtime_error("failover needs --server-bin (and no --cluster)");
  if (!replica_) replica_ = std::make_unique<real::RealServer>(config_);
  replica_->copy_from(*server_);
}

RealSession::Process RealSession::failover() {
  if (!server_) throw std::runtime_error("failover needs --server-bin (and no --cluster)");
  if (!replica_) sync_replica();
  connections_.clear();
  standby_ = std::move(server_);  // demoted: it keeps its process (an earlier standby ends)
  standby_incarnation_ = serving_incarnation_;
  server_ = std::move(replica_);
  // The sim's promoted process is a new one whose module loads at the failover (its grant
  // counter starts above that time, EMQ §8); this replica was started at an earlier sync,
  // and its module with it: a restart on its copy (AOF on, nothing lost) makes it a process
  // loaded now, under the failover's held clock. (MODULE UNLOAD and LOAD would not do: the
  // counter goes on from where the first load put it, module/module.cpp on_unload.)
  server_->restart();
  file_begins();
  return opened(home_port(), real_ids_.size());
}

void RealSession::sync_standby() {
  if (!server_) throw std::runtime_error("failback needs --server-bin (and no --cluster)");
  if (!standby_) throw std::runtime_error("failback with no failover before it: nothing to fail back to");
  standby_->copy_from(*server_);
}

RealSession::Process RealSession::failback() {
  if (!server_) throw std::runtime_error("failback needs --server-bin (and no --cluster)");
  if (!standby_) throw std::runtime_error("failback with no failover before it: nothing to fail back to");
  connections_.clear();
  std::swap(server_, standby_);
  std::swap(serving_incarnation_, standby_incarnation_);
  file_begins();
  Process p = opened(home_port(), serving_incarnation_);
  run_id_at_[p.port] = p.run_id;
  return p;
}

void RealSession::hold_clock(std::int64_t server_ms) {
  if (clock_) clock_->set(server_ms, 0.0);
}

RealSession::Process RealSession::opened(int port, std::size_t incarnation) {
  Process p;
  p.port = port;
  p.incarnation = incarnation;
  p.run_id = real::info_field(admin_call_at(port, {"INFO", "server"}).text(), "run_id");
  p.epoch = admin_call_at(port, {"EMQ.EPOCH"});
  if (serves_as_replica_ || !denied_key_.empty()) take_role_and_access(port);
  return p;
}

void RealSession::set_replica(bool replica) {
  if (!server_) throw std::runtime_error("replica and primary need --server-bin (and no --cluster)");
  serves_as_replica_ = replica;
  take_role_and_access(home_port());
}

void RealSession::deny_writes(const std::string& key) {
  if (!server_) throw std::runtime_error("deny and allow need --server-bin (and no --cluster)");
  denied_key_ = key;
  take_role_and_access(home_port());
}

void RealSession::take_role_and_access(int port) {
  auto must = [&](const std::vector<std::string>& argv) {
    const Reply r = admin_call_at(port, argv);
    if (r.is_error()) throw std::runtime_error(argv[0] + " " + argv[1] + " answered " + r.text());
  };
  if (serves_as_replica_) {
    must({"CONFIG", "SET", "replica-read-only", "no"});
    must({"REPLICAOF", "127.0.0.1", "1"});
  } else {
    must({"REPLICAOF", "NO", "ONE"});
  }
  std::vector<std::string> acl{"ACL", "SETUSER", "default", "resetkeys"};
  if (denied_key_.empty()) {
    acl.push_back("~*");
  } else {
    for (std::string& rule : real::acl_rules_writing_all_but(denied_key_)) acl.push_back(std::move(rule));
  }
  must(acl);
}

void RealSession::admit(const Process& process) {
  if (process.epoch.is_error() && process.incarnation == 1) {
    throw std::runtime_error("the server does not serve EMQ verbs (is trafikey.so loaded?): "
                             "EMQ.EPOCH answered " + process.epoch.text());
  }
  real_ids_.push_back(process.run_id);
  run_id_at_[process.port] = process.run_id;
  serving_incarnation_ = process.incarnation;
  incarnations_ = std::max(incarnations_, process.incarnation);
  if (process.incarnation < sim_ids_.size()) ids_.add(process.run_id, sim_ids_[process.incarnation]);
  const Reply digest = admin_call_at(process.port, {"DEBUG", "DIGEST"});
  digest_allowed_ = digest.kind() == Reply::Kind::simple;
}

void RealSession::stop() {
  connections_.clear();
  cluster_.reset();  // kills every node, removes their directories
  if (server_) {
    try {
      server_->shutdown();
    } catch (const std::exception&) {
    }
    server_.reset();  // kills it if it still runs, removes the directory
  }
  replica_.reset();
  standby_.reset();
  clock_.reset();
  if (!clock_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(clock_dir_, ec);
    clock_dir_.clear();
  }
}

int RealSession::home_port() const {
  if (cluster_) return cluster_->node(0).port();
  return target_.starts_server() ? server_->port() : target_.port;
}

int RealSession::port_for(const std::string& key) {
  if (!cluster_ || key.empty()) return home_port();
  auto it = port_of_key_.find(key);
  if (it == port_of_key_.end()) {
    it = port_of_key_.emplace(key, cluster_->node(cluster_->owner_of(cluster_->slot_of(key))).port()).first;
  }
  return it->second;
}

const std::string& RealSession::run_id_serving(const std::string& queue) { return run_id_at_.at(port_for(queue)); }

real::ServerConnection& RealSession::connection(const std::string& client, int port) {
  auto it = connections_.find({client, port});
  if (it != connections_.end()) return it->second;
  const std::string host = target_.starts_server() ? "127.0.0.1" : target_.host;
  real::ServerConnection c(host, port, connect_timeout);
  const Reply pong = c.call({"PING"});
  if (pong.is_error()) throw std::runtime_error("cannot reach " + host + ":" + std::to_string(port) + ": " + pong.text());
  return connections_.emplace(std::make_pair(client, port), std::move(c)).first->second;
}

void RealSession::clean(const ScenarioKeys& keys) {
  std::vector<std::string> doomed(keys.plain_keys.begin(), keys.plain_keys.end());
  for (const std::string& q : keys.queues) {
    for (const std::string& key : scan(queue_prefix(q))) doomed.push_back(key);
  }
  for (const std::string& key : doomed) admin_call({"DEL", key});
}

Reply RealSession::call(const std::string& name, const std::vector<std::string>& argv) {
  Reply r = connection(name, port_for(routing_key(argv))).call(argv);
  if (r.is_error() && r.text().starts_with("IOERR")) throw std::runtime_error(r.text());
  ++calls_;
  if (cuts_aof_) aof_after_.push_back(server_->aof_length());
  return r;
}

Reply RealSession::call_and_lose(const std::string& name, const std::vector<std::string>& argv) {
  Reply r = call(name, argv);
  std::erase_if(connections_, [&](const auto& entry) { return entry.first.first == name; });
  return r;
}

Reply RealSession::admin_call(const std::vector<std::string>& argv) {
  return admin_call_at(port_for(routing_key(argv)), argv);
}

Reply RealSession::admin_call_at(int port, const std::vector<std::string>& argv) {
  Reply r = connection(admin_client, port).call(argv);
  if (r.is_error() && r.text().starts_with("IOERR")) throw std::runtime_error(r.text());
  return r;
}

// `reload` (SCENARIO.md): the dataset reloaded and the module loaded again in the same
// process, as the sim does it (its load reads the run_id again and moves the grant counter
// above the time, EMQ §2, §8): DEBUG RELOAD, then MODULE UNLOAD and MODULE LOAD. DEBUG
// RELOAD alone keeps the module loaded, and its grant counter where it was.
Reply RealSession::reload_at(int port) {
  if (Reply r = admin_call_at(port, {"DEBUG", "RELOAD"}); r.is_error()) return Reply::error("DEBUG RELOAD: " + r.text());
  return module_reload_at(port);
}

Reply RealSession::module_reload_at(int port) {
  if (Reply r = admin_call_at(port, {"MODULE", "UNLOAD", "trafikey"}); r.is_error()) {
    return Reply::error("MODULE UNLOAD: " + r.text());
  }
  if (Reply r = admin_call_at(port, {"MODULE", "LOAD", config_.module_path}); r.is_error()) {
    return Reply::error("MODULE LOAD: " + r.text());
  }
  return Reply::simple("OK");
}

Reply RealSession::reload() {
  if (!cluster_) return reload_at(home_port());
  for (std::size_t i = 0; i < cluster_->size(); ++i) {
    Reply r = reload_at(cluster_->node(i).port());
    if (r.is_error()) return r;
  }
  return Reply::simple("OK");
}

// In a cluster, every node's digest: a call may only touch its queue's node, but a write
// anywhere else is as much a broken promise.
std::string RealSession::digest() {
  if (!digest_allowed_) return {};
  if (!cluster_) return admin_call({"DEBUG", "DIGEST"}).text();
  std::string out;
  for (std::size_t i = 0; i < cluster_->size(); ++i) {
    out += admin_call_at(cluster_->node(i).port(), {"DEBUG", "DIGEST"}).text() + " ";
  }
  return out;
}

std::vector<std::string> RealSession::scan(const std::string& prefix) {
  std::vector<std::string> out;
  std::string cursor = "0";
  do {
    const Reply r = admin_call_at(port_for(prefix), {"SCAN", cursor, "MATCH", glob_prefix(prefix), "COUNT",
                                                     std::to_string(scan_count)});
    if (r.kind() != Reply::Kind::array || r.items().size() != 2) throw std::runtime_error("SCAN answered " + debug_string(r));
    cursor = r.items()[0].text();
    for (const Reply& key : r.items()[1].items()) out.push_back(key.text());
  } while (cursor != "0");
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

KeyType RealSession::type_of(const std::string& key) {
  const std::string t = admin_call({"TYPE", key}).text();
  for (KeyType k : {KeyType::none, KeyType::string, KeyType::list, KeyType::set, KeyType::zset, KeyType::hash}) {
    if (key_type_name(k) == t) return k;
  }
  return KeyType::none;
}

std::optional<Row> RealSession::row(const std::string& key, bool mapped) {
  const Reply r = admin_call({"HGETALL", key});
  if (r.kind() != Reply::Kind::array || r.items().empty()) return std::nullopt;
  Row out;
  for (std::size_t i = 0; i + 1 < r.items().size(); i += 2) {
    const std::string& v = r.items()[i + 1].text();
    out[r.items()[i].text()] = mapped ? ids_.map(v) : v;
  }
  return out;
}

std::optional<std::vector<std::string>> RealSession::members(std::string_view key) {
  const Reply r = admin_call({"ZRANGE", std::string(key), "0", "-1"});
  if (r.kind() != Reply::Kind::array) return std::nullopt;
  std::vector<std::string> out;
  for (const Reply& m : r.items()) out.push_back(m.text());
  return out;
}

std::map<std::string, KeyValue> RealSession::final_keys(const ScenarioKeys& keys) {
  std::set<std::string> names(keys.plain_keys.begin(), keys.plain_keys.end());
  for (const std::string& q : keys.queues) {
    for (const std::string& key : scan(queue_prefix(q))) names.insert(key);
  }
  std::map<std::string, KeyValue> out;
  for (const std::string& key : names) {
    KeyValue value;
    value.type = type_of(key);
    if (value.type == KeyType::none) continue;
    if (value.type == KeyType::string) value.value = admin_call({"GET", key}).text();
    if (value.type == KeyType::hash) {
      for (const auto& [f, v] : row(key, true).value_or(Row{})) value.items.emplace_back(f, v);
    }
    if (value.type == KeyType::zset) {
      const Reply r = admin_call({"ZRANGE", key, "0", "-1", "WITHSCORES"});
      const auto& members = r.items_if_array();
      for (std::size_t i = 0; i + 1 < members.size(); i += 2) {
        value.items.emplace_back(members[i].text(), members[i + 1].text());
      }
    }
    out[key] = std::move(value);
  }
  return out;
}

}  // namespace trafikey::scenario
