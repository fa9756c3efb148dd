#include "properties/model/ledger.h"

#include <algorithm>

#include "core/args.h"
#include "properties/model/model.h"
#include "properties/model/names.h"
#include "sim/call_effects.h"
#include "sim/executor_scripts.h"

namespace trafikey::properties::model {

using sim::ExecutorScript;

// The ledger's verb for a call's effects (sim/call_effects.h); other for a call that moves
// no job.
Ledger::Verb Ledger::verb_of_effects(const sim::CallEffects& effects) {
  switch (effects.script) {
    case ExecutorScript::claim: return Ledger::Verb::script_claim;
    case ExecutorScript::extend: return Ledger::Verb::script_extend;
    case ExecutorScript::complete: return Ledger::Verb::script_complete;
    case ExecutorScript::none: break;
  }
  switch (effects.verb) {
    case EmqVerb::add: return Ledger::Verb::add;
    case EmqVerb::claim: return Ledger::Verb::claim;
    case EmqVerb::extend: return Ledger::Verb::extend;
    case EmqVerb::extends: return Ledger::Verb::extends;
    case EmqVerb::complete: return Ledger::Verb::complete;
    case EmqVerb::fail: return Ledger::Verb::fail;
    case EmqVerb::sweep: return Ledger::Verb::sweep;
    case EmqVerb::stats: case EmqVerb::job: case EmqVerb::epoch: case EmqVerb::none: break;
  }
  // the plain commands' moves: DEL and SET leave a ghost, HSET of `group` a lane row (a
  // row written or a deadline set by hand changes no job's truth: a verb's answer adopts it)
  for (const sim::Move& m : effects.moves) {
    if (m.kind == sim::JobMove::ghost) return Ledger::Verb::del;
    if (m.kind == sim::JobMove::lane) return Ledger::Verb::hset;
  }
  return Ledger::Verb::other;
}

std::size_t Ledger::probe(std::string_view queue, std::string_view id, std::uint64_t h) const {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
    const std::uint32_t cell = table_[i];
    if (cell == 0) return i;
    const Slot& slot = slots_[cell - 1];
    if (slot.hash == h && StringEqual{}(slot.key.second, id) && StringEqual{}(slot.key.first, queue)) return i;
  }
}

std::uint32_t Ledger::key_number(std::string_view queue, std::string_view id) {
  const std::uint64_t h = hash(queue, id);
  if (table_.empty()) {
    // A run names a couple of hundred jobs: room for 256 up front spares the growth steps,
    // each of which moved every slot (a job each) or rehashed every key.
    table_.assign(512, 0);
    slots_.reserve(256);
  }
  std::size_t i = probe(queue, id, h);
  if (table_[i] != 0) return table_[i] - 1;
  const auto number = static_cast<std::uint32_t>(slots_.size());
  Slot& slot = slots_.emplace_back();
  slot.key = Key{std::string(queue), std::string(id)};
  slot.hash = h;
  if (slots_.size() * 2 > table_.size()) {
    // Grow: every key goes to its cell in the doubled table, in key-number order.
    table_.assign(table_.size() * 2, 0);
    const std::size_t mask = table_.size() - 1;
    for (std::uint32_t k = 0; k < slots_.size(); ++k) {
      std::size_t j = static_cast<std::size_t>(slots_[k].hash) & mask;
      while (table_[j] != 0) j = (j + 1) & mask;
      table_[j] = k + 1;
    }
  } else {
    table_[i] = number + 1;
  }
  return number;
}

std::uint32_t Ledger::actor_number(std::string_view actor) {
  if (auto it = actor_index_.find(actor); it != actor_index_.end()) return it->second;
  const auto number = static_cast<std::uint32_t>(actors_.size());
  actors_.emplace_back(actor);
  actor_index_.emplace(actors_.back(), number);
  return number;
}

const JobTruth* Ledger::job(std::string_view queue, std::string_view id) const {
  if (table_.empty()) return nullptr;
  const std::uint32_t cell = table_[probe(queue, id, hash(queue, id))];
  if (cell == 0) return nullptr;
  const Slot& slot = slots_[cell - 1];
  return slot.held ? &slot.job : nullptr;
}

