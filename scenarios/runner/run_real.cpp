#include "scenarios/runner/run_real.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/args.h"
#include "core/epoch.h"
#include "core/keys.h"
#include "core/text.h"
#include "module/harness/real_server.h"
#include "sim/keyspace.h"
#include "scenarios/runner/differential.h"
#include "sim/scenario/notation.h"
#include "scenarios/runner/run_sim.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {

namespace {

using namespace std::chrono_literals;
using real::ServerConnection;

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

// "field:value" of an INFO reply; empty when absent.
std::string info_field(const std::string& text, std::string_view field) {
  const std::string needle = std::string(field) + ":";
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find("\r\n", at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    if (line.starts_with(needle)) return std::string(line.substr(needle.size()));
    at = end + 2;
  }
  return {};
}

using Row = std::map<std::string, std::string>;

std::int64_t count_of(const Row& row, const std::string& field, std::int64_t absent) {
  auto it = row.find(field);
  if (it == row.end()) return absent;
  return parse_int64(it->second).value_or(-1);
}

std::string value_or(const Row& row, const std::string& field, std::string absent = "-") {
  auto it = row.find(field);
  return it == row.end() ? absent : it->second;
}

int restarts_in(const Scenario& scenario) {
  return static_cast<int>(std::count_if(scenario.steps.begin(), scenario.steps.end(),
                                        [](const Step& s) { return std::holds_alternative<Restart>(s.action); }));
}

class RealRunner {
 public:
  RealRunner(const Scenario& scenario, const RealTarget& target)
      : scenario_(scenario), target_(target), keys_(scenario_keys(scenario)),
        sim_ids_(sim_run_ids(scenario.options, restarts_in(scenario) + 1)) {}

  RunResult run() {
    RunResult result;
    try {
      begin();
      for (const Step& step : scenario_.steps) {
        std::this_thread::sleep_until(t0_ + std::chrono::milliseconds(step.time_ms));
        step_ = &step;
        auto failure = std::visit([&](const auto& action) { return act(action, result); }, step.action);
        if (failure) {
          failure->line = step.line;
          failure->step = write_step(step);
          result.failure = std::move(*failure);
          result.status = CheckStatus::failed;
          break;
        }
      }
      result.final_keys = final_keys();
    } catch (const std::exception& e) {
      result.status = CheckStatus::failed;
      result.failure = StepFailure{step_ ? step_->line : 0, step_ ? write_step(*step_) : "(server start)",
                                   "a real server that answers", e.what(), {}};
    }
    result.violations = violations_;
    result.judged = judged_;
    result.incarnations = static_cast<int>(real_ids_.size()) - 1;
    end();
    return result;
  }

 private:
  using Failure = std::optional<StepFailure>;
  static Failure failed(std::string expected, std::string actual, std::string invariant = {}) {
    return StepFailure{0, {}, std::move(expected), std::move(actual), std::move(invariant)};
  }

  // ---- the server

  void begin() {
    if (target_.starts_server()) {
      real::ServerConfig config;
      config.binary = target_.server_bin;
      config.module_path = target_.module_path;
      switch (scenario_.options.persistence) {
        case Persistence::always: config.extra_args = {"--appendfsync", "always"}; break;
        case Persistence::everysec:
        case Persistence::snapshot: config.extra_args = {"--appendfsync", "everysec"}; break;
        case Persistence::none: config.extra_args = {"--appendonly", "no"}; break;
      }
      server_ = std::make_unique<real::RealServer>(config);
    }
    started();
    if (!target_.starts_server()) clean();
    t0_ = std::chrono::steady_clock::now();
  }

  void end() {
    clients_.clear();
    admin_.reset();
    if (server_) {
      try {
        server_->shutdown();
      } catch (const std::exception&) {
      }
      server_.reset();  // kills it if it still runs, removes the directory
    }
  }

  ServerConnection connect() {
    const std::string host = target_.starts_server() ? "127.0.0.1" : target_.host;
    const int port = target_.starts_server() ? server_->port() : target_.port;
    ServerConnection c(host, port, connect_timeout);
    const Reply pong = c.call({"PING"});
    if (pong.is_error()) throw std::runtime_error("cannot reach " + host + ":" + std::to_string(port) + ": " + pong.text());
    return c;
  }

