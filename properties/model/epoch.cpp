// EMQ.EPOCH (§4): the process's cached run_id.
#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

Expectation& epoch(VerbCall& c) {
  if (!c.arity(c.argc() == 1)) return c.refused();
  return c.answer(Reply::bulk(c.ctx.run_id));
}

}  // namespace trafikey::properties::model::verbs
