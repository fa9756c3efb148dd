#include "scenarios/runner/real_checks.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <span>

#include "core/args.h"
#include "core/epoch.h"
#include "core/keys.h"
#include "core/text.h"
#include "properties/model/names.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

namespace {

std::vector<std::string_view> views_of(const std::vector<std::string>& argv) {
  return {argv.begin(), argv.end()};
}

}  // namespace

int real_violation_line(const properties::Violation& violation) {
  const std::string prefix = violation.invariant + " (line ";
  if (!violation.facts.starts_with(prefix)) return 0;
  int line = 0;
  for (std::size_t i = prefix.size(); i < violation.facts.size() && std::isdigit(static_cast<unsigned char>(violation.facts[i])); ++i) {
    line = line * 10 + (violation.facts[i] - '0');
  }
  return line;
}

void RealChecks::fail(const std::string& id, const std::string& facts) {
  std::string where = step_ ? "line " + std::to_string(step_->line) + ", t=" + std::to_string(step_->time_ms)
                            : std::string("at start");
  violations_.push_back({id, 0, 0, step_ ? step_->time_ms : 0, id + " (" + where + ", real server): " + facts});
}

void RealChecks::Findings::fail(std::string_view invariant, std::string facts) {
  checks_.fail(std::string(invariant), facts);
}

void RealChecks::Findings::skipped(std::string_view invariant, std::string_view part) {
  auto& parts = checks_.unjudged_[std::string(invariant)];
  if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.emplace_back(part);
}

void RealChecks::judge_start(const RealSession::Process& process) {
  judge("epoch.load");
  if (!Epoch::valid_run_id(process.run_id) || process.epoch != Reply::bulk(process.run_id)) {
    fail("epoch.load", "process " + std::to_string(process.incarnation) + " has run_id '" + process.run_id +
                           "' but EMQ.EPOCH answered " + debug_string(process.epoch));
  }
}

RealChecks::BeforeCall RealChecks::before_call(const Call& call) {
  BeforeCall before;
  before.verb = upper(call.argv.empty() ? "" : call.argv[0]);
  if (session_.digest_allowed()) before.digest = session_.digest();
  if (before.verb == "EMQ.STALLED.CHECK") before_sweep(call.argv, before);
  // a set key taken away by hand: its members' rows are left behind (the sim's ledger
  // stops following those jobs too)
  for (const std::string& key : keys_replaced(call)) {
    for (const std::string& q : keys_.queues) {
      const QueueKeys keys(q);
      for (const std::string_view set : {keys.pending(), keys.active(), keys.done(), keys.dead()}) {
        if (key != set) continue;
        if (auto ids = session_.members(set)) {
          for (std::string& id : *ids) before.unset.emplace_back(q, std::move(id));
        }
      }
    }
  }
  return before;
}

// The keys a plain DEL deletes or a SET overwrites with a string (none for other calls).
std::span<const std::string> RealChecks::keys_replaced(const Call& call) {
  const std::string verb = upper(call.argv.empty() ? "" : call.argv[0]);
  if (verb == "DEL") return std::span(call.argv).subspan(1);
  if (verb == "SET" && call.argv.size() > 1) return std::span(call.argv).subspan(1, 1);
  return {};
}

void RealChecks::after_call(const Call& call, const BeforeCall& before, const Reply& raw, const Reply& reply) {
  if (session_.digest_allowed() && before.verb.starts_with("EMQ.")) {
    judge("verb.atomic");
    const bool changed = session_.digest() != before.digest;
    // a real server says whether the keyspace changed, not how many writes changed it
    properties::judge::verb_atomic(views_of(call.argv), properties::model::verb_of(before.verb), reply, {std::nullopt, changed},
                                   findings_);
  }
  if (!raw.is_error()) judge_sweep(before, raw);
  track_ghosts(call, reply);
  if (!raw.is_error()) {
    for (const auto& id : before.unset) ghost(id, true);
  }
}

