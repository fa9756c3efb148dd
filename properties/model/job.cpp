// EMQ.JOB q id (§4, read-only): the job's row, fields sorted by name, or nil.
#include <algorithm>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& job(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() == 3)) return c.refused();
  c.id_arg(c.argv[2]);
  if (r.any()) return c.refused();
  const RowName row = c.row(c.argv[2]);
  const KeyType t = type_of(c.data, row);
  if (t == KeyType::none) return c.answer(Reply::nil());
  if (t != KeyType::hash) {
    r.add(e_wrongtype);
    return c.refused();
  }
  auto fields = *hash(c.data, row);
  std::sort(fields.begin(), fields.end());
  Reply reply = Reply::array();
  for (const auto& [f, v] : fields) {
    reply.items().push_back(Reply::bulk(f));
    reply.items().push_back(Reply::bulk(v));
  }
  return c.answer(std::move(reply));
}

}  // namespace trafikey::properties::model::verbs
