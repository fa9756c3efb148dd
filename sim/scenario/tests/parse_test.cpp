// What the parser builds from well-formed files (sim/scenario/parse.h).
#include "sim/scenario/parse.h"
#include "sim/scenario/write.h"

#include <gtest/gtest.h>

#include "sim/scenario/tests/builders.h"

namespace trafikey::scenario {
namespace {

using namespace builders;

// The example of shared spec SCENARIO.md, byte for byte.
constexpr std::string_view spec_example = R"(# Everything after '#' on a line is a comment.
scenario "a lease that crosses a restart goes back uncounted"
option persistence always        # always | everysec | snapshot | none
option seed 7                    # PRNG seed for run_ids and anything drawn

at 0     a: EMQ.ADD orders j1 hello              => 1
at 0     a: EMQ.CLAIM orders 1000                => [[j1 1 hello]]
at 400   restart
at 1500  s: EMQ.STALLED.CHECK orders 1           => [recovered [j1] dead [] ghosts [] lanes []]
at 1500  check row orders j1 state=pending stalled=-
at 1500  check invariants
)";

Scenario parsed(std::string_view text) {
  auto p = parse_scenario(text, "test.scn");
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : to_string(p.error()));
  return p.ok() ? p.value() : Scenario{};
}

// The steps of a file made of a title and these lines.
std::vector<Step> steps_of(std::string_view lines) {
  return parsed("scenario \"t\"\n" + std::string(lines)).steps;
}

Action action_of(std::string_view step_line) {
  const auto steps = steps_of(step_line);
  EXPECT_EQ(steps.size(), 1u) << step_line;
  return steps.empty() ? Action{} : steps[0].action;
}

TEST(Parse, spec_example_gives_exactly_the_expected_tree) {
  Scenario expected;
  expected.title = "a lease that crosses a restart goes back uncounted";
  expected.options = Options{Persistence::always, 7};
  expected.steps = {
      at(0, call("a", {"EMQ.ADD", "orders", "j1", "hello"}, I(1)), 6),
      at(0, call("a", {"EMQ.CLAIM", "orders", "1000"}, A({A({S("j1"), I(1), S("hello")})})), 7),
      at(400, Restart{}, 8),
      at(1500,
         call("s", {"EMQ.STALLED.CHECK", "orders", "1"},
              A({S("recovered"), A({S("j1")}), S("dead"), A(), S("ghosts"), A(), S("lanes"), A()})),
         9),
      at(1500, CheckRow{"orders", "j1", {{"state", "pending"}, {"stalled", std::nullopt}}}, 10),
      at(1500, CheckInvariants{}, 11),
  };
  const Scenario got = parsed(spec_example);
  EXPECT_EQ(got, expected);
  ASSERT_EQ(got.steps.size(), expected.steps.size());
  for (std::size_t i = 0; i < got.steps.size(); ++i) {
    EXPECT_EQ(got.steps[i].line, expected.steps[i].line) << "step " << i;
  }
  EXPECT_TRUE(real_capable(got));
}

TEST(Parse, options_default_to_always_and_seed_1) {
  const Scenario s = parsed("scenario \"t\"\n");
  EXPECT_EQ(s.options.persistence, Persistence::always);
  EXPECT_EQ(s.options.seed, 1u);
  EXPECT_TRUE(s.steps.empty());
}

TEST(Parse, every_persistence_mode_and_the_whole_seed_range) {
  for (auto [name, mode] :
       {std::pair{"always", Persistence::always}, std::pair{"everysec", Persistence::everysec},
        std::pair{"snapshot", Persistence::snapshot}, std::pair{"none", Persistence::none}}) {
    EXPECT_EQ(parsed("scenario \"t\"\noption persistence " + std::string(name)).options.persistence,
              mode);
  }
  EXPECT_EQ(parsed("scenario \"t\"\noption seed 0").options.seed, 0u);
  EXPECT_EQ(parsed("scenario \"t\"\noption seed 18446744073709551615").options.seed,
            18446744073709551615u);
}

TEST(Parse, title_keeps_escaped_bytes) {
  EXPECT_EQ(parsed(R"(scenario "a \"quoted\" \x00 title")").title,
            std::string("a \"quoted\" \0 title", 18));
}

TEST(Parse, call_arguments_are_tokens_and_strings_are_one_argument) {
  EXPECT_EQ(action_of(R"(at 0 a: EMQ.ADD orders j1 "two words")"),
            Action(call("a", {"EMQ.ADD", "orders", "j1", "two words"})));
  EXPECT_EQ(action_of(R"(at 0 a: EMQ.ADD orders "" "\x00\xff")"),
            Action(call("a", {"EMQ.ADD", "orders", "", std::string("\0\xff", 2)})));
}

