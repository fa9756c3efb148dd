// The jobs of a queue, whole or the touched ones: queue.conserve, queue.budget and
// epoch.stamp by the judge (properties/judge/rules.h), queue.transitions followed here.
#include "properties/checker.h"

#include <algorithm>

#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

// ---- the whole keyspace, and the jobs one call touched

void Checker::check_state(const World& world) {
  judge(id_of("queue.conserve"));
  judge(id_of("epoch.stamp"));
  judge(id_of("queue.budget"));
  for (auto& [q, queue] : queues_) check_queue(world, q, queue, nullptr);
}

void Checker::check_queue(const World& world, std::string_view q, QueueState& queue,
                          const std::vector<std::string_view>* ids, const std::vector<const JobTruth*>* jobs) {
  const Keyspace& data = world.data();
  const model::QueueNames& keys = queue.keys;
  const auto& values = queue.sets.of(data, {keys.pending, keys.active, keys.done, keys.dead});
  // null: absent or of another type
  const std::array<const Keyspace::Zset*, 4> sets{Keyspace::as_zset(values[0]), Keyspace::as_zset(values[1]),
                                                  Keyspace::as_zset(values[2]), Keyspace::as_zset(values[3])};
  const auto& ghosts = model_.ledger().ghosts();
  auto ghost = [&](std::string_view id) {
    return !ghosts.empty() && ghosts.contains(std::pair<std::string_view, std::string_view>(q, id));
  };
  Shadow& shadow = queue.shadow;
  WorldFindings findings(*this, world);
  if (!ids) {
    // every member of the four sets, then every job of the ledger: (id, set) pairs sorted
    // by id (views into the sets, which do not change while they are judged)
    // (a member of two sets comes once per set, in the sets' order: sorted by id, then set)
    auto& members = members_;
    members.clear();
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (!sets[i]) continue;
      for (const auto& [score, id] : sets[i]->order) members.emplace_back(id, set_states[i]);
    }
    // set_states lists the states in JobState's own order, so the enum orders the sets
    static_assert(set_states == all_job_states);
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
      const int c = a.first.compare(b.first);
      return c != 0 ? c < 0 : a.second < b.second;
    });
    std::vector<JobState> in;
    for (std::size_t i = 0; i < members.size();) {
      const std::string_view id = members[i].first;
      in.clear();
      for (; i < members.size() && members[i].first == id; ++i) in.push_back(members[i].second);
      // an operator deleted this row: a ghost until CLAIM or the sweep removes the id
      if (ghost(id)) continue;
      check_member(world, judge::RowFacts(row_of(data, keys, id)), shadow, id, Shadow::Map::hash_of(id), in);
    }
    // The ledger lists its jobs by (queue, id), bytes compared as here: one walk along
    // `members` finds each job's sets.
    auto it = members.begin();
    for (const auto& [key, job] : model_.ledger().jobs()) {
      if (key.first != q || ghost(job.id)) continue;
      in.clear();
      const std::string_view id = job.id;
      while (it != members.end() && it->first < id) ++it;
      for (; it != members.end() && it->first == id; ++it) in.push_back(it->second);
      judge::ledger_job(job, in, judge::RowFacts(row_of(data, keys, id)), world.run_ids(), findings);
    }
    return;
  }
  // The same judgements, in the same order, of the touched ids only: each id's sets, row
  // and ledger job looked up once for both.
  auto& probes = probes_;
  probes.clear();
  for (std::size_t k = 0; k < ids->size(); ++k) {
    const std::string_view id = (*ids)[k];
    if (ghost(id)) continue;
    Probe& p = probes.emplace_back();
    p.id = id;
    p.hash = Shadow::Map::hash_of(id);  // once for the four sets and the shadow
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (sets[i] && sets[i]->scores.find(id, p.hash)) p.in[p.sets++] = set_states[i];
    }
    p.row = judge::RowFacts(row_of(data, keys, id));
    p.job = jobs ? (*jobs)[k] : model_.ledger().job(q, id);
  }
  for (const Probe& p : probes) {
    if (p.sets > 0) check_member(world, p.row, shadow, p.id, p.hash, {p.in.data(), p.sets});
  }
  for (const Probe& p : probes) {
    if (p.job) judge::ledger_job(*p.job, {p.in.data(), p.sets}, p.row, world.run_ids(), findings);
  }
}

void Checker::follow(const World& world, Shadow& shadow, std::string_view id, std::uint32_t hash,
                     std::string_view state) {
  std::string* seen = shadow.find(id, hash);
  if (!seen) {
    shadow.set(id, hash, state);
    return;
  }
  if (*seen == state) return;
  auto from = model::parse_state(*seen);
  auto to = model::parse_state(state);
  judge(id_of("queue.transitions"));
  if (!from || !to || !graph_.observe(*from, *to)) {
    fail("queue.transitions", world,
         std::string(id) + " moved " + *seen + "->" + std::string(state) + ", which is not an edge of the state graph");
  }
  seen->assign(state);
}

// A member of the queue's sets (not a ghost): queue.conserve, its move an edge
// (queue.transitions, followed here), queue.budget.
void Checker::check_member(const World& world, const judge::RowFacts& row, Shadow& shadow,
                           std::string_view id, std::uint32_t hash, std::span<const JobState> in) {
  WorldFindings findings(*this, world);
  const std::string* state = judge::conserve_member(id, in, row, findings);
  if (!state) return;
  follow(world, shadow, id, hash, *state);
  judge::budget_member(id, in[0], row, findings);
}

}  // namespace trafikey::properties
