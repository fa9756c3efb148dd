// queue.conserve, queue.budget and epoch.stamp over the jobs of a queue (rules.h).
#include <algorithm>

#include "core/args.h"
#include "core/assert.h"
#include "core/bytes.h"
#include "properties/judge/rules.h"
#include "properties/model/names.h"

namespace trafikey::properties::judge {

namespace {

template <class Pairs>
void find_fields(const Pairs& row, RowFacts& f) {
  // By length first, then the bytes as words: the checker reads a row for every job a call
  // touches.
  const StringEqual eq;
  for (const auto& [name, value] : row) {
    switch (name.size()) {
      case 5: if (eq(name, "state")) f.state = &value; break;
      case 7: if (eq(name, "stalled")) f.stalled = &value; break;
      case 8: if (eq(name, "failures")) f.failures = &value; break;
      case 12: if (eq(name, "max_failures")) f.max_failures = &value; break;
      case 11:
        if (eq(name, "dead_reason")) {
          f.dead_reason = &value;
        } else if (eq(name, "lease_epoch")) {
          f.lease_epoch = &value;
        }
        break;
      default: break;
    }
  }
}

std::string sets_text(std::span<const JobState> in) {
  std::string list;
  for (JobState s : in) list += (list.empty() ? "" : " and ") + std::string(model::state_name(s));
  return list;
}

}  // namespace

RowFacts::RowFacts(const sim::Keyspace::Hash* row) {
  if (row) find_fields(*row, *this);
}

RowFacts::RowFacts(const Row* row) {
  if (row) find_fields(*row, *this);
}

JobBefore JobBefore::of(const model::JobTruth& job) {
  JobBefore s;
  s.state = job.state;
  s.token = job.token;
  s.holder = job.holder;
  s.granted = job.granted;
  s.stamp = job.stamp;
  s.deadline_server_ms = job.deadline_server_ms;
  s.failures = job.failures;
  s.max_failures = job.max_failures;
  s.lane = job.lane;
  return s;
}

std::int64_t count_of(std::string_view text) {
  if (text == "-" || text.empty()) return 0;
  return parse_int64(text).value_or(-1);
}

const std::string* conserve_member(std::string_view id, std::span<const JobState> in, const RowFacts& row,
                                   Findings& out) {
  if (in.size() != 1) {
    out.fail("queue.conserve", std::string(id) + " is in " + sets_text(in) + " at once");
    return nullptr;
  }
  const std::string_view set = model::state_name(in[0]);
  if (!row.state) {
    out.fail("queue.conserve", std::string(id) + " is in " + std::string(set) + " but has no row: a half-written job");
    return nullptr;
  }
  if (*row.state != set) {
    out.fail("queue.conserve", std::string(id) + " is in " + std::string(set) + " but its row says state " + *row.state);
  }
  return row.state;
}

void budget_member(std::string_view id, JobState set, const RowFacts& row, Findings& out) {
  const std::int64_t failures = count_of(or_absent(row.failures));
  const std::int64_t max_failures = count_of(or_absent(row.max_failures, "3"));
  // A budget that is no positive number (a corrupt row) bounds nothing.
  if (failures > max_failures && max_failures > 0) {
    out.fail("queue.budget", std::string(id) + " has failures " + std::to_string(failures) + " over max_failures " +
                                 std::to_string(max_failures));
  }
  if (set != JobState::dead) return;
  const std::int64_t stalled = count_of(or_absent(row.stalled));
  const std::string_view reason = or_absent(row.dead_reason);
  const bool spent = (reason == "failed" && failures >= max_failures) || (reason == "stalled" && stalled >= 1);
  if (!spent) {
    out.fail("queue.budget", std::string(id) + " is dead (dead_reason " + std::string(reason) + ", failures " +
                                 std::to_string(failures) + "/" + std::to_string(max_failures) + ", stalled " +
                                 std::to_string(stalled) + ") without a spent budget");
  }
}

void ledger_job(const model::JobTruth& job, std::span<const JobState> in, const RowFacts& row,
                const std::vector<std::string>& run_ids, Findings& out) {
  if (in.empty()) {
    out.fail("queue.conserve", job.id + " is " + std::string(model::state_name(job.state)) +
                                   " in the model but in no set on the server");
    return;
  }
  if (in.size() == 1 && in[0] != job.state) {
    out.fail("queue.conserve", job.id + " is " + std::string(model::state_name(in[0])) + " on the server but " +
                                   std::string(model::state_name(job.state)) + " in the model");
  }
  const std::int64_t stalled = count_of(or_absent(row.stalled));
  const std::int64_t failures = count_of(or_absent(row.failures));
  if (job.granted && (stalled != job.stalled || failures != job.failures)) {
    out.fail("queue.budget", job.id + " carries stalled " + std::to_string(stalled) + ", failures " +
                                 std::to_string(failures) + "; its history charges stalled " +
                                 std::to_string(job.stalled) + ", failures " + std::to_string(job.failures));
  }
  if (job.state == JobState::active && job.stamp) {
    const std::string_view epoch = or_absent(row.lease_epoch);
    const std::string& expected = run_ids.at(static_cast<std::size_t>(job.stamp->incarnation));
    if (epoch != expected) {
      out.fail("epoch.stamp", "active " + job.id + " carries lease_epoch " + std::string(epoch) + ", but its last " +
                                  (job.stamp->by_claim ? "CLAIM" : "extension") + " ran under incarnation " +
                                  std::to_string(job.stamp->incarnation) + " (run_id " + expected + ") at t=" +
                                  std::to_string(job.stamp->true_ms));
    }
  }
}

void unlisted_row(std::string_view id, std::string_view state, Findings& out) {
  out.fail("queue.conserve", "the row of " + std::string(id) + " says state " + std::string(state) +
                                 " but the id is in no set: a half-written job");
}

void judge_queue(const QueueSnapshot& snapshot, const QueueKnowledge& known, Findings& out) {
  if (!known.ledger) {
    out.skipped("queue.budget", "the stalled and failures counts each job's history charges (no ledger)");
    out.skipped("epoch.stamp", "which process ran each active lease's last CLAIM or extension (no ledger)");
  }
  if (!known.ledger && !known.run_ids) {
    out.skipped("epoch.stamp", "whether an active row names a process of this run (run_ids unknown)");
  }
  for (const auto& [id, in] : snapshot.members) {
    if (snapshot.ghosts.contains(id)) continue;
    const auto row = snapshot.rows.find(id);
    const RowFacts facts(row == snapshot.rows.end() ? nullptr : &row->second);
    if (!conserve_member(id, in, facts, out)) continue;
    budget_member(id, in[0], facts, out);
    if (known.ledger || !known.run_ids || in[0] != JobState::active) continue;
    // an unstamped lease (claimed by a script, which writes no lease_epoch) names no
    // process at all; without a ledger it cannot be told from a stamp lost, so it passes
    if (!facts.lease_epoch) continue;
    const std::string_view epoch = or_absent(facts.lease_epoch);
    const auto& ids = *known.run_ids;
    if (ids.empty() || std::find(ids.begin() + 1, ids.end(), epoch) == ids.end()) {
      out.fail("epoch.stamp", "active " + id + " carries lease_epoch " + std::string(epoch) +
                                  ", the run_id of no process this run started");
    }
  }
  if (known.ledger) {
    TRAFIKEY_ASSERT(known.run_ids, "a ledger's stamps name incarnations, which only the run_ids spell");
    for (const auto& [key, job] : known.ledger->jobs()) {
      if (key.first != snapshot.queue || snapshot.ghosts.contains(job.id)) continue;
      const auto m = snapshot.members.find(job.id);
      const auto row = snapshot.rows.find(job.id);
      ledger_job(job, m == snapshot.members.end() ? std::span<const JobState>{} : std::span<const JobState>(m->second),
                 RowFacts(row == snapshot.rows.end() ? nullptr : &row->second), *known.run_ids, out);
    }
    return;
  }
  for (const auto& [id, row] : snapshot.rows) {
    if (snapshot.members.contains(id) || snapshot.ghosts.contains(id)) continue;
    if (const auto state = row.find("state"); state != row.end()) unlisted_row(id, state->second, out);
  }
}

}  // namespace trafikey::properties::judge
