#include "sim/ledger.h"

#include <algorithm>

#include "core/args.h"
#include "core/keys.h"

namespace trafikey::sim {

namespace {

std::int64_t int_arg(std::string_view text, std::int64_t fallback) {
  return parse_int64(text).value_or(fallback);
}

// The verbs that can move the model. Their names all differ in length, so one length
// switch and one compare classify a call: the ledger sees every call, and comparing the
// name against each verb in turn was a measurable share of a run.
enum class Verb { other, add, claim, extend, extends, complete, fail, sweep, del, hset };

Verb classify(const CallRecord& c) {
  if (c.argv.empty()) return Verb::other;
  const std::string_view name = c.argv[0];
  auto is = [&](std::string_view want, Verb v) {
    return equals_ignore_case(name, want) ? v : Verb::other;
  };
  switch (name.size()) {
    case 3: return is("DEL", Verb::del);
    case 4: return is("HSET", Verb::hset);
    case 7: return is("EMQ.ADD", Verb::add);
    case 8: return is("EMQ.FAIL", Verb::fail);
    case 9: return is("EMQ.CLAIM", Verb::claim);
    case 10: return is("EMQ.EXTEND", Verb::extend);
    case 11: return is("EMQ.EXTENDS", Verb::extends);
    case 12: return is("EMQ.COMPLETE", Verb::complete);
    case 17: return is("EMQ.STALLED.CHECK", Verb::sweep);
    default: return Verb::other;
  }
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
bool answered_nothing_done(const CallRecord& c, Verb verb) {
  const Reply& r = c.reply;
  if (r.kind() == Reply::Kind::integer) return r.as_integer() == 0 && verb != Verb::del;
  if (r.kind() != Reply::Kind::array) return false;
  if (verb == Verb::claim) return r.items().empty();
  if (verb == Verb::extends) {
    return std::all_of(r.items().begin(), r.items().end(),
                       [](const Reply& x) { return x.kind() == Reply::Kind::integer && x.as_integer() == 0; });
  }
  if (verb == Verb::sweep && r.items().size() == 8) {
    return r.items()[1].items().empty() && r.items()[3].items().empty();
  }
  return false;
}
}  // namespace

void Ledger::apply(const CallRecord& call) {
  if (call.reply.is_error() || call.argv.size() < 2) return;
  // Only the writers move the model; reads and plain commands are not logged.
  const Verb verb = classify(call);
  if (verb == Verb::other || answered_nothing_done(call, verb)) return;
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
  const Verb verb = classify(c);
  if (verb == Verb::del || verb == Verb::hset) {
    const auto row = parse_row_key(c.argv[1]);
    if (!row) return;
    const Key key{std::string(row->queue), std::string(row->id)};
    if (verb == Verb::del) {
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

  if (verb == Verb::add) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1 || c.argv.size() < 4) return;
    JobTruth& job = adopt(q, c.argv[2], JobState::pending);
    job.max_failures = c.argv.size() >= 6 ? int_arg(c.argv[5], 3) : 3;
  } else if (verb == Verb::claim) {
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
  } else if (verb == Verb::extend) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1 || c.argv.size() != 5) return;
    stamp(adopt(q, c.argv[2], JobState::active), int_arg(c.argv[4], 0), false);
  } else if (verb == Verb::extends) {
    if (r.kind() != Reply::Kind::array) return;
    const std::int64_t lease_ms = int_arg(c.argv[2], 0);
    for (std::size_t i = 0; i < r.items().size() && 3 + 2 * i < c.argv.size(); ++i) {
      if (r.items()[i].as_integer() != 1) continue;
      stamp(adopt(q, c.argv[3 + 2 * i], JobState::active), lease_ms, false);
    }
  } else if (verb == Verb::complete) {
    if (r.kind() != Reply::Kind::integer || r.as_integer() != 1) return;
    move(adopt(q, c.argv[2], JobState::active), JobState::done, c.index);
  } else if (verb == Verb::fail) {
    if (r.kind() != Reply::Kind::integer || (r.as_integer() != 1 && r.as_integer() != 2)) return;
    JobTruth& job = adopt(q, c.argv[2], JobState::active);
    job.failures += 1;
    move(job, r.as_integer() == 1 ? JobState::pending : JobState::dead, c.index);
  } else if (verb == Verb::sweep) {
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
