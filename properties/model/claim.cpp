// EMQ.CLAIM q lease_ms [COUNT n] [WIRE w] (§4, §8): up to n pending jobs, lowest first,
// each leased until now + lease_ms with its attempts raised by one as its token and the
// process's next grant id written as `lease`; WIRE 2 adds each grant's wire 2 token.
#include <array>
#include <string>
#include <vector>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

namespace {

// A pending member the call takes: a job to lease, or a ghost to remove.
struct Pick {
  std::string id;
  bool ghost = false;
  std::int64_t token = 0;
  std::string payload;
};

// §4: pending walked lowest first (ties by id bytes) until `count` claims; a member whose
// row is not a hash is a ghost (removed, not claimed, not counted), at most 1000 a call
// (§7). A corrupt attempts field stops the walk and sets `corrupt`.
std::vector<Pick> pick(VerbCall& c, std::int64_t count, bool& corrupt) {
  std::vector<Pick> picks;
  const sim::Keyspace::Zset* z = zset_in(c.value(c.names().pending));
  if (!z) return picks;
  std::int64_t claims = 0, ghosts = 0;
  for (const auto& [score, id] : z->order) {
    if (claims == count || ghosts == 1000) break;
    Pick p;
    p.id = id;
    const RowName row = c.row(id);
    const sim::Keyspace::Hash* h = hash(c.data, row);
    if (!h) {
      p.ghost = true;
      ++ghosts;
      // named up to ten (a CLAIM may remove a thousand: the note is for a reader)
      if (ghosts <= 10) c.e.note += id + " was a ghost (removed, not counted); ";
      if (ghosts == 11) c.e.note += "and more ghosts; ";
    } else {
      const auto att = counter(h, "attempts", 0, corrupt);
      if (!att) break;
      p.token = *att + 1;
      const std::string* payload = field(h, "payload");
      p.payload = payload ? *payload : "";
      ++claims;
    }
    picks.push_back(std::move(p));
  }
  return picks;
}

// The picks' writes, in pending's order: each leaves pending; a job's row turns active with
// its token, this process's stamp and its grant id (§8: the process's next numbers, after
// ctx.last_grant), and it joins active at `deadline`. The reply lists the jobs as [id token
// payload], and [id token payload wire2-token] under WIRE 2.
Reply lease(VerbCall& c, const std::vector<Pick>& picks, std::int64_t deadline, bool wire2) {
  const QueueNames& n = c.names();
  Reply reply = Reply::array();
  std::int64_t grant_number = c.ctx.last_grant;
  for (const Pick& p : picks) {
    c.data.zrem(n.pending, p.id);
    c.e.writes = true;
    if (p.ghost) continue;
    const RowName row = c.row(p.id);
    const std::string token = std::to_string(p.token);
    const std::string grant = std::string(c.ctx.run_id) + "-" + std::to_string(++grant_number);
    const std::array<FieldRef, 4> fields{FieldRef{"state", "active"}, FieldRef{"attempts", token},
                                         FieldRef{"lease_epoch", c.ctx.run_id}, FieldRef{"lease", grant}};
    c.data.hset(row, fields);
    c.data.zadd(n.active, static_cast<double>(deadline), p.id);
    reply.items().push_back(Reply::array({Reply::bulk(p.id), Reply::integer(p.token), Reply::bulk(p.payload)}));
    if (wire2) reply.items().back().items().push_back(Reply::bulk(token + "-" + grant));
  }
  return reply;
}

}  // namespace

Expectation& claim(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() >= 3 && c.argc() <= 7)) return c.refused();
  const auto lease_ms = ranged(r, c.argv[2], 1, score_limit);
  const auto options = two_options(r, c.argv.subspan(3), {"COUNT", 1, 1000, 1}, {"WIRE", 1, 2, 1});
  const std::int64_t count = options[0];
  c.fence();
  if (r.any()) return c.refused();
  expect_types(r, {c.value(c.names().pending), c.value(c.names().active)});
  if (r.any()) return c.refused();
  bool corrupt = false;
  const std::vector<Pick> picks = pick(c, count, corrupt);
  if (corrupt) {
    r.add(e_corrupt);
    return c.refused();
  }
  const auto deadline = deadline_of(c.now(), *lease_ms);
  if (!deadline) {
    r.add(e_lease);
    // with nothing to claim there is no deadline to refuse: [] writes nothing either
    return picks.empty() ? c.refused(Reply::array()) : c.refused();
  }
  return c.answer(lease(c, picks, *deadline, options[1] == 2));
}

}  // namespace trafikey::properties::model::verbs
