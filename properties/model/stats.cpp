// EMQ.STATS q (§4, read-only): the sizes of the queue's four sets.
#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& stats(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() == 2)) return c.refused();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.pending), c.value(n.active), c.value(n.done), c.value(n.dead)});
  if (r.any()) return c.refused();
  auto card = [&](std::string_view key) {
    const sim::Keyspace::Zset* z = zset_in(c.value(key));
    return Reply::integer(z ? static_cast<std::int64_t>(z->order.size()) : 0);
  };
  return c.answer(Reply::array({Reply::bulk("pending"), card(n.pending), Reply::bulk("active"), card(n.active),
                                Reply::bulk("done"), card(n.done), Reply::bulk("dead"), card(n.dead)}));
}

}  // namespace trafikey::properties::model::verbs
