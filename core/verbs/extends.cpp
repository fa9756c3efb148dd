// EMQ.EXTENDS q lease_ms id attempts [id attempts ...]  (shared spec EMQ §4)
// One `now` for the call: every live pair is re-scored to the same deadline and stamped;
// each answer is 1 (extended) or 0 (not live), in order. A dead pair is never an error.
#include <array>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply extends(Host& host, Args argv) {
  const std::size_t pairs = (argv.size() - 3) / 2;
  if ((argv.size() - 3) % 2 != 0 || pairs > static_cast<std::size_t>(extends_pairs_max)) {
    return errors::error(errors::wrong_arity);
  }
  TK_CHECK(queue_arg(argv[1]));
  TK_TRY(const std::int64_t lease_ms, lease_ms_arg(argv[2]));
  // Every pair is checked before the fence; the tokens are parsed again in the read pass
  // (pure, and cheap next to the reads) rather than kept in a per-call vector.
  for (std::size_t i = 0; i < pairs; ++i) {
    TK_CHECK(job_id_arg(argv[3 + 2 * i]));
    TK_CHECK(token_arg(argv[4 + 2 * i]));
  }
  TK_CHECK(host.fence());
  TK_TRY(const std::string_view run_id, host.epoch().current());
  TK_TRY(const std::int64_t now, host.now_ms());
  TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));

  const QueueKeys keys(argv[1]);
  TK_CHECK(expect_type(host, keys.active(), KeyType::zset));
  // The reply's 1/0 per pair is the liveness record the write pass reads back, and each
  // row key is built inline where it is used: no rows or live vectors per call.
  Reply reply = Reply::array();
  reply.items().reserve(pairs);
  bool any_live = false;
  for (std::size_t i = 0; i < pairs; ++i) {
    const std::string_view id = argv[3 + 2 * i];
    const LeaseToken token = token_arg(argv[4 + 2 * i]).value();
    TK_TRY(bool is_live, lease_live(host, keys, id, keys.row_name(id), token, now));
    reply.items().push_back(Reply::integer(is_live ? 1 : 0));
    any_live = any_live || is_live;
  }
  if (!any_live) return reply;
  auto live = [&](std::size_t i) { return reply.items()[i].as_integer() != 0; };

  TK_CHECK(host.may_write(keys.active()));
  for (std::size_t i = 0; i < pairs; ++i) {
    if (live(i)) TK_CHECK(host.may_write(keys.row_name(argv[3 + 2 * i])));
  }
  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"lease_epoch", run_id}};
  for (std::size_t i = 0; i < pairs; ++i) {
    if (!live(i)) continue;
    w.zadd(keys.active(), deadline, argv[3 + 2 * i]);
    w.hset(keys.row_name(argv[3 + 2 * i]), fields);
  }
  return reply;
}

}  // namespace trafikey::verbs