std::vector<std::uint32_t>::iterator Ledger::order_at(std::uint32_t key) {
  const Key& want = slots_[key].key;
  return std::lower_bound(order_.begin(), order_.end(), want, [&](std::uint32_t k, const Key& w) {
    return KeyLess{}(slots_[k].key, w);
  });
}

JobTruth& Ledger::adopt(std::uint32_t key, JobState state) {
  Slot& slot = slots_[key];
  if (!slot.held) {
    // An unheld slot's job is a fresh JobTruth (see forget).
    slot.held = true;
    if (slot.unheld_ghost) {
      ghosts_.erase(slot.key);
      slot.unheld_ghost = false;
    }
    order_.insert(order_at(key), key);
    JobTruth& job = slot.job;
    job.queue = slot.key.first;
    job.id = slot.key.second;
    job.state = state;
    // a job moves a few times in a run: one allocation instead of growing 1, 2, 4
    job.transitions.reserve(4);
  }
  return slot.job;
}

void Ledger::move(JobTruth& job, JobState to, std::int64_t call) {
  job.transitions.push_back({job.state, to, call});
  job.state = to;
}

void Ledger::forget(std::uint32_t key) {
  Slot& slot = slots_[key];
  order_.erase(order_at(key));
  slot.held = false;
  slot.job = JobTruth();
}

bool Ledger::Jobs::contains(const Key& key) const {
  const auto it = std::lower_bound(order_->begin(), order_->end(), key, [&](std::uint32_t k, const Key& w) {
    return KeyLess{}(slots_[k].key, w);
  });
  return it != order_->end() && slots_[*it].key == key;
}

bool Ledger::Jobs::operator==(const Jobs& other) const {
  if (size() != other.size()) return false;
  for (std::size_t i = 0; i < size(); ++i) {
    const Slot& a = slots_[(*order_)[i]];
    const Slot& b = other.slots_[(*other.order_)[i]];
    if (a.key != b.key || !(a.job == b.job)) return false;
  }
  return true;
}

// Reads what the call did (sim/call_effects.h) into `event` and its items. False for an
// answer that moves no job whatever the model holds (an idle CLAIM, a 0, a sweep with
// nothing to recover or kill): most calls of a run, kept out of the log that truncate()
// replays. Of the moves, the ledger keeps those that change a job's truth: a refusal, and
// a sweep's ghosts and lane rows, leave it as it was.
bool Ledger::decode(const CallRecord& c, EmqVerb emq, Event& e) {
  sim::decode_call(c.argv, c.reply, effects_, emq);
  e.verb = verb_of_effects(effects_);
  if (e.verb == Verb::other) return false;
  std::uint32_t recovered = 0;
  for (const sim::Move& m : effects_.moves) {
    switch (m.kind) {
      case sim::JobMove::refused:
      case sim::JobMove::sweep_ghost:
      case sim::JobMove::sweep_lane:
      case sim::JobMove::row_written:
      case sim::JobMove::deadline:
        continue;
      case sim::JobMove::add:
      case sim::JobMove::grant:
      case sim::JobMove::extend:
        e.arg = m.amount;  // max_failures; the lease
        break;
      case sim::JobMove::requeue: e.arg = 1; break;
      case sim::JobMove::dead: e.arg = 2; break;
      case sim::JobMove::sweep_recovered: ++recovered; break;
      case sim::JobMove::complete:
      case sim::JobMove::sweep_dead:
      case sim::JobMove::ghost:
      case sim::JobMove::lane:
        break;
    }
    items_.push_back({key_number(m.queue, m.id), m.token});
  }
  e.end = static_cast<std::uint32_t>(items_.size());
  if (e.end == e.begin) return false;
  if (e.verb == Verb::claim || e.verb == Verb::script_claim) e.extra = actor_number(c.actor);
  if (e.verb == Verb::sweep) e.extra = recovered;
  return true;
}

void Ledger::apply(const CallRecord& call) { apply(call, EmqVerb::none); }

void Ledger::apply(const CallRecord& call, EmqVerb emq) {
  Event event;
  event.call = call.index;
  event.at = call.at;
  event.begin = static_cast<std::uint32_t>(items_.size());
  if (!decode(call, emq, event)) return;
  events_.push_back(event);
  for (std::uint32_t i = event.begin; i < event.end; ++i) model(event, i);
}

