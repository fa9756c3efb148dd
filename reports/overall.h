// What the runs of one report add up to: per invariant the worst status over every run
// (failed over passed over not judged) with the first run it failed in, and the status
// line every report opens with (HTML header and Markdown summary alike).
#pragma once

#include <string>
#include <vector>

#include "reports/page.h"

namespace trafikey::reports {

struct CombinedInvariant {
  InvariantResult result;       // the worst status; a failure's detail and line
  std::string first_failed_in;  // the name of the first run it failed in; empty: none
};
// In the order the runs name the ids (invariant_ids first).
std::vector<CombinedInvariant> combine_invariants(const std::vector<RunView>& runs);

struct StatusLine {
  // failed when a run failed, else incomplete when one has no end line, else passed when
  // one passed, else not_judged.
  CheckStatus status = CheckStatus::not_judged;
  // "N runs, C calls[, why][, ended O | , F failed (first: NAME: why)]; invariants: F
  // failed, P passed, N not judged".
  std::string text;
};
StatusLine status_line(const std::vector<RunView>& runs);

// The status as the line's first word: "FAILED", "PASSED", "INCOMPLETE", "NOT JUDGED".
std::string status_word(CheckStatus status);

}  // namespace trafikey::reports
