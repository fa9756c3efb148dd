// EMQ.COMPLETE q id attempts [result]  (shared spec EMQ §4)
// 1 done (the row keeps its last lease_epoch); 0 when the lease is not live.
#include <vector>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply complete(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  TK_TRY(const std::int64_t token, attempts_arg(argv[3]));
  TK_CHECK(host.fence());
  TK_TRY(const std::int64_t now, host.now_ms());

  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_zsets(host, {keys.active(), keys.done()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_CHECK(may_write_all(host, {keys.active(), keys.done(), row}));

  Writer& w = host.begin_writes();
  w.zrem(keys.active(), argv[2]);
  w.zadd(keys.done(), now, argv[2]);
  std::vector<FieldRef> fields{{"state", "done"}};
  if (argv.size() > 4) fields.push_back({"result", argv[4]});
  w.hset(row, fields);
  return Reply::integer(1);
}

}  // namespace trafikey::verbs
