// EMQ.CLAIM q lease_ms [COUNT n] [WIRE w]  (shared spec EMQ §4, §8)
// Claims up to n pending ids, lowest first, each under a lease stamped with the epoch and
// its grant id (§8, both wires). A pending id whose row is not a hash is a ghost: removed,
// not claimed, not counted. WIRE 2 adds each grant's wire 2 token to its reply item.
#include <algorithm>
#include <array>
#include <vector>

#include "core/verbs/common.h"

namespace trafikey::verbs {

namespace {
struct Judged {
  std::string id;
  KeyName row;  // inline for short names: no allocation per claimed id
  bool ghost = false;
  std::int64_t token = 0;  // the new attempts
  std::string attempts;    // the same, as written
  std::string payload;
  std::string grant;  // §8: `<run_id>-<n>`, taken before the first write
};
}  // namespace

Reply claim(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_TRY(const std::int64_t lease_ms, lease_ms_arg(argv[2]));
  const std::array specs{count_option, wire_option};
  TK_TRY(auto options, parse_options(argv.subspan(3), specs));
  const auto count = static_cast<std::size_t>(options[0]);
  TK_CHECK(host.fence());
  TK_TRY(const std::string_view run_id, host.epoch().current());
  TK_TRY(const std::int64_t now, host.now_ms());
  TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));

  const QueueKeys keys(argv[1]);
  TK_CHECK(expect_zsets(host, {keys.pending(), keys.active()}));

  // Read pass: walk pending lowest first until `count` claims or the ghost bound.
  std::vector<Judged> judged;
  // Room for the usual call up front (regrowing moves every Judged so far); capped, so a
  // COUNT 1000 call that meets few ids does not reserve for a thousand.
  judged.reserve(std::min<std::size_t>(count, 32));
  std::size_t claims = 0, ghosts = 0;
  std::int64_t rank = 0;
  const auto batch = static_cast<std::int64_t>(count) + 8;
  while (claims < count && ghosts < claim_ghosts_max) {
    TK_TRY(auto ids, host.zrange_by_rank(keys.pending(), rank, rank + batch - 1));
    if (ids.empty()) break;
    rank += static_cast<std::int64_t>(ids.size());
    for (auto& id : ids) {
      Judged j{std::move(id), {}, false, 0, {}, {}, {}};
      j.row = keys.row_name(j.id);
      TK_TRY(KeyType type, host.type(j.row));
      if (type != KeyType::hash) {
        j.ghost = true;
        ++ghosts;
      } else {
        TK_TRY(std::int64_t attempts, row_integer(host, j.row, "attempts", 0));
        j.token = attempts + 1;
        j.attempts = std::to_string(j.token);
        TK_TRY(auto payload, host.hget(j.row, "payload"));
        if (payload) j.payload = *payload;  // a copy: the view ends with the read pass
        ++claims;
      }
      judged.push_back(std::move(j));
      if (claims == count || ghosts == claim_ghosts_max) break;
    }
  }
  if (!judged.empty()) TK_CHECK(host.may_write(keys.pending()));
  if (claims > 0) TK_CHECK(host.may_write(keys.active()));
  for (const auto& j : judged) {
    if (!j.ghost) TK_CHECK(host.may_write(j.row));
  }

  Reply reply = Reply::array();
  if (judged.empty()) return reply;
  // §8: each grant takes the process's next number, in the read pass (every check passed)
  for (auto& j : judged) {
    if (!j.ghost) j.grant = Epoch::grant_id(run_id, host.epoch().take_grant());
  }
  const bool wire2 = options[1] == 2;
  reply.items().reserve(claims);
  Writer& w = host.begin_writes();
  for (auto& j : judged) {
    w.zrem(keys.pending(), j.id);
    if (j.ghost) continue;
    // the lease carries the server epoch: state, token and lease_epoch in one HSET
    const std::array fields{FieldRef{"state", "active"}, FieldRef{"attempts", j.attempts},
                            FieldRef{"lease_epoch", run_id}, FieldRef{"lease", j.grant}};
    w.hset(j.row, fields);
    w.zadd(keys.active(), deadline, j.id);
    // id and payload are not needed past this point: moved into the reply, not copied
    reply.items().push_back(Reply::array_of(Reply::bulk_of(std::move(j.id)),
                                            Reply::integer(j.token),
                                            Reply::bulk_of(std::move(j.payload))));
    if (wire2) reply.items().back().items().push_back(Reply::bulk_of(Epoch::wire2_token(j.token, j.grant)));
  }
  return reply;
}

}  // namespace trafikey::verbs
