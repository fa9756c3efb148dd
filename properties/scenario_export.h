// export_scenario: a history as a scenario file (shared spec SCENARIO.md) that replays the
// same calls, faults and replies on the simulated server, every reply spelled out, ending
// with `check invariants`. Empty when the scenario language is not built in.
#pragma once

#include <string>
#include <vector>

#include "properties/checker.h"

namespace trafikey::properties {

std::string export_scenario(const std::string& history_text, const std::vector<Violation>& violations);

}  // namespace trafikey::properties
