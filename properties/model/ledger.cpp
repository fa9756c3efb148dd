#include "properties/model/ledger.h"

#include <algorithm>

#include "core/args.h"
#include "properties/model/model.h"
#include "properties/model/names.h"
#include "sim/executor_scripts.h"

namespace trafikey::properties::model {

using sim::ExecutorScript;
using sim::executor_script_of_sha;
using sim::executor_script_of_body;

namespace {

std::int64_t int_arg(std::string_view text, std::int64_t fallback) {
  return parse_int64(text).value_or(fallback);
}

}  // namespace

// Through the model's table of the spec's verbs (verb_name), whatever the case; not the
// core's command table, which a wrong core would move the ledger with. Of the plain
// commands only DEL, SET and HSET move the model.
Ledger::Verb Ledger::classify(std::string_view name) {
  if (const Verb verb = of(verb_of(name)); verb != Verb::other) return verb;
  if (equals_ignore_case(name, "EVAL") || equals_ignore_case(name, "EVALSHA")) return Verb::script;
  if (equals_ignore_case(name, "DEL")) return Verb::del;
  if (equals_ignore_case(name, "SET")) return Verb::set;
  if (equals_ignore_case(name, "HSET")) return Verb::hset;
  return Verb::other;
}

Ledger::Verb Ledger::of(EmqVerb verb) {
  switch (verb) {
    case EmqVerb::add: return Verb::add;
    case EmqVerb::claim: return Verb::claim;
    case EmqVerb::extend: return Verb::extend;
    case EmqVerb::extends: return Verb::extends;
    case EmqVerb::complete: return Verb::complete;
    case EmqVerb::fail: return Verb::fail;
    case EmqVerb::sweep: return Verb::sweep;
    case EmqVerb::stats: case EmqVerb::job: case EmqVerb::epoch: return Verb::other;  // readers
    case EmqVerb::none: break;
  }
  return Verb::other;
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

// Reads what the call did into `event` and its items. False for an answer that moves no
// job whatever the model holds (an idle CLAIM, a 0, a sweep with nothing to recover or
// kill): most calls of a run, kept out of the log that truncate() replays. Conditions
// here are the model's: model() trusts the event.
bool Ledger::decode(const CallRecord& c, Verb verb, Event& e) {
  const Reply& r = c.reply;
  const std::string_view q = c.argv[1];
  const auto integer = [&](std::int64_t want) {
    return r.kind() == Reply::Kind::integer && r.as_integer() == want;
  };
  auto add = [&](std::string_view queue, std::string_view id, std::int64_t token = 0) {
    items_.push_back({key_number(queue, id), token});
  };
  switch (verb) {
    case Verb::del:
      // DEL takes any number of keys: each row among them is a ghost
      for (std::size_t i = 1; i < c.argv.size(); ++i) {
        if (const auto row = parse_row_key(c.argv[i])) add(row->queue, row->id);
      }
      break;
    case Verb::set:
      // SET key value: a row key left holding a string is a ghost's, as after a DEL
      if (const auto row = parse_row_key(c.argv[1])) add(row->queue, row->id);
      break;
    case Verb::hset: {
      // an HSET answering 0 wrote no new field: the ledger has always let it be
      if (integer(0)) break;
      const auto row = parse_row_key(c.argv[1]);
      if (!row) break;
      bool group = false;
      for (std::size_t i = 2; !group && i < c.argv.size(); i += 2) group = c.argv[i] == "group";
      if (group) add(row->queue, row->id);
      break;
    }
    case Verb::add:
      if (!integer(1) || c.argv.size() < 4) break;
      e.arg = c.argv.size() >= 6 ? int_arg(c.argv[5], 3) : 3;
      add(q, c.argv[2]);
      break;
    case Verb::claim:
      if (r.kind() != Reply::Kind::array || r.items().empty()) break;
      e.arg = c.argv.size() > 2 ? int_arg(c.argv[2], 0) : 0;
      for (const Reply& claimed : r.items()) {
        if (claimed.items_if_array().size() != 3) continue;
        add(q, claimed.items()[0].text(), claimed.items()[1].as_integer());
      }
      if (items_.size() > e.begin) e.extra = actor_number(c.actor);
      break;
    case Verb::extend:
      if (!integer(1) || c.argv.size() != 5) break;
      e.arg = int_arg(c.argv[4], 0);
      add(q, c.argv[2]);
      break;
    case Verb::extends:
      if (r.kind() != Reply::Kind::array) break;
      for (std::size_t i = 0; i < r.items().size() && 3 + 2 * i < c.argv.size(); ++i) {
        if (r.items()[i].as_integer() == 1) add(q, c.argv[3 + 2 * i]);
      }
      if (items_.size() > e.begin) e.arg = int_arg(c.argv[2], 0);
      break;
    case Verb::complete:
      if (integer(1) && c.argv.size() > 2) add(q, c.argv[2]);
      break;
    case Verb::fail:
      if (!(integer(1) || integer(2)) || c.argv.size() <= 2) break;
      e.arg = r.as_integer();
      add(q, c.argv[2]);
      break;
    case Verb::sweep:
      if (r.kind() != Reply::Kind::array || r.items().size() != 8) break;
      for (const Reply& id : r.items()[1].items_if_array()) add(q, id.text());
      e.extra = static_cast<std::uint32_t>(items_.size()) - e.begin;
      for (const Reply& id : r.items()[3].items_if_array()) add(q, id.text());
      break;
    case Verb::script: {
      // EVAL body|sha numkeys keys... args...: the executor's scripts, with their keys and
      // arguments as bench/scripts/*.lua take them; any other script moves no job here
      if (c.argv.size() < 3) break;
      const ExecutorScript which = equals_ignore_case(c.argv[0], "EVALSHA") ? executor_script_of_sha(c.argv[1])
                                                                           : executor_script_of_body(c.argv[1]);
      const Args rest = c.argv.subspan(3);
      const auto numkeys = static_cast<std::size_t>(int_arg(c.argv[2], -1));
      if (which == ExecutorScript::claim && numkeys == 2 && rest.size() == 4) {
        if (r.kind() != Reply::Kind::array || r.items().empty()) break;
        const std::string_view queue = pending_key_queue(rest[0]);
        if (queue.empty()) break;
        e.verb = Verb::script_claim;
        e.arg = int_arg(rest[2], 0);
        for (const Reply& claimed : r.items()) {
          if (claimed.items_if_array().size() != 3) continue;
          add(queue, claimed.items()[0].text(), claimed.items()[1].as_integer());
        }
        if (items_.size() > e.begin) e.extra = actor_number(c.actor);
      } else if (which == ExecutorScript::extend && numkeys == 2 && rest.size() == 5 && integer(1)) {
        const auto row = parse_row_key(rest[1]);
        if (!row) break;
        e.verb = Verb::script_extend;
        e.arg = int_arg(rest[4], 0);
        add(row->queue, rest[2]);
      } else if (which == ExecutorScript::complete && numkeys == 3 && rest.size() >= 5 && integer(1)) {
        const auto row = parse_row_key(rest[2]);
        if (!row) break;
        e.verb = Verb::script_complete;
        add(row->queue, rest[3]);
      }
      break;
    }
    case Verb::script_claim:
    case Verb::script_extend:
    case Verb::script_complete:
    case Verb::other:
      break;
  }
  e.end = static_cast<std::uint32_t>(items_.size());
  return e.end > e.begin;
}

void Ledger::apply(const CallRecord& call) { apply(call, EmqVerb::none); }

void Ledger::apply(const CallRecord& call, EmqVerb emq) {
  if (call.reply.is_error() || call.argv.size() < 2) return;
  // Only the writers move the model; reads and plain commands are not logged.
  const Verb verb = emq != EmqVerb::none ? of(emq) : classify(call.argv[0]);
  if (verb == Verb::other) return;
  Event event;
  event.call = call.index;
  event.at = call.at;
  event.verb = verb;
  event.begin = static_cast<std::uint32_t>(items_.size());
  if (!decode(call, verb, event)) return;
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
    case Verb::del:
    case Verb::set: {
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
    case Verb::script:
    case Verb::other:
      break;
  }
}

}  // namespace trafikey::properties::model
