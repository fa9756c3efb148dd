// EMQ.FAIL q id attempts reason  (shared spec EMQ §4)
// f = failures + 1: 1 requeued (f < max_failures), 2 dead-lettered, 0 not live.
#include <array>

#include "core/verbs/common.h"

namespace trafikey::verbs {

inline constexpr std::int64_t max_failures_default = max_failures_option.fallback;

Reply fail(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  TK_TRY(const LeaseToken token, token_arg(argv[3]));
  const std::string_view reason = argv[4];
  TK_CHECK(host.fence());
  TK_TRY(const std::int64_t now, host.now_ms());

  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_zsets(host, {keys.active(), keys.pending(), keys.dead()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_TRY(const std::int64_t failures, row_integer(host, row, "failures", 0));
  TK_TRY(const std::int64_t budget, row_integer(host, row, "max_failures", max_failures_default));
  const std::int64_t f = failures + 1;
  const std::string f_text = std::to_string(f);

  if (f < budget) {
    TK_CHECK(expect_counter(host, keys.seq()));
    TK_CHECK(may_write_all(host, {keys.active(), keys.seq(), keys.pending(), row}));
    Writer& w = host.begin_writes();
    w.zrem(keys.active(), argv[2]);
    const std::int64_t order = w.incr(keys.seq());
    w.zadd(keys.pending(), order, argv[2]);
    const std::array fields{FieldRef{"state", "pending"}, FieldRef{"failures", f_text},
                            FieldRef{"error", reason}};
    w.hset(row, fields);
    return Reply::integer(1);
  }
  TK_CHECK(may_write_all(host, {keys.active(), keys.dead(), row}));
  Writer& w = host.begin_writes();
  w.zrem(keys.active(), argv[2]);
  w.zadd(keys.dead(), now, argv[2]);
  const std::array fields{FieldRef{"state", "dead"}, FieldRef{"failures", f_text},
                          FieldRef{"dead_reason", "failed"}, FieldRef{"error", reason}};
  w.hset(row, fields);
  return Reply::integer(2);
}

}  // namespace trafikey::verbs
