// EMQ.STALLED.CHECK q max_stalled [LIMIT n]  (shared spec EMQ §5)
// The one reader of lease_epoch. Selects up to n expired members of active (deadline <
// now, lowest first) and applies decide_member's verdict to each:
//   ghost   ZREM active
//   lane    untouched
//   exempt  ZREM active, ZADD pending 0, HSET state pending (stalled not read or written)
//   counted stalled + 1; dead at max_stalled, else back to pending
// Reply: recovered [ids] dead [ids] ghosts [ids] lanes [ids], each in judged order.
#include <array>
#include <vector>

#include "core/decide/sweep.h"
#include "core/verbs/common.h"

namespace trafikey::verbs {

namespace {
struct Judged {
  std::string id;
  KeyName row;  // inline for short names: no allocation per expired member
  Verdict verdict;
};

// Performs the one read decide_member asked for.
Status read_for(Host& host, std::string_view row, MemberRead read, MemberSeen& seen) {
  switch (read) {
    case MemberRead::type: {
      TK_TRY(seen.type, host.type(row));
      return ok_status();
    }
    case MemberRead::group: {
      TK_TRY(seen.group, host.hget(row, "group"));
      return ok_status();
    }
    case MemberRead::lease_epoch: {
      TK_TRY(seen.lease_epoch, host.hget(row, "lease_epoch"));
      return ok_status();
    }
    case MemberRead::stalled: {
      TK_TRY(seen.stalled, host.hget(row, "stalled"));
      return ok_status();
    }
  }
  return errors::error(errors::host_call);
}

bool recovered(VerdictKind kind) {
  return kind == VerdictKind::exempt || kind == VerdictKind::counted_recovered;
}
}  // namespace

Reply stalled_check(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_TRY(const std::int64_t max_stalled,
         parse_ranged("max_stalled", argv[2], 1, max_stalled_max));
  const std::array specs{limit_option};
  TK_TRY(auto options, parse_options(argv.subspan(3), specs));
  TK_CHECK(host.fence());
  TK_TRY(const std::string_view run_id, host.epoch().current());
  TK_TRY(const std::int64_t now, host.now_ms());

  const QueueKeys keys(argv[1]);
  TK_CHECK(expect_zsets(host, {keys.active(), keys.pending(), keys.dead()}));
  TK_TRY(auto expired, host.zrange_by_score(keys.active(), static_cast<double>(now),
                                            static_cast<std::size_t>(options[0])));

  std::vector<Judged> judged;
  judged.reserve(expired.size());
  for (auto& member : expired) {
    Judged j{std::move(member.member), {}, {}};
    j.row = keys.row_name(j.id);
    MemberSeen seen;
    for (;;) {
      TK_TRY(MemberStep step, decide_member(run_id, max_stalled, seen));
      if (auto* verdict = std::get_if<Verdict>(&step)) {
        j.verdict = *verdict;
        break;
      }
      TK_CHECK(read_for(host, j.row, std::get<MemberRead>(step), seen));
    }
    judged.push_back(std::move(j));
  }

  bool any_move = false, any_pending = false, any_dead = false;
  for (const auto& j : judged) {
    const VerdictKind kind = j.verdict.kind;
    any_move = any_move || kind != VerdictKind::lane;
    any_pending = any_pending || recovered(kind);
    any_dead = any_dead || kind == VerdictKind::counted_dead;
  }
  if (any_move) TK_CHECK(host.may_write(keys.active()));
  if (any_pending) TK_CHECK(host.may_write(keys.pending()));
  if (any_dead) TK_CHECK(host.may_write(keys.dead()));
  for (const auto& j : judged) {
    const VerdictKind kind = j.verdict.kind;
    if (kind != VerdictKind::ghost && kind != VerdictKind::lane) TK_CHECK(host.may_write(j.row));
  }

  std::array<Reply, 4> lists{Reply::array(), Reply::array(), Reply::array(), Reply::array()};
  Writer* w = any_move ? &host.begin_writes() : nullptr;
  for (const auto& j : judged) {
    const std::string stalled = std::to_string(j.verdict.stalled_after);
    switch (j.verdict.kind) {
      case VerdictKind::ghost:
        w->zrem(keys.active(), j.id);
        lists[2].items().push_back(Reply::bulk(j.id));
        break;
      case VerdictKind::lane:
        lists[3].items().push_back(Reply::bulk(j.id));
        break;
      case VerdictKind::exempt: {
        // the server went away, not the worker: back to pending, no budget charged
        w->zrem(keys.active(), j.id);
        w->zadd(keys.pending(), 0, j.id);
        const std::array fields{FieldRef{"state", "pending"}};
        w->hset(j.row, fields);
        lists[0].items().push_back(Reply::bulk(j.id));
        break;
      }
      case VerdictKind::counted_recovered: {
        w->zrem(keys.active(), j.id);
        w->zadd(keys.pending(), 0, j.id);
        const std::array fields{FieldRef{"state", "pending"}, FieldRef{"stalled", stalled}};
        w->hset(j.row, fields);
        lists[0].items().push_back(Reply::bulk(j.id));
        break;
      }
      case VerdictKind::counted_dead: {
        w->zrem(keys.active(), j.id);
        w->zadd(keys.dead(), now, j.id);
        const std::array fields{FieldRef{"state", "dead"}, FieldRef{"stalled", stalled},
                                FieldRef{"dead_reason", "stalled"}};
        w->hset(j.row, fields);
        lists[1].items().push_back(Reply::bulk(j.id));
        break;
      }
    }
  }
  return Reply::array_of(Reply::bulk("recovered"), std::move(lists[0]), Reply::bulk("dead"),
                        std::move(lists[1]), Reply::bulk("ghosts"), std::move(lists[2]),
                        Reply::bulk("lanes"), std::move(lists[3]));
}

}  // namespace trafikey::verbs
