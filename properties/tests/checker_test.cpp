// The checker's starts: a start after a rollback judges what the rollback took back
// (Checker::after_start), not every job and key again. What it must keep: every judgement
// the whole scan made, with no false alarm from the transitions and tokens it carries over.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <string>
#include <vector>

#include "properties/campaign.h"
#include "properties/checked_run.h"
#include "properties/checker.h"
#include "properties/plan_space.h"
#include "properties/scenario_replay.h"
#include "properties/state_graph.h"
#include "sim/plan.h"
#include "sim/scenario/parse.h"

namespace trafikey::properties {
namespace {

std::vector<sim::FaultKind> every_fault_kind() {
  std::vector<sim::FaultKind> kinds;
  for (std::string_view name : sim::fault_kind_names()) kinds.push_back(*sim::parse_fault_kind(name));
  return kinds;
}

// Runs judged both ways agree, under every persistence mode: same history, no violation
// either way, and the rollback starts judged something (their rolled-back jobs).
TEST(Checker, a_start_judges_what_its_rollback_took_back_and_agrees_with_the_whole_scan) {
  const std::vector<sim::Persistence> modes{sim::Persistence::always, sim::Persistence::everysec,
                                            sim::Persistence::snapshot, sim::Persistence::none};
  std::int64_t lost_calls_seen = 0;  // starts that lost calls
  for (const sim::Persistence mode : modes) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      sim::PlanChoices choices;
      choices.seed = seed;
      choices.jobs = 15;
      choices.workers = 3;
      choices.persistence = mode;
      choices.fault_kinds = every_fault_kind();
      const sim::RunPlan plan = sim::draw_plan(choices);
      Checker rollback_only(true, false);
      Checker whole(true, true);
      const CheckedRun a = run_checked(plan, true, rollback_only);
      const CheckedRun b = run_checked(plan, true, whole);
      SCOPED_TRACE("persistence " + std::string(sim::persistence_name(mode)) + ", seed " + std::to_string(seed));
      EXPECT_EQ(a.summary.fingerprint, b.summary.fingerprint);
      ASSERT_TRUE(a.violations.empty()) << a.violations.front().describe();
      ASSERT_TRUE(b.violations.empty()) << b.violations.front().describe();
      // each judged as often or less (a start judges a part), never an invariant dropped
      for (const auto& [id, n] : b.judged) {
        const auto it = a.judged.find(id);
        EXPECT_EQ(it != a.judged.end(), n > 0) << id;
        if (it != a.judged.end()) {
          EXPECT_LE(it->second, n) << id;
        }
      }
      EXPECT_EQ(a.judged.size(), b.judged.size());
      EXPECT_EQ(a.edges, b.edges);
      // the starts that lost calls: the rollbacks judged alone
      for (std::size_t at = a.summary.history.find("\"lost_calls\":"); at != std::string::npos;
           at = a.summary.history.find("\"lost_calls\":", at + 1)) {
        if (a.summary.history.compare(at + 13, 2, "0,") != 0 && a.summary.history.compare(at + 13, 2, "0}") != 0) {
          ++lost_calls_seen;
        }
      }
    }
  }
  // the rollback path ran (everysec, snapshot and failovers lose calls)
  EXPECT_GT(lost_calls_seen, 100) << lost_calls_seen;
}

// A call the model predicted write for write has its per-job judgements established
// through the model's equality; the model's audit judges every call directly. On the
// campaign's own plans (every space, adversarial client, faults, long-lived queues) both ways give
// the same history and no violation, judge every invariant as often, and follow the same
// state changes (the edges); and the model's way took most calls.
TEST(Checker, a_call_the_model_predicted_is_judged_through_it_as_the_audit_judges_it_directly) {
  const std::vector<std::pair<std::string, PlanSpace>> spaces{
      {"full", full_space()}, {"refusal", refusal_space()}, {"liveness", liveness_space()}};
  std::int64_t calls = 0, through = 0;
  for (const auto& [name, space] : spaces) {
    for (int index = 0; index < 400; ++index) {
      const sim::RunPlan plan = campaign_plan(space, 20261203, index);
      Checker audit;
      audit.set_direct(true);
      Checker fast;
      const CheckedRun a = run_checked(plan, true, audit);
      const CheckedRun b = run_checked(plan, true, fast);
      SCOPED_TRACE(name + " run " + std::to_string(index));
      EXPECT_EQ(a.summary.fingerprint, b.summary.fingerprint);
      ASSERT_TRUE(a.violations.empty()) << a.violations.front().describe();
      ASSERT_TRUE(b.violations.empty()) << b.violations.front().describe();
      EXPECT_EQ(a.judged, b.judged);
      EXPECT_EQ(a.edges, b.edges);
      EXPECT_EQ(audit.through_model_calls(), 0);
      calls += b.summary.calls;
      through += fast.through_model_calls();
    }
  }
  // most calls: the fleet's EMQ verbs, predicted exactly, and calls that write nothing
  EXPECT_GT(through * 10, calls * 8) << through << " of " << calls << " calls";
}

