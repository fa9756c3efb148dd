// EMQ.STALLED.CHECK q max_stalled [LIMIT n] (§5): the expired leases, lowest deadline
// first, each judged by its row and moved as its verdict says; the reply lists the ids
// recovered, dead, ghosts and lanes.
#include <array>
#include <string>
#include <vector>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

namespace {

enum class Verdict { ghost, lane, exempt, recovered, dead };
// as the note names them, in Verdict's order
constexpr std::array<std::string_view, 5> verdict_names{"ghost", "lane", "exempt", "counted", "counted-dead"};

struct Judged {
  std::string id;
  Verdict verdict;
  std::string stalled;  // the raised stalled count, for a counted lease
};

// §5's verdict of a row: 1. not a hash: a ghost; 2. a `group` field: a lane, untouched;
// 3. no stamp, or another process's: exempt (crossed a restart, not counted); 4. counted,
// dead once stalled reaches max_stalled. False when a corrupt stalled field stops the walk.
bool judge(VerbCall& c, std::int64_t max_stalled, Judged& j, bool& corrupt) {
  const sim::Keyspace::Hash* h = hash(c.data, c.row(j.id));
  if (!h) {
    j.verdict = Verdict::ghost;
  } else if (field(h, "group")) {
    j.verdict = Verdict::lane;
  } else {
    const std::string* stamp = field(h, "lease_epoch");
    if (!stamp || *stamp != c.ctx.run_id) {
      j.verdict = Verdict::exempt;
    } else {
      const auto s = counter(h, "stalled", 0, corrupt);
      if (!s) return false;
      j.stalled = std::to_string(*s + 1);
      j.verdict = *s + 1 >= max_stalled ? Verdict::dead : Verdict::recovered;
    }
  }
  return true;
}

// The expired members of active (deadline < now), lowest deadline first, at most `limit`.
std::vector<Judged> judge_expired(VerbCall& c, std::int64_t max_stalled, std::int64_t limit, bool& corrupt) {
  std::vector<Judged> judged;
  const sim::Keyspace::Zset* z = zset_in(c.value(c.names().active));
  if (!z) return judged;
  for (const auto& [score, id] : z->order) {
    if (static_cast<std::int64_t>(judged.size()) == limit) break;
    if (!(score < static_cast<double>(c.now()))) {
      c.e.note += id + " not expired (deadline st=" + sim::format_score(score) + " >= now); ";
      break;
    }
    Judged j{id, Verdict::ghost, {}};
    if (!judge(c, max_stalled, j, corrupt)) break;
    judged.push_back(std::move(j));
  }
  return judged;
}

// The lists of the reply, in its order.
struct Lists {
  std::vector<std::string> recovered, dead, ghosts, lanes;
};

// One verdict's writes: a ghost leaves active; a lane stays; an exempt or recovered lease
// goes back to pending at score 0 (a recovered one with its stalled count); a dead one goes
// to dead at now with dead_reason "stalled".
void apply(VerbCall& c, const Judged& j, Lists& lists) {
  const QueueNames& n = c.names();
  const RowName row = c.row(j.id);
  switch (j.verdict) {
    case Verdict::ghost:
      c.data.zrem(n.active, j.id);
      lists.ghosts.push_back(j.id);
      break;
    case Verdict::lane:
      lists.lanes.push_back(j.id);
      break;
    case Verdict::exempt: {
      c.data.zrem(n.active, j.id);
      c.data.zadd(n.pending, 0, j.id);
      const std::array<FieldRef, 1> fields{FieldRef{"state", "pending"}};
      c.data.hset(row, fields);
      lists.recovered.push_back(j.id);
      break;
    }
    case Verdict::recovered: {
      c.data.zrem(n.active, j.id);
      c.data.zadd(n.pending, 0, j.id);
      const std::array<FieldRef, 2> fields{FieldRef{"state", "pending"}, FieldRef{"stalled", j.stalled}};
      c.data.hset(row, fields);
      lists.recovered.push_back(j.id);
      break;
    }
    case Verdict::dead: {
      c.data.zrem(n.active, j.id);
      c.data.zadd(n.dead, static_cast<double>(c.now()), j.id);
      const std::array<FieldRef, 3> fields{FieldRef{"state", "dead"}, FieldRef{"stalled", j.stalled},
                                           FieldRef{"dead_reason", "stalled"}};
      c.data.hset(row, fields);
      lists.dead.push_back(j.id);
      break;
    }
  }
  if (j.verdict != Verdict::lane) c.e.writes = true;
}

Reply bulks(const std::vector<std::string>& ids) {
  Reply r = Reply::array();
  for (const auto& id : ids) r.items().push_back(Reply::bulk(id));
  return r;
}

}  // namespace

Expectation& stalled_check(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() >= 3)) return c.refused();
  const auto max_stalled = ranged(r, c.argv[2], 1, 1000000);
  const std::int64_t limit = option(r, c.argv.subspan(3), "LIMIT", 1, 10000, 1000);
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.active), c.value(n.pending), c.value(n.dead)});
  if (r.any()) return c.refused();
  bool corrupt = false;
  const std::vector<Judged> judged = judge_expired(c, *max_stalled, limit, corrupt);
  if (corrupt) {
    r.add(e_corrupt);
    return c.refused();
  }
  Lists lists;
  for (const Judged& j : judged) {
    c.e.note += j.id + " " + std::string(verdict_names[static_cast<std::size_t>(j.verdict)]) +
                (j.stalled.empty() ? "" : " (stalled " + j.stalled + ")") + "; ";
    apply(c, j, lists);
  }
  return c.answer(Reply::array({Reply::bulk("recovered"), bulks(lists.recovered), Reply::bulk("dead"),
                                bulks(lists.dead), Reply::bulk("ghosts"), bulks(lists.ghosts),
                                Reply::bulk("lanes"), bulks(lists.lanes)}));
}

}  // namespace trafikey::properties::model::verbs
