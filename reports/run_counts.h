// What the pages count in a run's model: faults (without the world's notes), final states,
// taken edges, and how a count map is printed. Shared by the run section, the campaign
// overview and the Markdown summary.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "reports/history_model.h"

namespace trafikey::reports {

// "a 2, b 1" (keys in order, zero counts left out); "none" when nothing is left.
std::string counts_text(const std::map<std::string, std::int64_t>& counts, std::string_view separator = ", ");

// The run's fault counts without the world notes that are not faults (start, worker
// start and resume).
std::map<std::string, std::int64_t> faults_only(const RunModel& model);

// How many jobs end in each state.
std::map<std::string, std::int64_t> final_states(const RunModel& model);

// Edge counts keyed "from->to".
std::map<std::string, std::int64_t> edge_texts(const std::map<EdgeKey, EdgeCount>& edges);

}  // namespace trafikey::reports