void RealChecks::before_sweep(const std::vector<std::string>& argv, BeforeCall& out) {
  if (argv.size() < 3 || !valid_queue_name(argv[1])) return;
  // The queue's active set and its members' rows, as a keyspace of their own: the sweep's
  // rows before it are then captured as the sim captures them (sim/sweep_before.h).
  const QueueKeys keys(argv[1]);
  const std::string active(keys.active());
  sim::Keyspace data;
  const Reply members = session_.admin_call({"ZRANGE", active, "0", "-1", "WITHSCORES"});
  const auto& items = members.items_if_array();
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    const std::string& id = items[i].text();
    data.zadd(active, std::strtod(items[i + 1].text().c_str(), nullptr), id);
    const std::string row_key = keys.row(id);
    if (auto row = session_.row(row_key, false)) {
      for (const auto& [field, value] : *row) data.hset(row_key, field, value);
    }
  }
  const std::string row_prefix = keys.row("");
  // Without the server's clock every member is read, and which had expired is not judged.
  const std::int64_t now = server_ms_.value_or(std::numeric_limits<std::int64_t>::max());
  sim::capture_sweep(data, views_of(argv), {active, row_prefix}, now, out.sweep);
  if (!server_ms_) {
    out.sweep.expiry_known = false;
    for (auto& [id, row] : out.sweep.rows) row.rank = 0;
  }
  out.sweep_incarnation = static_cast<int>(session_.incarnations());
  out.sweep_run_ids = session_.run_ids();
  // A cluster's nodes are all incarnation 1: the stamp to match is the queue's node's, and
  // that node's run_id names the sweeping process only.
  const std::string& serving = session_.run_id_serving(argv[1]);
  for (std::string& id : out.sweep_run_ids) {
    if (id == serving) id.clear();
  }
  out.sweep_run_ids.resize(std::max<std::size_t>(out.sweep_run_ids.size(), out.sweep_incarnation + 1));
  out.sweep_run_ids[out.sweep_incarnation] = serving;
}

void RealChecks::judge_sweep(const BeforeCall& before, const Reply& reply) {
  if (before.sweep.queue.empty()) return;
  judge("epoch.exempt");
  judge("epoch.counted");
  // No ledger: the rule reads each lease's stamp from its row before the sweep.
  class Sight final : public properties::judge::SweepSight {
   public:
    Sight(RealSession& session, const std::string& queue) : session_(session), keys_(queue) {}
    const properties::judge::JobBefore* ledger_before(std::string_view) const override { return nullptr; }
    properties::judge::SweptAfter row_after(std::string_view id) const override {
      const Row after = session_.row(keys_.row(id), false).value_or(Row{});
      auto field = [&](const char* name) -> sim::Field {
        auto it = after.find(name);
        return it == after.end() ? std::nullopt : sim::Field(it->second);
      };
      return {field("stalled"), field("state")};
    }

   private:
    RealSession& session_;
    const QueueKeys keys_;
  };
  const properties::judge::SweepContext at{before.sweep_incarnation, step_ ? step_->time_ms : 0,
                                            server_ms_.value_or(0), &before.sweep_run_ids};
  properties::judge::judge_sweep(before.sweep, reply, at, Sight(session_, before.sweep.queue), findings_);
}

void RealChecks::track_ghosts(const Call& call, const Reply& reply) {
  // SET of a row key leaves a string there: a ghost too
  for (const std::string& key : keys_replaced(call)) {
    for (const std::string& q : keys_.queues) {
      const std::string prefix = QueueKeys(q).row("");
      if (key.starts_with(prefix)) ghost({q, key.substr(prefix.size())}, true);
    }
  }
  if (upper(call.argv[0]) == "EMQ.ADD" && call.argv.size() > 2 && reply == Reply::integer(1)) {
    ghost({call.argv[1], call.argv[2]}, false);
  }
}

void RealChecks::ghost(std::pair<std::string, std::string> id, bool is_ghost) {
  if (is_ghost) {
    ghosts_.insert(id);
  } else {
    ghosts_.erase(id);
  }
  ghost_log_.push_back({session_.calls() - 1, is_ghost, std::move(id)});
}

void RealChecks::rolled_back(std::int64_t kept_calls) {
  std::erase_if(ghost_log_, [&](const GhostChange& c) { return c.call >= kept_calls; });
  ghosts_.clear();
  for (const GhostChange& c : ghost_log_) {
    if (c.ghost) {
      ghosts_.insert(c.id);
    } else {
      ghosts_.erase(c.id);
    }
  }
}

void RealChecks::check_state() {
  judge("queue.conserve");
  judge("queue.budget");
  judge("epoch.stamp");
  for (const std::string& q : keys_.queues) {
    const QueueKeys keys(q);
    properties::judge::QueueSnapshot snapshot;
    snapshot.queue = q;
    const std::string_view set_keys[] = {keys.pending(), keys.active(), keys.done(), keys.dead()};
    for (const JobState set : all_job_states) {
      if (auto ids = session_.members(set_keys[static_cast<std::size_t>(set)])) {
        for (const std::string& id : *ids) snapshot.members[id].push_back(set);
      }
    }
    for (const auto& [ghost_queue, id] : ghosts_) {
      if (ghost_queue == q) snapshot.ghosts.insert(id);
    }
    const std::string row_prefix = keys.row("");
    for (const std::string& key : session_.scan(row_prefix)) {
      if (auto row = session_.row(key, false)) snapshot.rows[key.substr(row_prefix.size())] = std::move(*row);
    }
    // No ledger here: the runner does not follow each job's history (run_real.h).
    properties::judge::judge_queue(snapshot, {nullptr, &session_.run_ids()}, findings_);
  }
}

}  // namespace trafikey::scenario
