#include "properties/state_graph.h"

#include <array>

#include <boost/graph/adjacency_list.hpp>

#include "properties/model/names.h"

namespace trafikey::properties {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

const Graph& the_graph() {
  static const Graph graph = [] {
    Graph g(all_job_states.size());
    for (const auto& [from, to] : allowed_transitions) {
      boost::add_edge(static_cast<std::size_t>(from), static_cast<std::size_t>(to), g);
    }
    return g;
  }();
  return graph;
}

std::size_t slot(JobState from, JobState to) {
  return static_cast<std::size_t>(from) * all_job_states.size() + static_cast<std::size_t>(to);
}

// The graph's edges as a matrix, read off it once: the checker asks for an edge on every
// call, and boost::edge's answer built a descriptor through an allocation each time.
const std::array<bool, all_job_states.size() * all_job_states.size()>& edge_matrix() {
  static const auto matrix = [] {
    std::array<bool, all_job_states.size() * all_job_states.size()> m{};
    const Graph& g = the_graph();
    for (auto [e, end] = boost::edges(g); e != end; ++e) {
      m[boost::source(*e, g) * all_job_states.size() + boost::target(*e, g)] = true;
    }
    return m;
  }();
  return matrix;
}

}  // namespace

StateGraph::StateGraph() { edge_matrix(); }

bool StateGraph::allowed(JobState from, JobState to) const { return edge_matrix()[slot(from, to)]; }

bool StateGraph::observe(JobState from, JobState to) {
  if (!allowed(from, to)) return false;
  ++counts_[slot(from, to)];
  return true;
}

std::int64_t StateGraph::count(JobState from, JobState to) const {
  return allowed(from, to) ? counts_[slot(from, to)] : 0;
}

std::map<std::string, std::int64_t> StateGraph::counts() const {
  std::map<std::string, std::int64_t> out;
  for (const auto& [from, to] : allowed_transitions) out[model::transition_name(from, to)] = count(from, to);
  return out;
}

}  // namespace trafikey::properties
