// EMQ.COMPLETE q id attempts [result]  (shared spec EMQ §4)
// 1 done (the row keeps its last lease_epoch); 0 when the lease is not live.
#include <array>
#include <span>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply complete(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  TK_TRY(const LeaseToken token, token_arg(argv[3]));
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
  // The optional result is the second field: a fixed array and a span over its used part,
  // not a vector allocated per call.
  const std::array<FieldRef, 2> fields{FieldRef{"state", "done"},
                                       FieldRef{"result", argv.size() > 4 ? argv[4] : ""}};
  w.hset(row, std::span(fields).first(argv.size() > 4 ? 2 : 1));
  return Reply::integer(1);
}

}  // namespace trafikey::verbs
