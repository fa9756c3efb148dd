#include "core/decide/sweep.h"

#include "core/args.h"
#include "core/errors.h"

namespace trafikey {

std::string_view member_read_name(MemberRead read) {
  switch (read) {
    case MemberRead::type: return "type";
    case MemberRead::group: return "group";
    case MemberRead::lease_epoch: return "lease_epoch";
    case MemberRead::stalled: return "stalled";
  }
  return "?";
}

std::string_view verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::ghost: return "ghost";
    case VerdictKind::lane: return "lane";
    case VerdictKind::exempt: return "exempt";
    case VerdictKind::counted_recovered: return "counted-recovered";
    case VerdictKind::counted_dead: return "counted-dead";
  }
  return "?";
}

Outcome<MemberStep> decide_member(std::string_view run_id, std::int64_t max_stalled,
                                  const MemberSeen& seen) {
  if (!seen.type) return MemberStep{MemberRead::type};
  if (*seen.type != KeyType::hash) return MemberStep{Verdict{VerdictKind::ghost}};

  if (!seen.group) return MemberStep{MemberRead::group};
  if (seen.group->has_value()) return MemberStep{Verdict{VerdictKind::lane}};

  if (!seen.lease_epoch) return MemberStep{MemberRead::lease_epoch};
  const std::optional<std::string_view> stamp_view = *seen.lease_epoch;
  if (Epoch::exempt(stamp_view, run_id)) return MemberStep{Verdict{VerdictKind::exempt}};

  if (!seen.stalled) return MemberStep{MemberRead::stalled};
  std::int64_t stalled = 0;
  if (seen.stalled->has_value()) {
    auto parsed = parse_int64(**seen.stalled);
    if (!parsed || *parsed < 0 || *parsed == int64_max) return errors::error(errors::corrupt_row);
    stalled = *parsed;
  }
  const std::int64_t after = stalled + 1;
  return MemberStep{Verdict{
      after >= max_stalled ? VerdictKind::counted_dead : VerdictKind::counted_recovered, after}};
}

}  // namespace trafikey
