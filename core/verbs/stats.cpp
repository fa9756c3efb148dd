// EMQ.STATS q  (shared spec EMQ §4): pending n active n done n dead n. Read-only.
#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply stats(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  const QueueKeys keys(argv[1]);
  Reply reply = Reply::array();
  const std::pair<std::string_view, std::string_view> sets[] = {
      {"pending", keys.pending()}, {"active", keys.active()},
      {"done", keys.done()},       {"dead", keys.dead()}};
  for (const auto& [label, key] : sets) {
    TK_TRY(const std::int64_t n, host.zcard(key));
    reply.items().push_back(Reply::bulk(label));
    reply.items().push_back(Reply::integer(n));
  }
  return reply;
}

}  // namespace trafikey::verbs
