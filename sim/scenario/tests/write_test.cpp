// The canonical text the writer produces (sim/scenario/write.h).
#include "sim/scenario/write.h"

#include <gtest/gtest.h>

#include "sim/scenario/parse.h"
#include "sim/scenario/tests/builders.h"

namespace trafikey::scenario {
namespace {

using namespace builders;

Scenario spec_scenario() {
  return Scenario{
      "a lease that crosses a restart goes back uncounted",
      Options{Persistence::always, 7},
      {
          at(0, call("a", {"EMQ.ADD", "orders", "j1", "hello"}, I(1))),
          at(0, call("a", {"EMQ.CLAIM", "orders", "1000"}, A({A({S("j1"), I(1), S("hello")})}))),
          at(400, Restart{}),
          at(1500, call("s", {"EMQ.STALLED.CHECK", "orders", "1"},
                        A({S("recovered"), A({S("j1")}), S("dead"), A(), S("ghosts"), A(),
                           S("lanes"), A()}))),
          at(1500, CheckRow{"orders", "j1", {{"state", "pending"}, {"stalled", std::nullopt}}}),
          at(1500, CheckInvariants{}),
      }};
}

TEST(Write, spec_example_in_canonical_layout) {
  EXPECT_EQ(write_scenario(spec_scenario()),
            R"(scenario "a lease that crosses a restart goes back uncounted"
option persistence always
option seed 7

at 0     a: EMQ.ADD orders j1 hello     => 1
at 0     a: EMQ.CLAIM orders 1000       => [[j1 1 hello]]
at 400   restart
at 1500  s: EMQ.STALLED.CHECK orders 1  => [recovered [j1] dead [] ghosts [] lanes []]
at 1500  check row orders j1 state=pending stalled=-
at 1500  check invariants
)");
}

TEST(Write, canonical_text_is_a_fixed_point) {
  const std::string text = write_scenario(spec_scenario());
  auto back = parse_scenario(text, "canonical.scn");
  ASSERT_TRUE(back.ok()) << to_string(back.error());
  EXPECT_EQ(back.value(), spec_scenario());
  EXPECT_EQ(write_scenario(back.value()), text);
}

TEST(Write, no_steps_gives_the_header_only) {
  EXPECT_EQ(write_scenario(Scenario{"empty", Options{Persistence::none, 0}, {}}),
            "scenario \"empty\"\noption persistence none\noption seed 0\n");
}

TEST(Write, every_step_form) {
  EXPECT_EQ(write_action(Failover{}), "failover");
  EXPECT_EQ(write_action(ClockStep{2000}), "clock +2000");
  EXPECT_EQ(write_action(ClockStep{-300}), "clock -300");
  EXPECT_EQ(write_action(ClockStep{0}), "clock +0");
  EXPECT_EQ(write_action(Drift{1.5}), "drift 1.5");
  EXPECT_EQ(write_action(Drift{0.1}), "drift 0.1");
  EXPECT_EQ(write_action(Drift{1000}), "drift 1000");
  EXPECT_EQ(write_action(EpochFault{EpochFault::Kind::fail}), "epoch fail");
  EXPECT_EQ(write_action(EpochFault{EpochFault::Kind::malformed_drawn}), "epoch malformed");
  EXPECT_EQ(write_action(EpochFault{EpochFault::Kind::malformed_text, "0123\n"}), "epoch malformed \"0123\\x0a\"");
  EXPECT_EQ(write_action(EpochFault{EpochFault::Kind::malformed_text, ""}), "epoch malformed \"\"") << "an empty read";
  EXPECT_EQ(write_action(EpochFault{EpochFault::Kind::run_id, "0123456789abcdef0123456789abcdef01234567"}),
            "epoch 0123456789abcdef0123456789abcdef01234567");
  EXPECT_EQ(write_action(Lose{"w1"}), "lose w1");
  EXPECT_EQ(write_action(CheckSet{"q", SetName::dead, {}}), "check set q dead");
  EXPECT_EQ(write_action(CheckSet{"q", SetName::pending, {"j2", "j 1"}}),
            "check set q pending j2 \"j 1\"");
  EXPECT_EQ(write_action(call("w", {"EMQ.EPOCH"})), "w: EMQ.EPOCH");
  EXPECT_EQ(write_action(call("w", {"EMQ.EPOCH"}, Any())), "w: EMQ.EPOCH => _");
}

TEST(Write, awkward_values_are_quoted) {
  EXPECT_EQ(write_action(call("a", {"EMQ.ADD", "my queue", "", "=>", "-", "12"})),
            R"(a: EMQ.ADD "my queue" "" "=>" "-" 12)");
  EXPECT_EQ(write_action(CheckRow{
                "q", "j", {{"result", "-"}, {"odd field", ">x"}, {"error", std::nullopt}}}),
            R"(check row q j result="-" "odd field"=">x" error=-)");
  EXPECT_EQ(write_action(call("a", {"EMQ.JOB", "q", "j"},
                              A({S("attempts"), S("0"), S("payload"), S("a\nb")}))),
            R"(a: EMQ.JOB q j => [attempts "0" payload "a\x0ab"])");
  const std::string text = write_scenario(Scenario{"say \"hi\"\n", {}, {}});
  EXPECT_EQ(text.substr(0, text.find('\n')), R"(scenario "say \"hi\"\x0a")");
}

TEST(Write, a_call_wider_than_the_alignment_limit_is_not_padded_and_pushes_no_other) {
  const std::string wide(arrow_column_max, 'x');
  const Scenario s{"t",
                   {},
                   {at(0, call("a", {"EMQ.ADD", "q", wide, "p"}, I(1))),
                    at(0, call("a", {"EMQ.STATS", "q"}, Any()))}};
  EXPECT_EQ(write_scenario(s),
            "scenario \"t\"\noption persistence always\noption seed 1\n\n"
            "at 0  a: EMQ.ADD q " +
                wide +
                " p  => 1\n"
                "at 0  a: EMQ.STATS q  => _\n");
}

TEST(Write, step_on_one_line_for_messages) {
  EXPECT_EQ(write_step(at(1500, CheckRow{"orders", "j1", {{"state", "pending"}}})),
            "at 1500 check row orders j1 state=pending");
  EXPECT_EQ(write_step(at(0, call("a", {"EMQ.ADD", "orders", "j1", "hello"}, I(1)))),
            "at 0 a: EMQ.ADD orders j1 hello => 1");
}

TEST(Write, defects_are_named_with_their_step) {
  EXPECT_EQ(find_defect(spec_scenario()), std::nullopt);
  Scenario s = spec_scenario();
  s.steps[2].time_ms = -1;
  EXPECT_EQ(find_defect(s), "step 3: time out of range");
  s = spec_scenario();
  s.steps[3].time_ms = 100;
  EXPECT_EQ(find_defect(s), "step 4: time goes backwards");
  s = spec_scenario();
  std::get<Call>(s.steps[0].action).client = "a:b";
  EXPECT_NE(find_defect(s), std::nullopt);
  s = spec_scenario();
  std::get<Call>(s.steps[0].action).argv = {"GET", "k"};
  EXPECT_EQ(find_defect(s), "step 1: unknown verb GET");
  s = spec_scenario();
  std::get<CheckRow>(s.steps[4].action).fields.push_back({"state", "done"});
  EXPECT_EQ(find_defect(s), "step 5: a row check names a field twice");
  s = spec_scenario();
  s.steps.push_back(at(2000, Drift{-1}));
  EXPECT_EQ(find_defect(s), "step 7: a drift rate out of 0..1000");
  s.steps.back() = at(2000, ClockStep{time_ms_max + 1});
  EXPECT_NE(find_defect(s), std::nullopt);
  s.steps.back() = at(2000, CheckRow{"q", "j", {}});
  EXPECT_EQ(find_defect(s), "step 7: a row check needs at least one field");
}

}  // namespace
}  // namespace trafikey::scenario
