// The timeline of one run as an inline SVG, readable without JavaScript.
//
// x is TRUE time (the event clock `t`), the same for every job. One row per job (first
// appearance order). Every lease grant is one <rect class="lease ..."> from the CLAIM to
// the lease's deadline (the first true time the server clock reaches it), filled with
// the colour of the incarnation that granted it; each extension is a <rect
// class="extension"> from the EXTEND/EXTENDS to its new deadline, coloured by the
// incarnation that re-stamped it, with a tick. Faded: the part of a deadline a lease did
// not use; dotted: the time an expired lease waited in `active` for the sweep. Sweep
// verdicts are labelled diamonds (<g class="verdict ...">); restarts, failovers, clock
// steps and rates, worker deaths/pauses and epoch faults are vertical <g class="marker
// marker-NAME"> lines across all rows. A band on top shows the incarnations, a strip
// below the server clock's offset from true time. Every mark has an SVG <title> with
// t, st and incarnation, and links to its history line (anchor line_anchor(run, line)).
// A lease granted on wire 2 (EMQ §8) is named by its wire 2 token, shortened, and its
// tooltips, and those of a call refused with such a token, give the token whole.
#pragma once

#include <cstddef>
#include <string>

#include "reports/history_model.h"

namespace trafikey::reports {

struct TimelineOptions {
  std::size_t run = 0;         // anchor prefix (line_anchor)
  std::size_t jobs_max = 200;  // rows drawn; the rest are counted in a note
};

std::string timeline_svg(const RunModel& model, const TimelineOptions& options);

}  // namespace trafikey::reports
