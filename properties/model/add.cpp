// EMQ.ADD q id payload [MAXFAILURES n] (§4): a new pending job at the end of the queue.
#include <array>
#include <string>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& add(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() >= 4)) return c.refused();
  c.id_arg(c.argv[2]);
  const std::int64_t max_failures = option(r, c.argv.subspan(4), "MAXFAILURES", 1, 1000000, 3);
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  const RowName row = c.row(c.argv[2]);
  Refusals state;
  expect_types(state, {c.value(n.pending)});
  expect_counter(state, c.data, n.seq);
  if (type_of(c.data, row) != KeyType::none) {  // the row key exists: 0, nothing written
    c.e.note = "the row key exists";
    r = std::move(state);
    return c.refused(Reply::integer(0));
  }
  if (state.any()) {
    r = std::move(state);
    return c.refused();
  }
  const std::string mf = std::to_string(max_failures);
  const std::array<FieldRef, 5> fields{FieldRef{"state", "pending"}, FieldRef{"payload", c.argv[3]},
                                       FieldRef{"attempts", "0"}, FieldRef{"failures", "0"},
                                       FieldRef{"max_failures", mf}};
  c.data.hset(row, fields);
  const std::int64_t s = c.data.incr(n.seq);
  c.data.zadd(n.pending, static_cast<double>(s), c.argv[2]);
  c.e.writes = true;
  return c.answer(Reply::integer(1));
}

}  // namespace trafikey::properties::model::verbs
