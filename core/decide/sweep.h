// The sweep's decision for one expired member of `active` (shared spec EMQ §5; the seed's
// decide_member). Pure: it takes what has been read so far and answers either the next
// read it needs or the verdict. Reads come in the order TYPE -> group -> lease_epoch ->
// stalled, and it stops at the first that decides, so a ghost costs one read and an
// exempt member never reads `stalled`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/host.h"
#include "core/outcome.h"

namespace trafikey {

enum class MemberRead : std::uint8_t { type, group, lease_epoch, stalled };
std::string_view member_read_name(MemberRead read);

// What the sweep has read of one member's row so far; each outer optional is "not read
// yet", each inner one "field absent". The fields are the host's views (valid through the
// read pass, see Host), so judging a member copies none of them.
struct MemberSeen {
  std::optional<KeyType> type;
  std::optional<std::optional<std::string_view>> group;
  std::optional<std::optional<std::string_view>> lease_epoch;
  std::optional<std::optional<std::string_view>> stalled;
};

enum class VerdictKind : std::uint8_t { ghost, lane, exempt, counted_recovered, counted_dead };
std::string_view verdict_name(VerdictKind kind);  // "ghost", "lane", "exempt", ...

struct Verdict {
  VerdictKind kind;
  std::int64_t stalled_after = 0;  // counted verdicts only: the new `stalled`
  bool operator==(const Verdict&) const = default;
};

using MemberStep = std::variant<MemberRead, Verdict>;

// A `stalled` field that is not an integer refuses the whole sweep (errors::corrupt_row).
Outcome<MemberStep> decide_member(std::string_view run_id, std::int64_t max_stalled,
                                  const MemberSeen& seen);

}  // namespace trafikey
