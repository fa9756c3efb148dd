// StateGraph: the allowed job-state graph (core/states.h) as a Boost.Graph, with a count
// per edge. The checker asks it whether a change of state is an edge (INVARIANTS
// queue.transitions); campaigns and reports read the counts for coverage. The graph is
// one, shared and never changed (state_graph.cpp); an object holds only its counts, so
// that includers do not compile Boost.Graph.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "core/states.h"

namespace trafikey::properties {

class StateGraph {
 public:
  StateGraph();

  bool allowed(JobState from, JobState to) const;
  // Counts an observed change; false (and not counted) when it is not an edge.
  bool observe(JobState from, JobState to);
  std::int64_t count(JobState from, JobState to) const;
  // "pending->active" -> count, for every allowed edge (zero counts included).
  std::map<std::string, std::int64_t> counts() const;

 private:
  static constexpr std::size_t states = all_job_states.size();
  std::array<std::int64_t, states * states> counts_{};  // [from * states + to], edges only
};


}  // namespace trafikey::properties
