// EMQ.EXTEND q id attempts lease_ms  (shared spec EMQ §4)
// 1 extended and re-stamped with the current epoch; 0 when the lease is not live.
#include <array>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply extend(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  TK_TRY(const LeaseToken token, token_arg(argv[3]));
  TK_TRY(const std::int64_t lease_ms, lease_ms_arg(argv[4]));
  TK_CHECK(host.fence());
  TK_TRY(const std::string_view run_id, host.epoch().current());
  TK_TRY(const std::int64_t now, host.now_ms());
  TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));

  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_type(host, keys.active(), KeyType::zset));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_CHECK(may_write_all(host, {keys.active(), row}));

  Writer& w = host.begin_writes();
  w.zadd(keys.active(), deadline, argv[2]);
  // an extension moves the lease to this process: the stamp names who last granted it
  const std::array fields{FieldRef{"lease_epoch", run_id}};
  w.hset(row, fields);
  return Reply::integer(1);
}

}  // namespace trafikey::verbs