void Ledger::truncate(std::int64_t last_call) {
  std::size_t keep = events_.size();
  while (keep > 0 && events_[keep - 1].call > last_call) --keep;
  if (keep == events_.size()) return;
  // What an event does to a job depends only on that job's own earlier events (its
  // state, stamp and existence; a ghost is the key's own DEL). So only the keys the
  // dropped events name need rebuilding: forget them and replay just their items. A
  // restart used to rebuild every job, a map insertion each.
  const std::uint32_t kept_items = keep > 0 ? events_[keep - 1].end : 0;
  dirty_.assign(slots_.size(), false);
  for (std::size_t i = kept_items; i < items_.size(); ++i) {
    const std::uint32_t key = items_[i].key;
    if (dirty_[key]) continue;
    dirty_[key] = true;
    Slot& slot = slots_[key];
    if (slot.held) forget(key);
    if (!ghosts_.empty()) ghosts_.erase(slot.key);
    slot.unheld_ghost = false;
  }
  events_.resize(keep);
  items_.resize(kept_items);
  for (const Event& event : events_) {
    for (std::uint32_t i = event.begin; i < event.end; ++i) {
      if (dirty_[items_[i].key]) model(event, i);
    }
  }
}

void Ledger::model(const Event& e, std::uint32_t i) {
  auto stamp = [&](JobTruth& job, bool by_claim) {
    job.stamp = LeaseStamp{e.at.incarnation, e.at.true_ms, e.at.server_ms, e.call, by_claim};
    job.deadline_server_ms = e.at.server_ms + e.arg;
  };
  const Item& item = items_[i];
  switch (e.verb) {
    case Verb::del: {
      Slot& slot = slots_[item.key];
      if (!slot.held) {
        // A row the ledger never held: its id is a ghost only if a plain ZADD puts it in a
        // set by hand, and only until a job of that id is held (adopt).
        if (ghosts_.insert(slot.key).second) slot.unheld_ghost = true;
        break;
      }
      forget(item.key);
      ghosts_.insert(slot.key);
      break;
    }
    case Verb::hset:
      if (Slot& slot = slots_[item.key]; slot.held) slot.job.lane = true;
      break;
    case Verb::add:
      adopt(item.key, JobState::pending).max_failures = e.arg;
      break;
    case Verb::claim:
    case Verb::script_claim: {
      // claim.lua grants a lease like CLAIM's, but the row's lease_epoch stays whatever it was
      const bool scripted = e.verb == Verb::script_claim;
      JobTruth& job = adopt(item.key, JobState::pending);
      move(job, JobState::active, e.call);
      job.token = item.token;
      job.holder = actors_[e.extra];
      job.granted = LeaseStamp{e.at.incarnation, e.at.true_ms, e.at.server_ms, e.call, true, scripted};
      job.deadline_server_ms = e.at.server_ms + e.arg;
      if (!scripted) job.stamp = job.granted;
      break;
    }
    case Verb::extend:
    case Verb::extends:
      stamp(adopt(item.key, JobState::active), false);
      break;
    case Verb::complete:
    case Verb::script_complete:
      move(adopt(item.key, JobState::active), JobState::done, e.call);
      break;
    case Verb::fail: {
      JobTruth& job = adopt(item.key, JobState::active);
      job.failures += 1;
      move(job, e.arg == 1 ? JobState::pending : JobState::dead, e.call);
      break;
    }
    case Verb::sweep: {
      // the spec charges `stalled` only when the stamp names the sweeping incarnation
      JobTruth& job = adopt(item.key, JobState::active);
      if (job.stamp && job.stamp->incarnation == e.at.incarnation) job.stalled += 1;
      move(job, i - e.begin < e.extra ? JobState::pending : JobState::dead, e.call);
      break;
    }
    case Verb::script_extend:
      adopt(item.key, JobState::active).deadline_server_ms = e.at.server_ms + e.arg;
      break;
    case Verb::other:
      break;
  }
}

}  // namespace trafikey::properties::model
