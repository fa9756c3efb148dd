#include "properties/scenario_export.h"

namespace trafikey::properties {

// Filled in once the scenario language (sim/scenario) lands.
std::string export_scenario(const std::string&, const std::vector<Violation>&) { return {}; }

}  // namespace trafikey::properties
