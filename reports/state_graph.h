// The job state graph as a Boost.Graph: the vertices and allowed edges of core/states.h,
// each edge carrying how often a history took it (and by which cause), plus any observed
// change that is not an allowed edge (drawn red: a broken queue.transitions).
//
// to_dot walks the graph (vertices, then each one's out-edges, in the order of
// core/states.h), so the text is the same bytes for the same counts.
// render_svg runs `dot -Tsvg` when `dot` is on PATH and returns the <svg> element.
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "reports/history_model.h"

namespace trafikey::reports {

struct StateVertex {
  std::string name;
  std::int64_t final_jobs = 0;  // jobs whose final row is in this state
};

struct TransitionEdge {
  std::int64_t count = 0;
  std::map<std::string, std::int64_t> by_cause;
  bool allowed = true;
};

using StateGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, StateVertex, TransitionEdge>;

// Vertices: the states of core/states.h (plus any other state name the counts use).
// Edges: allowed_transitions in order, then observed disallowed ones in key order.
StateGraph build_state_graph(const std::map<EdgeKey, EdgeCount>& counts,
                             const std::map<std::string, std::int64_t>& final_states);

// The count on the edge from -> to; 0 when the graph has no such edge.
std::int64_t edge_count(const StateGraph& graph, std::string_view from, std::string_view to);

std::string to_dot(const StateGraph& graph);

// The SVG Graphviz draws for `dot_text`, from "<svg" on; nullopt when `dot` is not on
// PATH or fails.
std::optional<std::string> render_svg(const std::string& dot_text);

// Whether an executable `dot` is on PATH.
bool dot_available();

// The graph as a page shows it: Graphviz's SVG when `use_dot` and `dot` is on PATH (its
// element ids prefixed with `id_prefix`, since several graphs share a page), else the DOT
// text; then a note on how to read it.
std::string state_graph_html(const std::map<EdgeKey, EdgeCount>& edges,
                             const std::map<std::string, std::int64_t>& final_states,
                             const std::string& id_prefix, bool use_dot);

}  // namespace trafikey::reports
