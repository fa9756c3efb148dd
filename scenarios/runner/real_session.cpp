#include "scenarios/runner/real_session.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "core/keys.h"

namespace trafikey::scenario {

namespace {

using namespace std::chrono_literals;

constexpr auto connect_timeout = 2000ms;
constexpr std::size_t scan_count = 1000;

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

}  // namespace

std::string RealTarget::describe() const {
  if (starts_server()) return server_bin;
  return host + ":" + std::to_string(port);
}

RealSession::RealSession(const RealTarget& target, Persistence persistence, std::vector<std::string> sim_run_ids)
    : target_(target), persistence_(persistence), sim_ids_(std::move(sim_run_ids)) {}

RealSession::~RealSession() { stop(); }

RealSession::Process RealSession::start() {
  if (target_.starts_server()) {
    config_.binary = target_.server_bin;
    config_.module_path = target_.module_path;
    switch (persistence_) {
      case Persistence::always: config_.extra_args = {"--appendfsync", "always"}; break;
      case Persistence::everysec:
      case Persistence::snapshot: config_.extra_args = {"--appendfsync", "everysec"}; break;
      case Persistence::none: config_.extra_args = {"--appendonly", "no"}; break;
    }
    // A replica's full sync starts at once (the default waits 5 s for more replicas).
    config_.extra_args.insert(config_.extra_args.end(), {"--repl-diskless-sync-delay", "0"});
    // The sim's server clock reads 0 at the start; so does this one, held still.
    std::string pattern = (std::filesystem::temp_directory_path() / "trafikey-clock-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for the server clock");
    clock_dir_ = pattern;
    clock_ = std::make_unique<real::FakeClock>(clock_dir_, 0, 0.0);
    config_.env = clock_->env();
    server_ = std::make_unique<real::RealServer>(config_);
  }
  return opened();
}

RealSession::Process RealSession::restart() {
  if (!server_) throw std::runtime_error("restart needs --server-bin");
  clients_.clear();
  admin_.reset();
  server_->restart();
  return opened();
}

void RealSession::sync_replica() {
  if (!server_) throw std::runtime_error("failover needs --server-bin");
  if (!replica_) replica_ = std::make_unique<real::RealServer>(config_);
  replica_->copy_from(*server_);
}

RealSession::Process RealSession::failover() {
  if (!server_) throw std::runtime_error("failover needs --server-bin");
  if (!replica_) sync_replica();
  clients_.clear();
  admin_.reset();
  server_->kill();
  server_ = std::move(replica_);
  return opened();
}

void RealSession::hold_clock(std::int64_t server_ms) {
  if (clock_) clock_->set(server_ms, 0.0);
}

RealSession::Process RealSession::opened() {
  clients_.clear();
  admin_.emplace(connect());
  Process p;
  p.incarnation = real_ids_.size();
  p.run_id = real::info_field(admin_call({"INFO", "server"}).text(), "run_id");
  p.epoch = admin_call({"EMQ.EPOCH"});
  return p;
}

void RealSession::admit(const Process& process) {
  if (process.epoch.is_error() && process.incarnation == 1) {
    throw std::runtime_error("the server does not serve EMQ verbs (is trafikey.so loaded?): "
                             "EMQ.EPOCH answered " + process.epoch.text());
  }
  real_ids_.push_back(process.run_id);
  if (process.incarnation < sim_ids_.size()) ids_.add(process.run_id, sim_ids_[process.incarnation]);
  const Reply digest = admin_->call({"DEBUG", "DIGEST"});
  digest_allowed_ = digest.kind() == Reply::Kind::simple;
}

void RealSession::stop() {
  clients_.clear();
  admin_.reset();
  if (server_) {
    try {
      server_->shutdown();
    } catch (const std::exception&) {
    }
    server_.reset();  // kills it if it still runs, removes the directory
  }
  replica_.reset();
  clock_.reset();
  if (!clock_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(clock_dir_, ec);
    clock_dir_.clear();
  }
}

real::ServerConnection RealSession::connect() {
  const std::string host = target_.starts_server() ? "127.0.0.1" : target_.host;
  const int port = target_.starts_server() ? server_->port() : target_.port;
  real::ServerConnection c(host, port, connect_timeout);
  const Reply pong = c.call({"PING"});
  if (pong.is_error()) throw std::runtime_error("cannot reach " + host + ":" + std::to_string(port) + ": " + pong.text());
  return c;
}

void RealSession::clean(const ScenarioKeys& keys) {
  std::vector<std::string> doomed(keys.plain_keys.begin(), keys.plain_keys.end());
  for (const std::string& q : keys.queues) {
    for (const std::string& key : scan(queue_prefix(q))) doomed.push_back(key);
  }
  for (const std::string& key : doomed) admin_call({"DEL", key});
}

Reply RealSession::call(const std::string& name, const std::vector<std::string>& argv) {
  auto it = clients_.find(name);
  if (it == clients_.end()) it = clients_.emplace(name, connect()).first;
  Reply r = it->second.call(argv);
  if (r.is_error() && r.text().starts_with("IOERR")) throw std::runtime_error(r.text());
  return r;
}

Reply RealSession::call_and_lose(const std::string& name, const std::vector<std::string>& argv) {
  Reply r = call(name, argv);
  clients_.erase(name);
  return r;
}

Reply RealSession::admin_call(const std::vector<std::string>& argv) {
  Reply r = admin_->call(argv);
  if (r.is_error() && r.text().starts_with("IOERR")) throw std::runtime_error(r.text());
  return r;
}

std::string RealSession::digest() { return digest_allowed_ ? admin_call({"DEBUG", "DIGEST"}).text() : std::string(); }

std::vector<std::string> RealSession::scan(const std::string& prefix) {
  std::vector<std::string> out;
  std::string cursor = "0";
  do {
    const Reply r = admin_call({"SCAN", cursor, "MATCH", glob_prefix(prefix), "COUNT", std::to_string(scan_count)});
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
      for (std::size_t i = 0; i + 1 < r.items().size(); i += 2) {
        value.items.emplace_back(r.items()[i].text(), r.items()[i + 1].text());
      }
    }
    out[key] = std::move(value);
  }
  return out;
}

}  // namespace trafikey::scenario
