// EMQ.EXTENDS q lease_ms id attempts [id attempts ...] (§4): each pair's lease, when live
// (§3), moved to now + lease_ms and stamped by this process; the reply is 1 or 0 per pair.
#include <array>
#include <vector>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

namespace {

// Whether each pair's lease is live, all judged at one now on the dataset before the
// call's writes; a reason for each that is not goes into the note.
struct Pairs {
  std::vector<bool> live;
  bool any_live = false;
  bool corrupt = false;  // a corrupt attempts field decided one
};
Pairs judge(VerbCall& c, const std::vector<Token>& tokens) {
  const QueueNames& n = c.names();
  Pairs pairs;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Liveness l = liveness(c.data, c.value(n.active), n.row_prefix, c.argv[3 + 2 * i], tokens[i], c.now());
    pairs.live.push_back(l.live);
    pairs.any_live = pairs.any_live || l.live;
    pairs.corrupt = pairs.corrupt || l.corrupt;
    if (!l.live) c.e.note += l.why + "; ";
  }
  return pairs;
}

}  // namespace

Expectation& extends(VerbCall& c) {
  Refusals& r = c.refusals;
  const std::size_t argc = c.argc();
  if (!c.arity(argc >= 5 && (argc - 3) % 2 == 0 && (argc - 3) / 2 <= 1000)) return c.refused();
  const auto lease_ms = ranged(r, c.argv[2], 1, score_limit);
  std::vector<Token> tokens;
  for (std::size_t i = 3; i + 1 < argc; i += 2) {
    c.id_arg(c.argv[i]);
    tokens.push_back(lease_token(r, c.argv[i + 1]).value_or(Token{}));
  }
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.active)});
  if (r.any()) return c.refused();
  const Pairs pairs = judge(c, tokens);
  const auto deadline = deadline_of(c.now(), *lease_ms);
  Reply reply = Reply::array();
  for (bool l : pairs.live) reply.items().push_back(Reply::integer(l ? 1 : 0));
  if (!deadline || (pairs.corrupt && !pairs.any_live)) {
    if (!deadline) r.add(e_lease);
    if (pairs.corrupt) r.add(e_corrupt);
    return pairs.any_live ? c.refused() : c.refused(std::move(reply));
  }
  for (std::size_t i = 0; i < pairs.live.size(); ++i) {
    if (!pairs.live[i]) continue;
    c.data.zadd(n.active, static_cast<double>(*deadline), c.argv[3 + 2 * i]);
    const std::array<FieldRef, 1> stamp{FieldRef{"lease_epoch", c.ctx.run_id}};
    c.data.hset(c.row(c.argv[3 + 2 * i]), stamp);
    c.e.writes = true;
  }
  return c.answer(std::move(reply));
}

}  // namespace trafikey::properties::model::verbs
