// The ids of shared spec INVARIANTS.md, in the page's order: the one list the checker,
// the properties, the scenario runner and the reports name invariants by.
#pragma once

#include <array>
#include <string_view>

namespace trafikey {

inline constexpr std::array<std::string_view, 14> invariant_ids{
    "epoch.exempt",      "epoch.counted",  "epoch.stamp",      "epoch.load",
    "queue.conserve",    "queue.transitions", "queue.fence",   "queue.budget",
    "verb.atomic",       "verb.model",        "verb.replicated",   "liveness.drain", "sim.determinism",
    "sim.differential",
};

}  // namespace trafikey
