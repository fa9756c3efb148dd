// EMQ.COMPLETE q id attempts [result] (§4): a live lease (§3) ends done, with its result;
// 0 for any other.
#include <vector>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& complete(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() == 4 || c.argc() == 5)) return c.refused();
  const auto token = c.lease_args();
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.active), c.value(n.done)});
  if (r.any()) return c.refused();
  const RowName row = c.row(c.argv[2]);
  if (!c.lease_live(c.argv[2], *token)) return c.refused(Reply::integer(0));
  c.data.zrem(n.active, c.argv[2]);
  c.data.zadd(n.done, static_cast<double>(c.now()), c.argv[2]);
  std::vector<FieldRef> fields{FieldRef{"state", "done"}};
  if (c.argc() == 5) fields.push_back(FieldRef{"result", c.argv[4]});
  c.data.hset(row, fields);
  c.e.writes = true;
  return c.answer(Reply::integer(1));
}

}  // namespace trafikey::properties::model::verbs
