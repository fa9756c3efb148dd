// EMQ.JOB q id  (shared spec EMQ §4): the row as field/value pairs sorted by field name,
// so every host answers the same bytes; nil when absent. Read-only.
#include <algorithm>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply job(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  const KeyName row = QueueKeys(argv[1]).row_name(argv[2]);
  TK_TRY(KeyType type, host.type(row));
  if (type == KeyType::none) return Reply::nil();
  if (type != KeyType::hash) return errors::error(errors::wrong_type);
  TK_TRY(auto fields, host.hgetall(row));
  std::sort(fields.begin(), fields.end(),
            [](const FieldValue& a, const FieldValue& b) { return a.field < b.field; });
  Reply reply = Reply::array();
  for (const auto& fv : fields) {
    reply.items().push_back(Reply::bulk(fv.field));
    reply.items().push_back(Reply::bulk(fv.value));
  }
  return reply;
}

}  // namespace trafikey::verbs
