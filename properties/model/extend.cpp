// EMQ.EXTEND q id attempts lease_ms (§4): a live lease (§3) moved to now + lease_ms and
// stamped by this process; 0 for any other.
#include <array>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& extend(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() == 5)) return c.refused();
  const auto token = c.lease_args();
  const auto lease_ms = ranged(r, c.argv[4], 1, score_limit);
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.active)});
  if (r.any()) return c.refused();
  const RowName row = c.row(c.argv[2]);
  const bool live = c.lease_live(c.argv[2], *token);
  const auto deadline = deadline_of(c.now(), *lease_ms);
  if (!live) {
    if (!deadline) r.add(e_lease);
    return c.refused(Reply::integer(0));
  }
  if (!deadline) {
    r.add(e_lease);
    return c.refused();
  }
  c.data.zadd(n.active, static_cast<double>(*deadline), c.argv[2]);
  const std::array<FieldRef, 1> stamp{FieldRef{"lease_epoch", c.ctx.run_id}};
  c.data.hset(row, stamp);
  c.e.writes = true;
  return c.answer(Reply::integer(1));
}

}  // namespace trafikey::properties::model::verbs
