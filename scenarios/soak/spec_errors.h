// The refusals a client may see from an EMQ verb: exactly the texts of shared spec EMQ §6,
// matched as the page states them. The fixed texts come from core/errors.h (one spelling
// in the project); the ranged ones, "ERR EMQ <arg> must be an integer in <lo>..<hi>", are
// built from the ranges of EMQ §7 as the page lists them (not from the verbs' own option
// tables, so a verb that drifts from the page shows up here).
#pragma once

#include <string_view>

namespace trafikey::soak {

// True when `text` (an error reply's text) is one of EMQ §6's refusals.
bool is_spec_error(std::string_view text);

}  // namespace trafikey::soak
