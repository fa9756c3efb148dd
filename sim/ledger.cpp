#include "sim/ledger.h"

#include <algorithm>
#include <array>

#include "core/args.h"
#include "core/keys.h"

namespace trafikey::sim {

namespace {

std::int64_t int_arg(std::string_view text, std::int64_t fallback) {
  return parse_int64(text).value_or(fallback);
}

bool is_verb(const CallRecord& c, std::string_view name) {
  return !c.argv.empty() && equals_ignore_case(c.argv[0], name);
}
}  // namespace

const JobTruth* Ledger::job(std::string_view queue, std::string_view id) const {
  auto it = jobs_.find(std::pair<std::string_view, std::string_view>(queue, id));
  return it == jobs_.end() ? nullptr : &it->second;
}

JobTruth& Ledger::adopt(std::string_view queue, std::string_view id, JobState state) {
  const std::pair<std::string_view, std::string_view> key(queue, id);
  auto it = jobs_.lower_bound(key);
  const bool inserted = it == jobs_.end() || jobs_.key_comp()(key, it->first);
  if (inserted) it = jobs_.emplace_hint(it, Key{std::string(queue), std::string(id)}, JobTruth{});
  if (inserted) {
    it->second.queue = queue;
    it->second.id = id;
    it->second.state = state;
  }
  return it->second;
}

void Ledger::move(JobTruth& job, JobState to, std::int64_t call) {
  job.transitions.push_back({job.state, to, call});
  job.state = to;
}

namespace {
// A writer's answer that moves no job (an idle CLAIM, a 0, a sweep with nothing to
// recover or kill): most calls of a run, kept out of the log that truncate() replays.
bool answered_nothing_done(const CallRecord& c) {
  const Reply& r = c.reply;
  if (r.kind() == Reply::Kind::integer) return r.as_integer() == 0 && !is_verb(c, "DEL");
  if (r.kind() != Reply::Kind::array) return false;
  if (is_verb(c, "EMQ.CLAIM")) return r.items().empty();
  if (is_verb(c, "EMQ.EXTENDS")) {
    return std::all_of(r.items().begin(), r.items().end(),
                       [](const Reply& x) { return x.kind() == Reply::Kind::integer && x.as_integer() == 0; });
  }
  if (is_verb(c, "EMQ.STALLED.CHECK") && r.items().size() == 8) {
    return r.items()[1].items().empty() && r.items()[3].items().empty();
  }
  return false;
}
}  // namespace

void Ledger::apply(const CallRecord& call) {
  if (call.reply.is_error() || call.argv.size() < 2) return;
  // Only the writers move the model; reads and plain commands are not logged.
  static constexpr std::array writers{"EMQ.ADD",  "EMQ.CLAIM", "EMQ.EXTEND",
                                      "EMQ.EXTENDS", "EMQ.COMPLETE", "EMQ.FAIL",
                                      "EMQ.STALLED.CHECK", "DEL", "HSET"};
  bool writer = false;
  for (auto name : writers) writer = writer || is_verb(call, name);
  if (!writer || answered_nothing_done(call)) return;
  log_.push_back(call);
  model(call);
}

void Ledger::truncate(std::int64_t last_call) {
  std::size_t keep = log_.size();
  while (keep > 0 && log_[keep - 1].index > last_call) --keep;
  if (keep == log_.size()) return;
  log_.resize(keep);
  jobs_.clear();
  ghosts_.clear();
  for (const auto& call : log_) model(call);
}

void Ledger::model(const CallRecord& c) {
  if (is_verb(c, "DEL") || is_verb(c, "HSET")) {
    const auto row = parse_row_key(c.argv[1]);
    if (!row) return;
    const Key key{std::string(row->queue), std::string(row->id)};
    if (is_verb(c, "DEL")) {
      if (jobs_.erase(key) > 0) ghosts_.insert(key);
      return;
    }
    auto it = jobs_.find(key);
    for (std::size_t i = 2; it != jobs_.end() && i < c.argv.size(); i += 2) {
      if (c.argv[i] == "group") it->second.lane = true;
    }
    return;
  }
  const std::string_view q = c.argv[1];
  const Reply& r = c.reply;
  auto stamp = [&](JobTruth& job, std::int64_t lease_ms, bool by_claim) {
    job.stamp = LeaseStamp{c.at.incarnation, c.at.true_ms, c.at.server_ms, c.index, by_claim};
    job.deadline_server_ms = c.at.server_ms + lease_ms;
  };

  if (is_verb(c, "EMQ.ADD")) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1 || c.argv.size() < 4) return;
    JobTruth& job = adopt(q, c.argv[2], JobState::pending);
    job.max_failures = c.argv.size() >= 6 ? int_arg(c.argv[5], 3) : 3;
  } else if (is_verb(c, "EMQ.CLAIM")) {
    if (r.kind() != Reply::Kind::array) return;
    const std::int64_t lease_ms = int_arg(c.argv[2], 0);
    for (const Reply& claimed : r.items()) {
      if (claimed.items().size() != 3) continue;
      JobTruth& job = adopt(q, claimed.items()[0].text(), JobState::pending);
      move(job, JobState::active, c.index);
      job.token = claimed.items()[1].as_integer();
      job.holder = c.actor;
      stamp(job, lease_ms, true);
      job.granted = job.stamp;
    }
  } else if (is_verb(c, "EMQ.EXTEND")) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1 || c.argv.size() != 5) return;
    stamp(adopt(q, c.argv[2], JobState::active), int_arg(c.argv[4], 0), false);
  } else if (is_verb(c, "EMQ.EXTENDS")) {
    if (r.kind() != Reply::Kind::array) return;
    const std::int64_t lease_ms = int_arg(c.argv[2], 0);
    for (std::size_t i = 0; i < r.items().size() && 3 + 2 * i < c.argv.size(); ++i) {
      if (r.items()[i].as_integer() != 1) continue;
      stamp(adopt(q, c.argv[3 + 2 * i], JobState::active), lease_ms, false);
    }
  } else if (is_verb(c, "EMQ.COMPLETE")) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1) return;
    move(adopt(q, c.argv[2], JobState::active), JobState::done, c.index);
  } else if (is_verb(c, "EMQ.FAIL")) {
    if (r.kind() != Reply::Kind::integer || (r.as_integer() != 1 && r.as_integer() != 2)) return;
    JobTruth& job = adopt(q, c.argv[2], JobState::active);
    job.failures += 1;
    move(job, r.as_integer() == 1 ? JobState::pending : JobState::dead, c.index);
  } else if (is_verb(c, "EMQ.STALLED.CHECK")) {
    if (r.kind() != Reply::Kind::array || r.items().size() != 8) return;
    const auto counted = [&](const JobTruth& job) {
      return job.stamp && job.stamp->incarnation == c.at.incarnation;
    };
    for (const Reply& id : r.items()[1].items()) {
      JobTruth& job = adopt(q, id.text(), JobState::active);
      if (counted(job)) job.stalled += 1;
      move(job, JobState::pending, c.index);
    }
    for (const Reply& id : r.items()[3].items()) {
      JobTruth& job = adopt(q, id.text(), JobState::active);
      if (counted(job)) job.stalled += 1;
      move(job, JobState::dead, c.index);
    }
  }
}

}  // namespace trafikey::sim
