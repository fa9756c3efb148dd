// The state graph: Boost.Graph built from core/states.h, edge counts from the history.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/states.h"
#include "reports/history_model.h"
#include "reports/report.h"
#include "reports/state_graph.h"
#include "reports/tests/fixtures.h"
#include "sim/run.h"

namespace trafikey::reports {
namespace {

using testing::occurrences;

// The brief's rule, applied to the raw lines without the reports library: CLAIM entries
// -> pending->active, COMPLETE 1 -> active->done, FAIL 1 / 2 -> active->pending / dead,
// verdicts exempt and counted-recovered -> active->pending, counted-dead -> active->dead.
std::map<std::string, std::int64_t> count_edges(const std::string& history) {
  std::map<std::string, std::int64_t> edges;
  for (const std::string& line : testing::lines_of(history)) {
    const auto j = nlohmann::json::parse(line);
    if (j.contains("call") && !j["reply"].is_object()) {
      const std::string verb = j["call"][0];
      if (verb == "EMQ.CLAIM") edges["pending->active"] += static_cast<std::int64_t>(j["reply"].size());
      if (verb == "EMQ.COMPLETE" && j["reply"] == 1) ++edges["active->done"];
      if (verb == "EMQ.FAIL" && j["reply"] == 1) ++edges["active->pending"];
      if (verb == "EMQ.FAIL" && j["reply"] == 2) ++edges["active->dead"];
    }
    if (j.contains("verdict")) {
      if (j["verdict"] == "exempt" || j["verdict"] == "counted-recovered") ++edges["active->pending"];
      if (j["verdict"] == "counted-dead") ++edges["active->dead"];
    }
  }
  return edges;
}

TEST(StateGraph, has_the_states_and_allowed_edges_of_core) {
  const StateGraph g = build_state_graph({}, {});
  EXPECT_EQ(boost::num_vertices(g), all_job_states.size());
  EXPECT_EQ(boost::num_edges(g), allowed_transitions.size());
  for (const auto& [from, to] : allowed_transitions) {
    EXPECT_EQ(edge_count(g, job_state_name(from), job_state_name(to)), 0);
  }
}

TEST(StateGraph, edge_counts_match_the_history) {
  for (std::uint64_t seed : {1, 2, 42}) {
    sim::PlanChoices choices;
    choices.seed = seed;
    choices.persistence = sim::Persistence::always;
    choices.fault_kinds = {sim::FaultKind::restart, sim::FaultKind::worker_death, sim::FaultKind::clock_step,
                           sim::FaultKind::lost_reply};
    const sim::RunSummary run = sim::run_plan(sim::draw_plan(choices));
    std::string error;
    const auto m = parse_history(run.history, &error);
    ASSERT_TRUE(m) << error;
    std::map<std::string, std::int64_t> finals;
    for (const auto& [job, row] : m->final_rows) ++finals[row.state];
    const StateGraph g = build_state_graph(m->edges, finals);
    const auto expected = count_edges(run.history);
    std::int64_t total = 0;
    for (const auto& [from, to] : allowed_transitions) {
      const std::string key = std::string(job_state_name(from)) + "->" + std::string(job_state_name(to));
      const std::int64_t n = edge_count(g, job_state_name(from), job_state_name(to));
      EXPECT_EQ(n, expected.count(key) ? expected.at(key) : 0) << key << " seed " << seed;
      total += n;
    }
    EXPECT_GT(total, 0);
  }
}

TEST(StateGraph, a_change_outside_the_allowed_graph_is_drawn_red) {
  std::map<EdgeKey, EdgeCount> counts;
  counts[{"done", "active"}] = EdgeCount{2, {{"CLAIM", 2}}};
  const StateGraph g = build_state_graph(counts, {});
  EXPECT_EQ(boost::num_edges(g), allowed_transitions.size() + 1);
  EXPECT_EQ(edge_count(g, "done", "active"), 2);
  EXPECT_NE(to_dot(g).find("color=red"), std::string::npos);
}

TEST(StateGraph, dot_text_labels_each_edge_with_its_count_and_causes) {
  const std::string history = testing::crossed_restart_then_extended();
  std::string error;
  const auto m = parse_history(history, &error);
  ASSERT_TRUE(m) << error;
  const std::string dot = to_dot(build_state_graph(m->edges, {}));
  EXPECT_NE(dot.find("0 -> 1 [label=\"3\\nCLAIM 3\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("1 -> 0 [label=\"1\\nexempt 1\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("1 -> 3 [label=\"1\\ncounted-dead 1\"]"), std::string::npos) << dot;
  EXPECT_NE(dot.find("1 -> 2 [label=\"1\\nCOMPLETE 1 1\"]"), std::string::npos) << dot;
}

TEST(StateGraph, the_report_shows_dot_text_without_graphviz) {
  ReportOptions o;
  o.use_dot = false;
  std::string error;
  const auto r = render_report({testing::input("x", testing::crossed_restart_then_extended())}, o, &error);
  ASSERT_TRUE(r) << error;
  EXPECT_NE(r->html.find("<pre>digraph states {"), std::string::npos);
}

TEST(StateGraph, the_report_embeds_graphviz_svg_when_dot_is_on_path) {
  TRAFIKEY_REQUIRE_TOOL(dot_available(), "dot", "Graphviz; Debian: apt-get install graphviz");
  std::string error;
  const auto r = render_report({testing::input("x", testing::crossed_restart_then_extended())}, {}, &error);
  ASSERT_TRUE(r) << error;
  const std::size_t graph = r->html.find("<div class=\"graph\"><svg");
  ASSERT_NE(graph, std::string::npos);
  EXPECT_NE(r->html.find("COMPLETE 1 1", graph), std::string::npos);
  EXPECT_EQ(r->html.find("<?xml"), std::string::npos) << "the prolog is stripped";
  EXPECT_EQ(occurrences(r->html, " id=\"r0-node1\""), 1u) << "Graphviz ids are prefixed per graph";
}

}  // namespace
}  // namespace trafikey::reports