TEST(Parse, call_without_arrow_has_no_expectation_and_underscore_is_any) {
  EXPECT_EQ(action_of("at 0 w1: EMQ.EPOCH"), Action(call("w1", {"EMQ.EPOCH"})));
  EXPECT_EQ(action_of("at 0 w1: EMQ.EPOCH => _"), Action(call("w1", {"EMQ.EPOCH"}, Any())));
}

TEST(Parse, verbs_are_any_case_and_kept_as_written) {
  EXPECT_EQ(action_of("at 0 a: emq.add q j p => 1"),
            Action(call("a", {"emq.add", "q", "j", "p"}, I(1))));
  EXPECT_EQ(action_of("at 0 a: hset emq:{q}:job:j group g => 1"),
            Action(call("a", {"hset", "emq:{q}:job:j", "group", "g"}, I(1))));
}

TEST(Parse, client_names_are_any_plain_word) {
  EXPECT_EQ(action_of("at 0 worker-2.b: EMQ.STATS q"),
            Action(call("worker-2.b", {"EMQ.STATS", "q"})));
  EXPECT_EQ(action_of("at 0 restart: EMQ.STATS q"), Action(call("restart", {"EMQ.STATS", "q"})));
}

TEST(Parse, expectations_of_every_reply_form) {
  EXPECT_EQ(std::get<Call>(action_of("at 0 a: EMQ.JOB q j => nil")).expect, Nil());
  EXPECT_EQ(std::get<Call>(action_of(R"(at 0 a: EMQ.CLAIM q 0 => error "ERR EMQ lease out of range")"))
                .expect,
            Err("ERR EMQ lease out of range"));
  EXPECT_EQ(std::get<Call>(action_of("at 0 a: EMQ.CLAIM q 10 => []")).expect, A());
  EXPECT_EQ(
      std::get<Call>(action_of(R"(at 0 a: EMQ.JOB q j => [attempts "0" payload "a b"])")).expect,
      A({S("attempts"), S("0"), S("payload"), S("a b")}));
  EXPECT_EQ(std::get<Call>(action_of("at 0 a: EMQ.FAIL q j 1 oops => -0x")).expect, S("-0x"));
}

TEST(Parse, fault_steps) {
  EXPECT_EQ(action_of("at 5 failover"), Action(Failover{}));
  EXPECT_EQ(action_of("at 5 clock +2000"), Action(ClockStep{2000}));
  EXPECT_EQ(action_of("at 5 clock -300"), Action(ClockStep{-300}));
  EXPECT_EQ(action_of("at 5 clock +9007199254740991"), Action(ClockStep{time_ms_max}));
  EXPECT_EQ(action_of("at 5 drift 1.5"), Action(Drift{1.5}));
  EXPECT_EQ(action_of("at 5 drift 0"), Action(Drift{0.0}));
  EXPECT_EQ(action_of("at 5 drift 1000"), Action(Drift{1000.0}));
  EXPECT_EQ(action_of("at 5 epoch fail"), Action(EpochFault{EpochFault::Kind::fail}));
  EXPECT_EQ(action_of("at 5 epoch malformed"), Action(EpochFault{EpochFault::Kind::malformed_drawn}));
  EXPECT_EQ(action_of("at 5 epoch malformed \"0123456789ABCDEF0123456789abcdef01234567\""),
            Action(EpochFault{EpochFault::Kind::malformed_text, "0123456789ABCDEF0123456789abcdef01234567"}));
  // "" is an empty read, exactly: not a shape drawn
  EXPECT_EQ(action_of("at 5 epoch malformed \"\""), Action(EpochFault{EpochFault::Kind::malformed_text, ""}));
  const std::string id = "0123456789abcdef0123456789abcdef01234567";
  EXPECT_EQ(action_of("at 5 epoch " + id), Action(EpochFault{EpochFault::Kind::run_id, id}));
  EXPECT_EQ(action_of("at 5 epoch \"" + id + "\""), Action(EpochFault{EpochFault::Kind::run_id, id}));
  EXPECT_EQ(action_of("at 5 lose w1"), Action(Lose{"w1"}));
  EXPECT_EQ(action_of("at 5 replica"), Action(ReplicaRole{true}));
  EXPECT_EQ(action_of("at 5 primary"), Action(ReplicaRole{false}));
  EXPECT_EQ(action_of("at 5 deny \"emq:{q}:active\""), Action(WriteDenied{"emq:{q}:active"}));
  EXPECT_EQ(action_of("at 5 allow"), Action(WriteDenied{}));
}