  ServerConnection& admin() { return *admin_; }
  ServerConnection& client(const std::string& name) {
    auto it = clients_.find(name);
    if (it == clients_.end()) it = clients_.emplace(name, connect()).first;
    return it->second;
  }
  Reply admin_call(const std::vector<std::string>& argv) {
    Reply r = admin().call(argv);
    if (r.is_error() && r.text().starts_with("IOERR")) throw std::runtime_error(r.text());
    return r;
  }

  // A process started: record its run_id and judge epoch.load.
  void started() {
    clients_.clear();
    admin_.emplace(connect());
    const std::string run_id = info_field(admin_call({"INFO", "server"}).text(), "run_id");
    const Reply epoch = admin_call({"EMQ.EPOCH"});
    judge("epoch.load");
    const auto inc = real_ids_.size();
    if (!Epoch::valid_run_id(run_id) || epoch != Reply::bulk(run_id)) {
      fail("epoch.load", "process " + std::to_string(inc) + " has run_id '" + run_id +
                             "' but EMQ.EPOCH answered " + debug_string(epoch));
    }
    if (epoch.is_error() && real_ids_.size() == 1) {
      throw std::runtime_error("the server does not serve EMQ verbs (is trafikey.so loaded?): "
                               "EMQ.EPOCH answered " + epoch.text());
    }
    real_ids_.push_back(run_id);
    if (inc < sim_ids_.size()) ids_.add(run_id, sim_ids_[inc]);
    const Reply digest = admin().call({"DEBUG", "DIGEST"});
    digest_ok_ = digest.kind() == Reply::Kind::simple;
  }

  // --server: the scenario's keys go, nothing else.
  void clean() {
    std::vector<std::string> doomed(keys_.plain_keys.begin(), keys_.plain_keys.end());
    for (const std::string& q : keys_.queues) {
      for (const std::string& key : scan(queue_prefix(q))) doomed.push_back(key);
    }
    for (const std::string& key : doomed) admin_call({"DEL", key});
  }

