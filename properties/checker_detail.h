// What the checker's files (properties/checker*.cpp) share: reading a row of the simulated
// keyspace, and telling which job or queue a write touched. Private to them.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "properties/model/names.h"
#include "sim/keyspace.h"
#include "sim/undo.h"
#include "sim/world.h"
#include "properties/model/ledger.h"

namespace trafikey::properties::checker_detail {

// The names every checker file reads by their short spelling.
using model::EmqVerb;
using model::JobTruth;
using sim::CallRecord;
using sim::Keyspace;
using sim::World;

inline const std::string* field(const Keyspace& data, std::string_view row, std::string_view name) {
  bool wrong = false;
  const Keyspace::Hash* h = data.hash_at(row, wrong);
  return h ? Keyspace::hash_field(*h, name) : nullptr;
}

inline const Keyspace::Hash* row_of(const Keyspace& data, const model::QueueNames& keys, std::string_view id) {
  bool wrong = false;
  return data.hash_at(model::RowName(keys, id).view(), wrong);
}

inline constexpr std::array<JobState, 4> set_states{JobState::pending, JobState::active, JobState::done,
                                                    JobState::dead};

// Appends `x` unless it is the last element already: a call writes one job's keys, and one
// key's fields, one after another, so most repeats are caught before any sort.
// (Pairs of strings and of views compare member by member.)
template <class A, class B>
bool same(const A& a, const B& b) {
  return a == b;
}
template <class A1, class A2, class B1, class B2>
bool same(const std::pair<A1, A2>& a, const std::pair<B1, B2>& b) {
  return a.first == b.first && a.second == b.second;
}
template <class Vector, class T>
void push_unless_last(Vector& v, const T& x) {
  if (v.empty() || !same(v.back(), x)) v.emplace_back(x);
}

// What one journal entry (sim/undo.h) touched: a job, by its row or its member of a set
// (job(queue, id)), or a set written whole (DEL, SET, or as a hash: queue(queue)).
template <class Job, class Queue>
void classify_write(sim::UndoLog::Wrote wrote, std::string_view key, std::string_view name, Job&& job,
                    Queue&& queue) {
  if (auto row = model::parse_row_key(key)) {
    job(row->queue, row->id);
  } else if (auto q = model::set_key_queue(key)) {
    if (wrote == sim::UndoLog::Wrote::member) {
      job(*q, name);
    } else {
      queue(*q);
    }
  }
}

}  // namespace trafikey::properties::checker_detail
