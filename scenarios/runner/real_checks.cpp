#include "scenarios/runner/real_checks.h"

#include <algorithm>

#include "core/args.h"
#include "core/epoch.h"
#include "core/keys.h"
#include "core/text.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

namespace {

std::int64_t count_of(const Row& row, const std::string& field, std::int64_t absent) {
  auto it = row.find(field);
  if (it == row.end()) return absent;
  return parse_int64(it->second).value_or(-1);
}

std::string value_or(const Row& row, const std::string& field, std::string absent = "-") {
  auto it = row.find(field);
  return it == row.end() ? absent : it->second;
}

}  // namespace

void RealChecks::fail(const std::string& id, const std::string& facts) {
  std::string where = step_ ? "line " + std::to_string(step_->line) + ", t=" + std::to_string(step_->time_ms)
                            : std::string("at start");
  violations_.push_back({id, 0, 0, step_ ? step_->time_ms : 0, id + " (" + where + ", real server): " + facts});
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
  if (before.verb == "EMQ.STALLED.CHECK") before.sweep = before_sweep(call.argv);
  return before;
}

void RealChecks::after_call(const Call& call, const BeforeCall& before, const Reply& raw, const Reply& reply) {
  const std::string& verb = before.verb;
  const bool nothing_done = reply.is_error() ||
                            (reply.kind() == Reply::Kind::integer && reply.as_integer() == 0 &&
                             (verb == "EMQ.ADD" || verb == "EMQ.EXTEND" || verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL"));
  if (session_.digest_allowed() && verb.starts_with("EMQ.")) {
    judge("verb.atomic");
    if (nothing_done && session_.digest() != before.digest) {
      fail("verb.atomic", verb + " answered " + to_notation(reply) + " but changed the keyspace");
    }
  }
  judge_sweep(before.sweep, raw);
  track_ghosts(call, reply);
}

RealChecks::SweepBefore RealChecks::before_sweep(const std::vector<std::string>& argv) {
  SweepBefore before;
  if (argv.size() < 3 || !valid_queue_name(argv[1])) return before;
  before.queue = argv[1];
  before.max_stalled = parse_int64(argv[2]).value_or(0);
  before.run_id = session_.run_id_serving(before.queue);
  const QueueKeys keys(before.queue);
  if (auto active = session_.members(keys.active())) {
    for (const std::string& id : *active) {
      if (auto r = session_.row(keys.row(id), false)) before.rows[id] = *r;
    }
  }
  return before;
}

void RealChecks::judge_sweep(const SweepBefore& before, const Reply& reply) {
  if (before.queue.empty() || reply.kind() != Reply::Kind::array || reply.items().size() != 8) return;
  judge("epoch.exempt");
  judge("epoch.counted");
  const QueueKeys keys(before.queue);
  auto judge_member = [&](const std::string& id, bool listed_dead) {
    auto it = before.rows.find(id);
    if (it == before.rows.end()) return;
    const Row& was = it->second;
    const Row after = session_.row(keys.row(id), false).value_or(Row{});
    const std::string epoch = value_or(was, "lease_epoch", "");
    const std::string stalled_before = value_or(was, "stalled");
    const std::string stalled_after = value_or(after, "stalled");
    const std::string state_after = value_or(after, "state");
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
    if (count_of(after, "stalled", 0) != s || listed_dead != dies || state_after != (dies ? "dead" : "pending")) {
      fail("epoch.counted", "lease of " + id + " stamped by the sweeping process: expected stalled " +
                                std::to_string(s) + " and " + (dies ? "dead" : "pending") + " at max_stalled " +
                                std::to_string(before.max_stalled) + ", found stalled " + stalled_after +
                                ", state " + state_after);
    }
  };
  for (const Reply& id : reply.items()[1].items()) judge_member(id.text(), false);
  for (const Reply& id : reply.items()[3].items()) judge_member(id.text(), true);
}

void RealChecks::track_ghosts(const Call& call, const Reply& reply) {
  const std::string verb = upper(call.argv[0]);
  if (verb == "DEL" || verb == "SET") {  // SET of a row key leaves a string there: a ghost too
    const std::size_t end = verb == "SET" ? std::min<std::size_t>(call.argv.size(), 2) : call.argv.size();
    for (std::size_t i = 1; i < end; ++i) {
      for (const std::string& q : keys_.queues) {
        const std::string prefix = QueueKeys(q).row("");
        if (call.argv[i].starts_with(prefix)) ghosts_.insert({q, call.argv[i].substr(prefix.size())});
      }
    }
  } else if (verb == "EMQ.ADD" && call.argv.size() > 2 && reply == Reply::integer(1)) {
    ghosts_.erase({call.argv[1], call.argv[2]});
  }
}

void RealChecks::check_state() {
  judge("queue.conserve");
  judge("queue.budget");
  judge("epoch.stamp");
  const std::vector<std::string>& run_ids = session_.run_ids();
  for (const std::string& q : keys_.queues) {
    const QueueKeys keys(q);
    const std::pair<const char*, std::string_view> sets[] = {
        {"pending", keys.pending()}, {"active", keys.active()}, {"done", keys.done()}, {"dead", keys.dead()}};
    std::map<std::string, std::vector<std::string>> where;
    for (const auto& [name, key] : sets) {
      if (auto ids = session_.members(key)) {
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
      const auto r = session_.row(keys.row(id), false);
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
        if (std::find(run_ids.begin() + 1, run_ids.end(), epoch) == run_ids.end()) {
          fail("epoch.stamp", "active " + id + " carries lease_epoch " + epoch +
                                  ", the run_id of no process this run started");
        }
      }
    }
    const std::string row_prefix = keys.row("");
    for (const std::string& key : session_.scan(row_prefix)) {
      const std::string id = key.substr(row_prefix.size());
      if (where.contains(id)) continue;
      const Reply state = session_.admin_call({"HGET", key, "state"});
      if (state.kind() == Reply::Kind::bulk) {
        fail("queue.conserve", "the row of " + id + " says state " + state.text() +
                                   " but the id is in no set: a half-written job");
      }
    }
  }
}

}  // namespace trafikey::scenario
