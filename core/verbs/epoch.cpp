// EMQ.EPOCH  (shared spec EMQ §4): the cached run_id of this process. Read-only.
#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply epoch(Host& host, Args) {
  TK_TRY(const std::string_view run_id, host.epoch().current());
  return Reply::bulk(run_id);
}

}  // namespace trafikey::verbs
