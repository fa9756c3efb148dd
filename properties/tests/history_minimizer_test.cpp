// The history minimizer (history_minimizer.h) on hand-written failing scenarios, on the
// real core: an operator's HSET that breaks a row's state, buried in noise (idle polls,
// other actors, repeated faults, late steps). The mutants (properties/mutants/) prove the
// same on wrong cores, found by the campaign.
#include <gtest/gtest.h>

#include <algorithm>

#include "properties/history_minimizer.h"
#include "properties/scenario_replay.h"
#include "sim/executor_scripts.h"
#include "sim/scenario/parse.h"

namespace trafikey::properties {
namespace {

namespace scn = trafikey::scenario;

scn::Scenario parse(const std::string& text) {
  auto parsed = scn::parse_scenario(text, "t.scn");
  EXPECT_TRUE(parsed.ok()) << scn::to_string(parsed.error());
  return parsed.ok() ? std::move(parsed).value() : scn::Scenario{};
}

// A job added and then marked done behind the core's back (queue.conserve: a done row
// still in pending), with a second queue's traffic, idle polls, repeated drifts
// and steps after the break around it.
const char* const noisy = R"(scenario "noisy"
option seed 7
at 0    p: EMQ.ADD orders j1 hello
at 0    q: EMQ.ADD other k1 x
at 5    w2: EMQ.CLAIM other 5000
at 10   w1: EMQ.CLAIM orders 5000
at 10   w1: EMQ.CLAIM orders 5000
at 20   w3: EMQ.STATS orders
at 30   drift 1.5
at 30   drift 1.5
at 40   w2: EMQ.CLAIM other 5000
at 1237 w3: EMQ.CLAIM orders 5000
at 1300 op: HSET "emq:{orders}:job:j1" state done
at 1400 w1: EMQ.STATS orders
at 1500 restart
at 1600 w3: EMQ.CLAIM orders 5000
)";

std::size_t actions(const scn::Scenario& s) {
  return static_cast<std::size_t>(std::count_if(s.steps.begin(), s.steps.end(), [](const scn::Step& step) {
    return !std::holds_alternative<scn::CheckInvariants>(step.action);
  }));
}

TEST(HistoryMinimizer, keeps_the_invariant_and_only_the_steps_it_needs) {
  const scn::Scenario input = parse(noisy);
  const auto broken = first_broken_invariant(input);
  ASSERT_TRUE(broken);
  const Minimized m = minimize_scenario(input, {});
  ASSERT_TRUE(m.failing) << m.error;
  ASSERT_TRUE(m.error.empty()) << m.error;
  EXPECT_EQ(m.invariant, *broken);
  EXPECT_TRUE(m.one_minimal);
  EXPECT_EQ(m.steps_before, 14u);
  // ADD and HSET (a pending row marked done): nothing else matters
  EXPECT_EQ(m.steps_after, 2u) << m.text;
  EXPECT_EQ(m.calls_after, 2);
  EXPECT_EQ(actions(m.scenario), 2u);
  // one actor left (op's HSET merged into p), and times moved to 0
  for (const scn::Step& step : m.scenario.steps) {
    EXPECT_EQ(step.time_ms, 0) << m.text;
    if (const auto* call = std::get_if<scn::Call>(&step.action)) {
      EXPECT_EQ(call->client, "p") << m.text;
      EXPECT_TRUE(call->expect) << "every reply spelled out";
    }
  }
  EXPECT_TRUE(std::holds_alternative<scn::CheckInvariants>(m.scenario.steps.back().action));
}

TEST(HistoryMinimizer, the_result_is_one_minimal) {
  const Minimized m = minimize_scenario(parse(noisy), {});
  ASSERT_TRUE(m.failing && m.error.empty()) << m.error;
  for (std::size_t i = 0; i + 1 < m.scenario.steps.size(); ++i) {
    scn::Scenario fewer = m.scenario;
    fewer.steps.erase(fewer.steps.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_FALSE(breaks_the_same(fewer, m.invariant, m.required)) << "without step " << i + 1 << " it still fails\n" << m.text;
  }
}

TEST(HistoryMinimizer, the_file_replays_every_reply_and_fails_at_its_last_step) {
  const Minimized m = minimize_scenario(parse(noisy), {});
  ASSERT_TRUE(m.failing && m.error.empty()) << m.error;
  const scn::Scenario again = parse(m.text);
  EXPECT_EQ(again, m.scenario);
  ScenarioReplay replay(again, "minimal.scn", true);
  const auto failed = replay.run();
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->first + 1, again.steps.size()) << "every reply matched before the final check";
  EXPECT_EQ(failed->second.invariant, m.invariant);
  EXPECT_EQ(replay.world().history().text(), m.history) << "the history written is the file's replay";
}

TEST(HistoryMinimizer, the_same_input_gives_the_same_file) {
  EXPECT_EQ(minimize_scenario(parse(noisy), {}).text, minimize_scenario(parse(noisy), {}).text);
}

TEST(HistoryMinimizer, a_passing_scenario_or_another_invariant_is_refused) {
  const Minimized passing = minimize_scenario(parse("scenario \"ok\"\nat 0 p: EMQ.ADD orders j1 x\n"), {});
  EXPECT_FALSE(passing.failing);
  EXPECT_NE(passing.error.find("no invariant"), std::string::npos) << passing.error;
  MinimizeOptions other;
  other.invariant = "epoch.exempt";
  const Minimized wrong = minimize_scenario(parse(noisy), other);
  EXPECT_FALSE(wrong.failing);
  EXPECT_NE(wrong.error.find("not epoch.exempt"), std::string::npos) << wrong.error;
}

TEST(HistoryMinimizer, a_spent_budget_stops_early_and_says_so) {
  MinimizeOptions small;
  small.replay_budget = 2;
  const Minimized m = minimize_scenario(parse(noisy), small);
  ASSERT_TRUE(m.failing);
  EXPECT_FALSE(m.one_minimal);
  EXPECT_LE(m.replays, 2);
  EXPECT_NE(m.text.find("budget ran out"), std::string::npos) << m.text;
}

// A claim through the scripted executor (an EVAL that only loads claim.lua, then its
// EVALSHA) becomes the native CLAIM when the failure does not need the script: the file a
// reviewer reads holds no script body.
TEST(HistoryMinimizer, a_scripted_call_becomes_its_native_verb_when_the_failure_stays) {
  using sim::ExecutorScript;
  scn::Scenario input;
  input.title = "scripted";
  input.options.seed = 7;
  auto call = [&](std::int64_t at, std::string client, std::vector<std::string> argv) {
    input.steps.push_back({at, 0, scn::Call{std::move(client), std::move(argv), std::nullopt}});
  };
  const std::string pending = "emq:{orders}:pending", active = "emq:{orders}:active";
  call(0, "w", {"EVAL", std::string(sim::executor_script_body(ExecutorScript::claim)), "2", pending, active, "5000", "1"});
  call(0, "p", {"EMQ.ADD", "orders", "j1", "hello"});
  call(10, "w", {"EVALSHA", std::string(sim::executor_script_sha(ExecutorScript::claim)), "2", pending, active, "5000", "1"});
  call(20, "op", {"HSET", "emq:{orders}:job:j1", "state", "pending"});  // active, row says pending
  ASSERT_EQ(first_broken_invariant(input), "queue.conserve");
  const Minimized m = minimize_scenario(input, {});
  ASSERT_TRUE(m.failing && m.error.empty()) << m.error;
  EXPECT_TRUE(m.one_minimal);
  EXPECT_EQ(m.calls_after, 3) << m.text;
  EXPECT_EQ(m.text.find("EVAL"), std::string::npos) << m.text;
  EXPECT_NE(m.text.find("EMQ.CLAIM orders 5000 COUNT 1"), std::string::npos) << m.text;
}

// A COUNT the failure does not need goes down to 1, and the jobs that only filled it go:
// the HSET breaks the row of j1, the first job claimed, whatever the COUNT.
TEST(HistoryMinimizer, a_count_the_failure_does_not_need_goes_down_to_one) {
  const Minimized m = minimize_scenario(parse(R"(scenario "count"
at 0 p: EMQ.ADD orders j1 a
at 0 p: EMQ.ADD orders j2 b
at 0 p: EMQ.ADD orders j3 c
at 0 w: EMQ.CLAIM orders 5000 COUNT 3
at 0 op: HSET "emq:{orders}:job:j1" state pending
)"), {});
  ASSERT_TRUE(m.failing && m.error.empty()) << m.error;
  EXPECT_TRUE(m.one_minimal);
  EXPECT_EQ(m.calls_after, 3) << m.text;
  EXPECT_NE(m.text.find("EMQ.CLAIM orders 5000 COUNT 1 "), std::string::npos) << m.text;
}

// The same failure is the same invariants at the first failing call, not just the first:
// one operator script breaks j1's state (queue.conserve, first) and j2's budget
// (queue.budget) at once. Without j2's ADD the script still breaks queue.conserve first,
// but not j2's budget (a row the ledger never saw): another failure, so the ADD stays.
TEST(HistoryMinimizer, keeps_every_invariant_the_first_failing_call_broke) {
  const scn::Scenario input = parse(R"(scenario "two at once"
at 0 p: EMQ.ADD orders j1 a
at 0 p: EMQ.ADD orders j2 b
at 0 w: EMQ.CLAIM orders 5000 COUNT 1
at 10 op: EVAL "redis.call('HSET', KEYS[1], 'state', 'done') redis.call('HSET', KEYS[2], 'failures', '9', 'max_failures', '3') return 1" 2 "emq:{orders}:job:j1" "emq:{orders}:job:j2"
at 20 w: EMQ.STATS orders
)");
  scn::Scenario without_j2 = input;
  without_j2.steps.erase(without_j2.steps.begin() + 1);
  ASSERT_EQ(first_broken_invariant(without_j2), "queue.conserve") << "the first invariant alone would let the ADD go";
  EXPECT_FALSE(breaks_the_same(without_j2, "queue.conserve", {"queue.budget", "queue.conserve"}));

  const Minimized m = minimize_scenario(input, {});
  ASSERT_TRUE(m.failing && m.error.empty()) << m.error;
  EXPECT_EQ(m.invariant, "queue.conserve");
  EXPECT_TRUE(std::binary_search(m.required.begin(), m.required.end(), "queue.budget")) << m.text;
  EXPECT_TRUE(m.one_minimal);
  EXPECT_EQ(m.calls_after, 3) << m.text;  // both ADDs and the script; the CLAIM and STATS go
  EXPECT_NE(m.text.find("EMQ.ADD orders j2 b"), std::string::npos) << m.text;
  EXPECT_EQ(m.text.find("EMQ.CLAIM"), std::string::npos) << m.text;
  EXPECT_TRUE(breaks_the_same(m.scenario, m.invariant, m.required));
}

}  // namespace
}  // namespace trafikey::properties