  std::vector<std::string> scan(const std::string& prefix) {
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

  KeyType type_of(const std::string& key) {
    const std::string t = admin_call({"TYPE", key}).text();
    for (KeyType k : {KeyType::none, KeyType::string, KeyType::list, KeyType::set, KeyType::zset, KeyType::hash}) {
      if (key_type_name(k) == t) return k;
    }
    return KeyType::none;
  }

  // The row as a field map (values with run_ids mapped when `mapped`); nullopt when the key
  // is not a hash.
  std::optional<Row> row(const std::string& key, bool mapped) {
    const Reply r = admin_call({"HGETALL", key});
    if (r.kind() != Reply::Kind::array || r.items().empty()) return std::nullopt;
    Row out;
    for (std::size_t i = 0; i + 1 < r.items().size(); i += 2) {
      const std::string& v = r.items()[i + 1].text();
      out[r.items()[i].text()] = mapped ? ids_.map(v) : v;
    }
    return out;
  }

  std::optional<std::vector<std::string>> members(std::string_view key) {
    const Reply r = admin_call({"ZRANGE", std::string(key), "0", "-1"});
    if (r.kind() != Reply::Kind::array) return std::nullopt;
    std::vector<std::string> out;
    for (const Reply& m : r.items()) out.push_back(m.text());
    return out;
  }

  // ---- invariants, as observed

  void judge(const std::string& id) { ++judged_[id]; }
  void fail(const std::string& id, const std::string& facts) {
    std::string where = step_ ? "line " + std::to_string(step_->line) + ", t=" + std::to_string(step_->time_ms)
                              : std::string("at start");
    violations_.push_back({id, 0, 0, step_ ? step_->time_ms : 0, id + " (" + where + ", real server): " + facts});
  }

  struct SweepBefore {
    std::string queue;
    std::int64_t max_stalled = 0;
    std::string run_id;
    std::map<std::string, Row> rows;
  };

  SweepBefore before_sweep(const std::vector<std::string>& argv) {
    SweepBefore before;
    if (argv.size() < 3 || !valid_queue_name(argv[1])) return before;
    before.queue = argv[1];
    before.max_stalled = parse_int64(argv[2]).value_or(0);
    before.run_id = real_ids_.back();
    const QueueKeys keys(before.queue);
    if (auto active = members(keys.active())) {
      for (const std::string& id : *active) {
        if (auto r = row(keys.row(id), false)) before.rows[id] = *r;
      }
    }
    return before;
  }

  void judge_sweep(const SweepBefore& before, const Reply& reply) {
    if (before.queue.empty() || reply.kind() != Reply::Kind::array || reply.items().size() != 8) return;
    judge("epoch.exempt");
    judge("epoch.counted");
    const QueueKeys keys(before.queue);
    auto judge_member = [&](const std::string& id, bool listed_dead) {
      auto it = before.rows.find(id);
      if (it == before.rows.end()) return;
      const Row& was = it->second;
      const Row now = row(keys.row(id), false).value_or(Row{});
      const std::string epoch = value_or(was, "lease_epoch", "");
      const std::string stalled_before = value_or(was, "stalled");
      const std::string stalled_after = value_or(now, "stalled");
      const std::string state_after = value_or(now, "state");
      if (epoch != before.run_id) {
        if (stalled_after != stalled_before || listed_dead || state_after != "pending") {
          fail("epoch.exempt", "lease of " + id + " stamped " + (epoch.empty() ? "(none)" : epoch) +
                                   ", swept by the process " + before.run_id + ": stalled " + stalled_before +
                                   " -> " + stalled_after + ", state " + state_after);
        }
        return;
      }
      const std::int64_t s = count_of(was, "stalled", 0) + 1;
      const bool dies = s >= before.max_stalled;
      if (count_of(now, "stalled", 0) != s || listed_dead != dies || state_after != (dies ? "dead" : "pending")) {
        fail("epoch.counted", "lease of " + id + " stamped by the sweeping process: expected stalled " +
                                  std::to_string(s) + " and " + (dies ? "dead" : "pending") + " at max_stalled " +
                                  std::to_string(before.max_stalled) + ", found stalled " + stalled_after +
                                  ", state " + state_after);
      }
    };
    for (const Reply& id : reply.items()[1].items()) judge_member(id.text(), false);
    for (const Reply& id : reply.items()[3].items()) judge_member(id.text(), true);
  }

  void check_state() {
    judge("queue.conserve");
    judge("queue.budget");
    judge("epoch.stamp");
    for (const std::string& q : keys_.queues) {
      const QueueKeys keys(q);
      const std::pair<const char*, std::string_view> sets[] = {
          {"pending", keys.pending()}, {"active", keys.active()}, {"done", keys.done()}, {"dead", keys.dead()}};
      std::map<std::string, std::vector<std::string>> where;
      for (const auto& [name, key] : sets) {
        if (auto ids = members(key)) {
          for (const std::string& id : *ids) where[id].push_back(name);
        }
      }
      for (const auto& [id, in] : where) {
        if (ghosts_.contains({q, id})) continue;
        if (in.size() != 1) {
          std::string list;
          for (const auto& s : in) list += (list.empty() ? "" : " and ") + s;
          fail("queue.conserve", id + " is in " + list + " at once");
          continue;
        }
        const auto r = row(keys.row(id), false);
        if (!r || !r->contains("state")) {
          fail("queue.conserve", id + " is in " + in[0] + " but has no row: a half-written job");
          continue;
        }
        if (r->at("state") != in[0]) {
          fail("queue.conserve", id + " is in " + in[0] + " but its row says state " + r->at("state"));
        }
        const std::int64_t failures = count_of(*r, "failures", 0);
        const std::int64_t max_failures = count_of(*r, "max_failures", 3);
        if (failures > max_failures) {
          fail("queue.budget", id + " has failures " + std::to_string(failures) + " over max_failures " +
                                   std::to_string(max_failures));
        }
        if (in[0] == "dead") {
          const std::string reason = value_or(*r, "dead_reason");
          const bool spent = (reason == "failed" && failures >= max_failures) ||
                             (reason == "stalled" && count_of(*r, "stalled", 0) >= 1);
          if (!spent) fail("queue.budget", id + " is dead (dead_reason " + reason + ") without a spent budget");
        }
        if (in[0] == "active") {
          const std::string epoch = value_or(*r, "lease_epoch");
          if (std::find(real_ids_.begin() + 1, real_ids_.end(), epoch) == real_ids_.end()) {
            fail("epoch.stamp", "active " + id + " carries lease_epoch " + epoch +
                                    ", the run_id of no process this run started");
          }
        }
      }
      const std::string row_prefix = keys.row("");
      for (const std::string& key : scan(row_prefix)) {
        const std::string id = key.substr(row_prefix.size());
        if (where.contains(id)) continue;
        const Reply state = admin_call({"HGET", key, "state"});
        if (state.kind() == Reply::Kind::bulk) {
          fail("queue.conserve", "the row of " + id + " says state " + state.text() +
                                     " but the id is in no set: a half-written job");
        }
      }
    }
  }

  // ---- steps

  Failure act(const Call& call, RunResult& result) {
    const std::string verb = upper(call.argv.empty() ? "" : call.argv[0]);
    std::string digest_before;
    if (digest_ok_) digest_before = admin_call({"DEBUG", "DIGEST"}).text();
    SweepBefore sweep;
    if (verb == "EMQ.STALLED.CHECK") sweep = before_sweep(call.argv);

    Reply raw = client(call.client).call(call.argv);
    if (raw.is_error() && raw.text().starts_with("IOERR")) throw std::runtime_error(raw.text());
    const Reply reply = ids_.map(raw);
    result.calls.push_back({step_->line, call.client, call.argv, reply, false});

    const bool nothing_done = reply.is_error() ||
                              (reply.kind() == Reply::Kind::integer && reply.as_integer() == 0 &&
                               (verb == "EMQ.ADD" || verb == "EMQ.EXTEND" || verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL"));
    if (digest_ok_ && verb.starts_with("EMQ.")) {
      judge("verb.atomic");
      if (nothing_done && admin_call({"DEBUG", "DIGEST"}).text() != digest_before) {
        fail("verb.atomic", verb + " answered " + to_notation(reply) + " but changed the keyspace");
      }
    }
    judge_sweep(sweep, raw);
    track_ghosts(call, reply);

    if (call.expect && !matches(*call.expect, reply)) return failed(to_notation(*call.expect), to_notation(reply));
    return std::nullopt;
  }

  // A plain DEL of a row leaves its id a ghost (the checker's rule); ADD makes a job again.
  void track_ghosts(const Call& call, const Reply& reply) {
    const std::string verb = upper(call.argv[0]);
    if (verb == "DEL") {
      for (std::size_t i = 1; i < call.argv.size(); ++i) {
        for (const std::string& q : keys_.queues) {
          const std::string prefix = QueueKeys(q).row("");
          if (call.argv[i].starts_with(prefix)) ghosts_.insert({q, call.argv[i].substr(prefix.size())});
        }
      }
    } else if (verb == "EMQ.ADD" && call.argv.size() > 2 && reply == Reply::integer(1)) {
      ghosts_.erase({call.argv[1], call.argv[2]});
    }
  }

  Failure act(const Restart&, RunResult&) {
    if (!server_) throw std::runtime_error("restart needs --server-bin");
    clients_.clear();
    admin_.reset();
    server_->restart();
    started();
    return std::nullopt;
  }
  // Sim-only steps never reach here: real_skip_reason refuses their files.
  template <class SimOnly>
  Failure act(const SimOnly&, RunResult&) {
    return failed("a step a real server can do", "a sim-only step");
  }

  Failure act(const CheckRow& check, RunResult&) {
    const std::string key = QueueKeys(check.queue).row(check.id);
    const auto r = row(key, true);
    std::vector<std::optional<std::string>> expected, actual;
    for (const FieldCheck& f : check.fields) {
      expected.push_back(f.value);
      auto it = r ? r->find(f.field) : Row::const_iterator{};
      actual.push_back(r && it != r->end() ? std::optional<std::string>(it->second) : std::nullopt);
    }
    if (!r && std::any_of(expected.begin(), expected.end(), [](const auto& v) { return v.has_value(); })) {
      const KeyType t = type_of(key);
      return failed(field_list(check.fields, expected),
                    "no row: " + (t == KeyType::none ? std::string("no such key")
                                                     : "the key holds a " + std::string(key_type_name(t))));
    }
    if (expected != actual) return failed(field_list(check.fields, expected), field_list(check.fields, actual));
    return std::nullopt;
  }

  Failure act(const CheckSet& check, RunResult&) {
    const QueueKeys keys(check.queue);
    const std::string key(check.set == SetName::pending  ? keys.pending()
                             : check.set == SetName::active ? keys.active()
                             : check.set == SetName::done   ? keys.done()
                                                            : keys.dead());
    const auto ids = members(key);
    if (!ids) return failed(id_list(check.ids), "the key holds a " + std::string(key_type_name(type_of(key))));
    if (*ids != check.ids) return failed(id_list(check.ids), id_list(*ids));
    return std::nullopt;
  }

  Failure act(const CheckInvariants&, RunResult&) {
    check_state();
    if (violations_.empty()) return std::nullopt;
    std::string actual = violations_.front().facts;
    if (violations_.size() > 1) actual += " (and " + std::to_string(violations_.size() - 1) + " more)";
    return failed("every invariant a real server shows holds", actual, violations_.front().invariant);
  }

  std::map<std::string, std::string> final_keys() {
    std::set<std::string> names(keys_.plain_keys.begin(), keys_.plain_keys.end());
    for (const std::string& q : keys_.queues) {
      for (const std::string& key : scan(queue_prefix(q))) names.insert(key);
    }
    std::map<std::string, std::string> out;
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
      out[key] = normalised_key_text(key, value, keys_);
    }
    return out;
  }

  const Scenario& scenario_;
  const RealTarget& target_;
  ScenarioKeys keys_;
  std::vector<std::string> sim_ids_;
  std::vector<std::string> real_ids_{""};  // [incarnation], index 0 unused
  RunIdMap ids_;
  std::unique_ptr<real::RealServer> server_;
  std::optional<ServerConnection> admin_;
  std::map<std::string, ServerConnection> clients_;
  bool digest_ok_ = false;
  std::set<std::pair<std::string, std::string>> ghosts_;
  std::vector<properties::Violation> violations_;
  std::map<std::string, std::int64_t> judged_;
  std::chrono::steady_clock::time_point t0_;
  const Step* step_ = nullptr;
};

}  // namespace

std::string RealTarget::describe() const {
  if (starts_server()) return server_bin;
  return host + ":" + std::to_string(port);
}

std::string real_skip_reason(const Scenario& scenario, const RealTarget& target) {
  for (const Step& step : scenario.steps) {
    if (sim_only(step)) {
      return "sim-only step at line " + std::to_string(step.line) + ": " + write_action(step.action);
    }
  }
  for (const Step& step : scenario.steps) {
    if (!std::holds_alternative<Restart>(step.action)) continue;
    if (!target.starts_server()) {
      return "restart at line " + std::to_string(step.line) +
             ": the runner cannot restart a server it did not start (use --server-bin)";
    }
    const Persistence p = scenario.options.persistence;
    if (p == Persistence::everysec || p == Persistence::snapshot) {
      return "restart at line " + std::to_string(step.line) + " under persistence " +
             std::string(persistence_name(p)) +
             ": the sim loses the writes since the last sync, a real SHUTDOWN keeps them all";
    }
  }
  return {};
}

RunResult run_on_real(const Scenario& scenario, const RealTarget& target) {
  if (auto why = real_skip_reason(scenario, target); !why.empty()) {
    RunResult skipped;
    skipped.status = CheckStatus::skipped;
    skipped.skip_reason = std::move(why);
    return skipped;
  }
  return RealRunner(scenario, target).run();
}

RunResult run_differential(const Scenario& scenario, const RealTarget& target) {
  if (auto why = real_skip_reason(scenario, target); !why.empty()) return run_on_real(scenario, target);
  RunResult sim = run_on_sim(scenario, SimRunOptions{{}, false});
  if (sim.status == CheckStatus::failed) {
    sim.failure->step = "(on the sim) " + sim.failure->step;
    return sim;
  }
  RunResult real = run_on_real(scenario, target);
  if (real.status == CheckStatus::failed) {
    real.failure->step = "(on the real server) " + real.failure->step;
    return real;
  }
  if (auto d = first_difference(sim, real, scenario_keys(scenario))) {
    real.status = CheckStatus::failed;
    std::string what = "sim and real server differ: " + d->what;
    for (const Step& step : scenario.steps) {
      if (d->line > 0 && step.line == d->line) what += " of " + write_step(step);
    }
    real.failure = StepFailure{d->line, what, "sim:  " + d->sim, "real: " + d->real, "sim.differential"};
    return real;
  }
  real.judged["sim.differential"] = 1;
  return real;
}

}  // namespace trafikey::scenario
