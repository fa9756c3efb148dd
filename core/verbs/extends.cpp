// EMQ.EXTENDS q lease_ms id attempts [id attempts ...]  (shared spec EMQ §4)
// One `now` for the call: every live pair is re-scored to the same deadline and stamped;
// each answer is 1 (extended) or 0 (not live), in order. A dead pair is never an error.
#include <array>
#include <vector>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply extends(Host& host, Args argv) {
  const std::size_t pairs = (argv.size() - 3) / 2;
  if ((argv.size() - 3) % 2 != 0 || pairs > static_cast<std::size_t>(extends_pairs_max)) {
    return errors::error(errors::wrong_arity);
  }
  TK_CHECK(queue_arg(argv[1]));
  TK_TRY(const std::int64_t lease_ms, lease_ms_arg(argv[2]));
  std::vector<std::int64_t> tokens(pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    TK_CHECK(job_id_arg(argv[3 + 2 * i]));
    TK_TRY(tokens[i], attempts_arg(argv[4 + 2 * i]));
  }
  TK_CHECK(host.fence());
  TK_TRY(const std::string_view run_id, host.epoch().current());
  TK_TRY(const std::int64_t now, host.now_ms());
  TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));

  const QueueKeys keys(argv[1]);
  TK_CHECK(expect_type(host, keys.active(), KeyType::zset));
  std::vector<std::string> rows(pairs);
  std::vector<bool> live(pairs, false);
  bool any_live = false;
  for (std::size_t i = 0; i < pairs; ++i) {
    rows[i] = keys.row(argv[3 + 2 * i]);
    TK_TRY(bool is_live, lease_live(host, keys, argv[3 + 2 * i], rows[i], tokens[i], now));
    live[i] = is_live;
    any_live = any_live || is_live;
  }
  Reply reply = Reply::array();
  for (std::size_t i = 0; i < pairs; ++i) reply.items().push_back(Reply::integer(live[i] ? 1 : 0));
  if (!any_live) return reply;

  TK_CHECK(host.may_write(keys.active()));
  for (std::size_t i = 0; i < pairs; ++i) {
    if (live[i]) TK_CHECK(host.may_write(rows[i]));
  }
  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"lease_epoch", run_id}};
  for (std::size_t i = 0; i < pairs; ++i) {
    if (!live[i]) continue;
    w.zadd(keys.active(), deadline, argv[3 + 2 * i]);
    w.hset(rows[i], fields);
  }
  return reply;
}

}  // namespace trafikey::verbs