// Past the cap on violations an invariant not yet named is still recorded: one operator
// script marks 25 pending jobs done (25 queue.transitions and 25 queue.conserve, more than
// the cap) and gives a 26th a failure count over its budget; queue.budget, judged last,
// is among the call's violations, and no invariant is recorded past the cap twice.
TEST(Checker, a_call_that_breaks_one_invariant_many_times_still_names_the_others) {
  std::string text = "scenario \"cap\"\n";
  std::string keys;
  for (int i = 1; i <= 26; ++i) {
    text += "at 0 p: EMQ.ADD q j" + std::to_string(i) + " x\n";
    keys += " \"emq:{q}:job:j" + std::to_string(i) + "\"";
  }
  text += "at 10 op: EVAL \"for i = 1, 25 do redis.call('HSET', KEYS[i], 'state', 'done') end "
          "redis.call('HSET', KEYS[26], 'failures', '9') return 1\" 26" + keys + "\n";
  auto parsed = scenario::parse_scenario(text, "cap.scn");
  ASSERT_TRUE(parsed.ok()) << scenario::to_string(parsed.error());
  const scenario::Scenario s = std::move(parsed).value();
  ScenarioReplay replay(s, "cap.scn", false);
  for (const auto& step : s.steps) (void)replay.step(step, false);
  const auto& broken = replay.checker().violations();
  ASSERT_FALSE(broken.empty());
  std::map<std::string, int> named;
  for (const auto& v : broken) ++named[v.invariant];
  EXPECT_GE(named["queue.transitions"] + named["queue.conserve"], 20) << "the cap was reached";
  EXPECT_EQ(named["queue.budget"], 1) << "the invariant judged after the cap is still named";
  EXPECT_LE(broken.size(), 20u + named.size()) << "past the cap, one per invariant at most";
}

// The checker's state graph: exactly INVARIANTS.md's four edges (queue.transitions), every
// other pair of states refused, and only edges counted.
TEST(StateGraph, allows_exactly_the_four_edges_and_counts_only_them) {
  StateGraph graph;
  int allowed = 0;
  for (const JobState from : all_job_states) {
    for (const JobState to : all_job_states) {
      const bool edge = std::find(allowed_transitions.begin(), allowed_transitions.end(),
                                  std::pair(from, to)) != allowed_transitions.end();
      EXPECT_EQ(graph.allowed(from, to), edge) << transition_name(from, to);
      EXPECT_EQ(graph.observe(from, to), edge) << transition_name(from, to);
      allowed += edge ? 1 : 0;
    }
  }
  EXPECT_EQ(allowed, 4);
  EXPECT_TRUE(graph.observe(JobState::active, JobState::done));
  EXPECT_EQ(graph.count(JobState::active, JobState::done), 2);
  EXPECT_EQ(graph.count(JobState::done, JobState::active), 0);
  EXPECT_EQ(graph.counts().at("pending->active"), 1);
}

// What a terminal or a text file gets: one line, printable, every byte still told apart.
TEST(Violation, its_line_spells_a_binary_payload_and_breaks_no_line) {
  Violation v;
  v.invariant = "verb.model";
  v.call = 7;
  v.true_ms = 300;
  v.facts = std::string("answered [[j1 1 \"a\0b\xff\"]]\nthe model expected", 43);
  EXPECT_EQ(v.describe_line(),
            "verb.model at call 7, t=300: answered [[j1 1 \"a\\x00b\\xff\"]] the model expected");
  EXPECT_NE(v.describe().find(std::string_view("a\0b", 3)), std::string::npos);  // describe() keeps the bytes
}

}  // namespace
}  // namespace trafikey::properties
