// Malformed files are refused with the file, line, column and what was expected there
// (sim/scenario/parse.h).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>
#include <vector>

#include "sim/lua.h"
#include "sim/plain.h"
#include "sim/scenario/parse.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {
namespace {

struct Refusal {
  int line;
  int column;
  std::string_view message_part;  // the message must contain this
};

void expect_refused(std::string_view text, Refusal want) {
  auto p = parse_scenario(text, "orders.scn");
  ASSERT_FALSE(p.ok()) << "accepted:\n" << text;
  const ParseError& e = p.error();
  EXPECT_EQ(e.file, "orders.scn");
  EXPECT_EQ(e.line, want.line) << to_string(e);
  EXPECT_EQ(e.column, want.column) << to_string(e);
  EXPECT_NE(e.message.find(want.message_part), std::string::npos)
      << to_string(e) << "\n  wanted: " << want.message_part;
  EXPECT_NE(e.message.find("expected"), std::string::npos)
      << "says what was expected: " << e.message;
}

// A file with a title line, so the line under test is line 2.
void expect_step_refused(std::string_view line, int column, std::string_view message_part) {
  expect_refused("scenario \"t\"\n" + std::string(line) + "\n", {2, column, message_part});
}

// A message's words, split at spaces, parentheses and commas.
std::set<std::string> words_of(const std::string& message) {
  std::set<std::string> words;
  std::string word;
  for (const char c : message + " ") {
    if (c == ' ' || c == '(' || c == ')' || c == ',') {
      if (!word.empty()) words.insert(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

TEST(ParseError, renders_as_file_line_column_message) {
  EXPECT_EQ(to_string(ParseError{"orders.scn", 7, 31, "expected a reply after '=>'"}),
            "orders.scn:7:31: expected a reply after '=>'");
  EXPECT_EQ(to_string(ParseError{"", 1, 2, "expected x"}), "1:2: expected x");
}

TEST(ParseError, missing_arrow_target) {
  expect_step_refused("at 0 a: EMQ.ADD q j x =>", 25, "expected a reply after '=>'");
  expect_step_refused("at 0 a: EMQ.ADD q j x =>   # nothing", 25, "expected a reply after '=>'");
}

TEST(ParseError, unknown_step) {
  expect_step_refused("at 0 explode", 6, "expected a step (CLIENT: VERB ..., restart");
  expect_step_refused("at 0 a:EMQ.ADD q j x", 6, "found 'a:EMQ.ADD'");
  expect_step_refused("at 0", 5, "expected a step");
  expect_step_refused("at 0 \"restart\"", 6, "expected a step");
}

// The message of an unknown step names the first word of every kind of step the writer
// writes (one of each alternative of Action), so a step added to the language without
// adding it to the message fails here.
TEST(ParseError, an_unknown_step_lists_every_step) {
  const std::vector<Action> one_of_each{
      Call{"a", {"EMQ.STATS", "q"}, std::nullopt}, Restart{}, Failover{}, ClockStep{5}, Drift{1.5},
      EpochFault{EpochFault::Kind::fail}, Lose{"a"}, CheckRow{"q", "j1", {{"state", "done"}}},
      CheckSet{"q", SetName::done, {}}, CheckInvariants{}, Reload{}, ReplicaRole{true}, ReplicaRole{false},
      WriteDenied{"k"}, WriteDenied{}, Failback{}};
  std::set<std::size_t> kinds;
  for (const Action& a : one_of_each) kinds.insert(a.index());
  ASSERT_EQ(kinds.size(), std::variant_size_v<Action>) << "one step of each kind";
  auto p = parse_scenario("scenario \"t\"\nat 0 explode\n", "orders.scn");
  ASSERT_FALSE(p.ok());
  const std::string& message = p.error().message;
  const std::set<std::string> words = words_of(message);
  for (const Action& a : one_of_each) {
    std::string word = write_action(a).substr(0, write_action(a).find(' '));
    if (std::holds_alternative<Call>(a)) word = "CLIENT:";
    EXPECT_TRUE(words.contains(word)) << word << " is not named in: " << message;
  }
}

TEST(ParseError, time_going_backwards) {
  expect_refused("scenario \"t\"\nat 400 restart\nat 300 restart\n",
                 {3, 4, "expected a time of at least 400 (the time on line 2), found 300"});
}

TEST(ParseError, unterminated_string) {
  expect_step_refused("at 0 a: EMQ.ADD q j \"two words", 21, "unterminated string");
  expect_refused("scenario \"t", {1, 10, "unterminated string"});
}

TEST(ParseError, missing_scenario_line) {
  expect_refused("", {1, 1, "expected a 'scenario \"TITLE\"' line, found the end of the file"});
  expect_refused("# just a comment\n", {2, 1, "found the end of the file"});
  expect_refused("# c\n  at 0 restart\n",
                 {2, 3, "expected 'scenario \"TITLE\"' as the first line, found 'at'"});
  expect_refused("option seed 1\nscenario \"t\"\n", {1, 1, "as the first line"});
}

TEST(ParseError, repeated_scenario_line) {
  expect_refused("scenario \"a\"\nat 0 restart\nscenario \"b\"\n",
                 {3, 1, "expected one 'scenario' line, found a second (the first is on line 1)"});
}

TEST(ParseError, title_must_be_quoted) {
  expect_refused("scenario hello\n", {1, 10, "expected a quoted title after 'scenario'"});
  expect_refused("scenario\n", {1, 9, "found the end of the line"});
  expect_refused("scenario \"a\" \"b\"\n", {1, 14, "expected the end of the line after the title"});
}

TEST(ParseError, option_after_the_first_step) {
  expect_refused("scenario \"t\"\nat 0 restart\noption seed 3\n",
                 {3, 1, "expected 'at': options come before the first step (line 2)"});
}

TEST(ParseError, unknown_or_repeated_option) {
  expect_step_refused("option colour blue", 8, "expected an option name (persistence, seed, snapshot_interval_ms or replication_lag_ms)");
  expect_refused("scenario \"t\"\noption seed 1\noption seed 2\n",
                 {3, 8, "found 'seed' again (first set on line 2)"});
}

TEST(ParseError, bad_option_values) {
  expect_step_refused("option persistence sometimes", 20,
                      "expected a persistence mode: always, everysec, snapshot or none");
  expect_step_refused("option persistence", 19, "found the end of the line");
  for (std::string_view bad : {"-1", "1x", "18446744073709551616", "007", "\"7\""}) {
    expect_step_refused("option seed " + std::string(bad), 13, "expected a seed");
  }
  expect_step_refused("option seed 1 2", 15, "expected the end of the line");
}

TEST(ParseError, bad_times) {
  for (std::string_view bad : {"x", "-1", "007", "1.5", "9007199254740992", "+3"}) {
    expect_step_refused("at " + std::string(bad) + " restart", 4,
                        "expected a time in ms after 'at'");
  }
}

TEST(ParseError, unknown_line_start) {
  expect_step_refused("hello world", 1, "expected 'at' or 'option' at the start of a line");
  expect_step_refused("  [", 3, "found '['");
}

// The message of an unknown verb names every command a call may send besides the EMQ
// verbs, from the tables the parser accepts them by.
TEST(ParseError, an_unknown_verb_lists_every_plain_and_script_command) {
  auto p = parse_scenario("scenario \"t\"\nat 0 a: GET k\n", "orders.scn");
  ASSERT_FALSE(p.ok());
  const std::string& message = p.error().message;
  const std::set<std::string> words = words_of(message);
  std::vector<std::string> names = sim::plain_command_names();
  names.insert(names.end(), sim::Scripting::command_names.begin(), sim::Scripting::command_names.end());
  ASSERT_GE(names.size(), 16u);
  for (const std::string& name : names) {
    EXPECT_TRUE(words.contains(name)) << name << " is not named in: " << message;
    EXPECT_TRUE(parse_scenario("scenario \"t\"\nat 0 a: " + name + " k\n", "").ok()) << name << " is a verb";
  }
}

TEST(ParseError, unknown_verb_or_bad_client) {
  expect_step_refused("at 0 a: EMQ.NOPE q", 9, "expected an EMQ verb, a plain command (HSET");
  expect_step_refused("at 0 a: GET k", 9, "found 'GET'");
  expect_step_refused("at 0 a:", 8, "found the end of the line");
  expect_step_refused("at 0 a: \"EMQ.ADD\" q j p", 9, "expected an EMQ verb");
  expect_step_refused("at 0 a:b: EMQ.ADD q j p", 6,
                      "expected a client name (a plain word without ':')");
  expect_step_refused("at 0 a\\: EMQ.ADD q j p", 6, "expected a client name");
}

TEST(ParseError, punctuation_in_arguments_must_be_quoted) {
  expect_step_refused("at 0 a: EMQ.ADD q [j] x", 19,
                      "expected an argument, '=>' or the end of the line");
  expect_step_refused("at 0 a: HSET k f a=b", 19, "quote an argument");
}

TEST(ParseError, bad_replies) {
  expect_step_refused("at 0 a: EMQ.STATS q => [pending 1", 34,
                      "expected ']' to close the array opened at column 24");
  expect_step_refused("at 0 a: EMQ.STATS q => 007", 24, "expected an integer reply in int64");
  expect_step_refused("at 0 a: EMQ.STATS q => 99999999999999999999", 24, "(quote it for a string)");
  expect_step_refused("at 0 a: EMQ.STATS q => error oops", 30,
                      "expected the error text as a quoted string after 'error'");
  expect_step_refused("at 0 a: EMQ.STATS q => 1 2", 26,
                      "expected the end of the line after the reply");
  expect_step_refused("at 0 a: EMQ.STATS q => ]", 24, "expected a reply (an integer");
  expect_step_refused("at 0 a: EMQ.STATS q => =>", 24, "found '=>'");
  expect_step_refused("at 0 a: EMQ.STATS q => 1 => 1", 26, "found '=>'");
}

TEST(ParseError, replies_nest_at_most_reply_depth_max) {
  const std::string ok = std::string(reply_depth_max, '[') + std::string(reply_depth_max, ']');
  EXPECT_TRUE(parse_scenario("scenario \"t\"\nat 0 a: EMQ.STATS q => " + ok, "f").ok());
  const std::string deep = "[" + ok + "]";
  expect_step_refused("at 0 a: EMQ.STATS q => " + deep, 24 + reply_depth_max,
                      "expected at most 32 nested arrays");
}

TEST(ParseError, bad_escapes_and_bytes) {
  expect_step_refused(R"(at 0 a: EMQ.ADD q j "\q")", 22, "expected an escape");
  expect_step_refused(R"(at 0 a: EMQ.ADD q j "\x4")", 22, "expected two hex digits after '\\x'");
  expect_step_refused("at 0 a: EMQ.ADD q j caf\xc3\xa9", 24, "unexpected byte \\xc3");
  expect_step_refused("at 0 a: EMQ.ADD q j \x01", 21, "unexpected byte \\x01");
}

TEST(ParseError, trailing_words_after_a_complete_step) {
  expect_step_refused("at 0 restart now", 14, "expected the end of the line after 'restart'");
  expect_step_refused("at 0 failover 2", 15, "expected the end of the line after 'failover'");
  expect_step_refused("at 0 check invariants all", 23, "expected the end of the line");
  expect_step_refused("at 0 epoch fail twice", 17, "expected the end of the line");
  expect_step_refused("at 0 lose a b", 13, "expected the end of the line");
  expect_step_refused("at 0 clock +5 +5", 15, "expected the end of the line");
  expect_step_refused("at 0 drift 2 3", 14, "expected the end of the line");
}

TEST(ParseError, bad_fault_arguments) {
  expect_step_refused("at 0 clock 500", 12, "expected a signed step in ms after 'clock'");
  expect_step_refused("at 0 clock +x", 12, "expected a signed step");
  expect_step_refused("at 0 clock +007", 12, "expected a signed step");
  expect_step_refused("at 0 clock -9007199254740992", 12, "expected a signed step");
  expect_step_refused("at 0 clock", 11, "found the end of the line");
  for (std::string_view bad : {"fast", "-1", "1000.5", "nan", "inf", "0x10", "\"1\""}) {
    expect_step_refused("at 0 drift " + std::string(bad), 12, "expected a rate after 'drift'");
  }
  expect_step_refused("at 0 epoch broken", 12,
                      "expected 'fail', 'malformed' (optionally with the malformed text, quoted) or a run_id "
                      "(40 lowercase hex digits) after 'epoch'");
  // the text of a malformed run_id is never a good one, and nothing follows it
  expect_step_refused("at 0 epoch malformed \"0123456789abcdef0123456789abcdef01234567\"", 22,
                      "a malformed run_id after 'epoch malformed' (this one is 40 lowercase hex digits)");
  expect_step_refused("at 0 epoch malformed \"0123\" x", 29, "after the epoch fault");
  // a run_id one digit short, or in upper case, is not one
  expect_step_refused("at 0 epoch 0123456789abcdef0123456789abcdef0123456", 12, "a run_id (40 lowercase hex");
  expect_step_refused("at 0 epoch 0123456789ABCDEF0123456789abcdef01234567", 12, "a run_id (40 lowercase hex");
  expect_step_refused("at 0 lose", 10, "expected a client name after 'lose'");
  expect_step_refused("at 0 lose a:", 11, "expected a client name after 'lose'");
}

TEST(ParseError, bad_checks) {
  expect_step_refused("at 0 check everything", 12,
                      "expected 'row', 'set' or 'invariants' after 'check'");
  expect_step_refused("at 0 check set q running", 18,
                      "expected a set name: pending, active, done or dead");
  expect_step_refused("at 0 check set q", 17, "expected a set name");
  expect_step_refused("at 0 check set", 15, "expected a queue name after 'check set'");
  expect_step_refused("at 0 check set q done j1 [j2]", 26,
                      "expected a job id or the end of the line");
  expect_step_refused("at 0 check row q j", 19, "expected a field check F=V");
  expect_step_refused("at 0 check row q", 17, "expected a job id after the queue name");
  expect_step_refused("at 0 check row", 15, "expected a queue name after 'check row'");
  expect_step_refused("at 0 check row q j state", 25, "expected '=' after the field name");
  expect_step_refused("at 0 check row q j state=", 26,
                      "expected a value or '-' (absent) after '='");
  expect_step_refused("at 0 check row q j state=done state=dead", 31,
                      "expected each field once in a row check, found 'state' again");
  expect_step_refused("at 0 check row q j state=>x", 25, "expected '=' after the field name");
}

TEST(ParseError, the_first_error_is_the_one_reported) {
  expect_refused("scenario \"t\"\nat 5 bogus\nat 1 restart\n", {2, 6, "expected a step"});
}

TEST(ParseError, reply_pattern_alone_names_line_1) {
  auto p = parse_reply_pattern("[1 2");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(to_string(p.error()), "1:5: expected ']' to close the array opened at column 1");
  EXPECT_FALSE(parse_reply_pattern("").ok());
  EXPECT_FALSE(parse_reply_pattern("1 2").ok());
}

}  // namespace
}  // namespace trafikey::scenario
