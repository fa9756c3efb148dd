// The ids of shared spec INVARIANTS.md, in the page's order: the one list the checker,
// the properties, the scenario runner and the reports name invariants by. And CheckStatus,
// the one pass/fail vocabulary of a run, a scenario or an invariant (a sweep's judgement
// of one member is a verdict: core/decide/sweep.h VerdictKind). Not `Status`: that name is
// core/outcome.h's Outcome<Ok>, the ok-or-error of a host operation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace trafikey {

inline constexpr std::array<std::string_view, 15> invariant_ids{
    "epoch.exempt",      "epoch.counted",  "epoch.stamp",      "epoch.load",
    "queue.conserve",    "queue.transitions", "queue.fence",   "queue.grant",   "queue.budget",
    "verb.atomic",       "verb.model",        "verb.replicated",   "liveness.drain", "sim.determinism",
    "sim.differential",
};

// How a scenario, a run or one invariant came out.
//   passed      every expectation held / the invariant was judged and held
//   failed      one did not
//   skipped     not run (e.g. a scenario a real server cannot do)
//   not_judged  run, but nothing judged it (an invariant no check observed; a run whose
//               history names no judged invariant)
//   incomplete  the run did not finish (a history without its end line)
enum class CheckStatus : std::uint8_t { passed, failed, skipped, not_judged, incomplete };

// "passed", "failed", "skipped", "not judged", "incomplete".
constexpr std::string_view status_name(CheckStatus status) {
  switch (status) {
    case CheckStatus::passed: return "passed";
    case CheckStatus::failed: return "failed";
    case CheckStatus::skipped: return "skipped";
    case CheckStatus::not_judged: return "not judged";
    case CheckStatus::incomplete: return "incomplete";
  }
  return "?";
}

}  // namespace trafikey
