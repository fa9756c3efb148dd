#include "properties/state_graph.h"

namespace trafikey::properties {

StateGraph::StateGraph() : graph_(all_job_states.size()) {
  for (const auto& [from, to] : allowed_transitions) {
    boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), graph_);
  }
}

bool StateGraph::allowed(JobState from, JobState to) const {
  return boost::edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), graph_).second;
}

bool StateGraph::observe(JobState from, JobState to) {
  auto [edge, exists] = boost::edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), graph_);
  if (!exists) return false;
  ++graph_[edge].count;
  return true;
}

std::int64_t StateGraph::count(JobState from, JobState to) const {
  auto [edge, exists] = boost::edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), graph_);
  return exists ? graph_[edge].count : 0;
}

std::map<std::string, std::int64_t> StateGraph::counts() const {
  std::map<std::string, std::int64_t> out;
  for (const auto& [from, to] : allowed_transitions) out[edge_name(from, to)] = count(from, to);
  return out;
}

std::string edge_name(JobState from, JobState to) {
  return std::string(job_state_name(from)) + "->" + std::string(job_state_name(to));
}

}  // namespace trafikey::properties