TEST(Parse, row_checks_take_quoted_names_values_and_dash_for_absent) {
  EXPECT_EQ(
      action_of(R"(at 0 check row "my q" j1 payload="two words" "odd field"=x error=- result="-")"),
      Action(CheckRow{"my q",
                      "j1",
                      {{"payload", "two words"},
                       {"odd field", "x"},
                       {"error", std::nullopt},
                       {"result", "-"}}}));
  EXPECT_EQ(action_of("at 0 check row q j state = done"),
            Action(CheckRow{"q", "j", {{"state", "done"}}}));
  EXPECT_EQ(action_of(R"(at 0 check row q j payload="")"),
            Action(CheckRow{"q", "j", {{"payload", ""}}}));
}

TEST(Parse, set_checks_list_members_in_order_or_none) {
  EXPECT_EQ(action_of("at 0 check set orders pending j2 j1 \"j 3\""),
            Action(CheckSet{"orders", SetName::pending, {"j2", "j1", "j 3"}}));
  EXPECT_EQ(action_of("at 0 check set orders dead"), Action(CheckSet{"orders", SetName::dead, {}}));
  EXPECT_EQ(action_of("at 0 check set orders active"),
            Action(CheckSet{"orders", SetName::active, {}}));
  EXPECT_EQ(action_of("at 0 check set orders done j"),
            Action(CheckSet{"orders", SetName::done, {"j"}}));
}

TEST(Parse, equal_times_keep_file_order_and_lines) {
  const auto steps = steps_of("\n# c\nat 7 restart\n\nat 7 failover  # same time\nat 8 restart");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].line, 4);
  EXPECT_EQ(steps[1].line, 6);
  EXPECT_EQ(steps[2].line, 7);
  EXPECT_EQ(steps[1].action, Action(Failover{}));
}

TEST(Parse, crlf_line_ends_and_indentation_are_whitespace) {
  const Scenario s = parsed("scenario \"t\"\r\n  option seed 3\r\n\tat 0 restart\r\n");
  EXPECT_EQ(s.options.seed, 3u);
  ASSERT_EQ(s.steps.size(), 1u);
}

TEST(Parse, sim_only_steps_make_a_file_sim_only) {
  for (std::string_view line : {"at 0 epoch fail", "at 0 epoch malformed"}) {
    const auto steps = steps_of(line);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_TRUE(sim_only(steps[0])) << line;
    EXPECT_FALSE(real_capable(Scenario{"t", {}, steps})) << line;
  }
  // `epoch RUN_ID` only names the sim's next run_id: a real runner maps its own to it
  for (std::string_view line : {"at 0 restart", "at 0 failover", "at 0 failback", "at 0 clock +1", "at 0 drift 2",
                                "at 0 lose a", "at 0 epoch 0123456789abcdef0123456789abcdef01234567",
                                "at 0 a: EMQ.STATS q", "at 0 check invariants",
                                "at 0 check set q done", "at 0 check row q j state=done", "at 0 replica",
                                "at 0 primary", "at 0 deny k", "at 0 allow"}) {
    const auto steps = steps_of(line);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_FALSE(sim_only(steps[0])) << line;
  }
}

TEST(Parse, everything_parsed_is_well_formed) {
  EXPECT_EQ(find_defect(parsed(spec_example)), std::nullopt);
}

}  // namespace
}  // namespace trafikey::scenario

namespace trafikey::scenario {
namespace {
TEST(Parse, harness_options_for_exact_replays) {
  const auto parsed = parse_scenario(
      "scenario \"t\"\noption persistence everysec\noption snapshot_interval_ms 1500\n"
      "option replication_lag_ms 80\nat 0 restart\n",
      "t.scn");
  ASSERT_TRUE(parsed.ok()) << to_string(parsed.error());
  EXPECT_EQ(parsed.value().options.snapshot_interval_ms, 1500);
  EXPECT_EQ(parsed.value().options.replication_lag_ms, 80);
  EXPECT_NE(write_scenario(parsed.value()).find("option replication_lag_ms 80\n"), std::string::npos);
  EXPECT_FALSE(parse_scenario("scenario \"t\"\noption replication_lag_ms 0\n", "t.scn").ok());
}
}  // namespace
}  // namespace trafikey::scenario
