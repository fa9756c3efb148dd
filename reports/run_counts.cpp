#include "reports/run_counts.h"

namespace trafikey::reports {

namespace {

// World notes that are not faults: kept out of the fault coverage.
bool is_note(std::string_view name) {
  return name == "start" || name == "worker_resume" || name == "worker_start";
}

}  // namespace

std::string counts_text(const std::map<std::string, std::int64_t>& counts, std::string_view separator) {
  std::string s;
  for (const auto& [k, v] : counts) {
    if (v == 0) continue;
    s += (s.empty() ? "" : std::string(separator)) + k + " " + std::to_string(v);
  }
  return s.empty() ? "none" : s;
}

std::map<std::string, std::int64_t> faults_only(const RunModel& model) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [k, v] : model.fault_counts) {
    if (!is_note(k)) out[k] = v;
  }
  return out;
}

std::map<std::string, std::int64_t> final_states(const RunModel& model) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [job, row] : model.final_rows) ++out[row.state];
  return out;
}

std::map<std::string, std::int64_t> edge_texts(const std::map<EdgeKey, EdgeCount>& edges) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [k, e] : edges) out[k.first + "->" + k.second] += e.count;
  return out;
}

}  // namespace trafikey::reports
