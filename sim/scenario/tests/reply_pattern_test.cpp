// Reply patterns: matches() on every reply form, and the notation of replies
// (sim/scenario/reply_pattern.h), including its round trip through the parser.
#include "sim/scenario/reply_pattern.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "sim/scenario/parse.h"
#include "sim/scenario/tests/builders.h"

namespace trafikey::scenario {
namespace {

using namespace builders;

ReplyPattern parsed(std::string_view text) {
  auto p = parse_reply_pattern(text);
  EXPECT_TRUE(p.ok()) << text << ": " << (p.ok() ? "" : to_string(p.error()));
  return p.ok() ? p.value() : Any();
}

TEST(ReplyPattern, integer_matches_only_that_integer) {
  EXPECT_TRUE(matches(I(1), Reply::integer(1)));
  EXPECT_FALSE(matches(I(1), Reply::integer(2)));
  EXPECT_FALSE(matches(I(1), Reply::bulk("1")));
  EXPECT_FALSE(matches(I(1), Reply::simple("1")));
}

TEST(ReplyPattern, string_matches_bulk_and_simple_with_the_same_bytes) {
  EXPECT_TRUE(matches(S("OK"), Reply::bulk("OK")));
  EXPECT_TRUE(matches(S("OK"), Reply::simple("OK")));
  EXPECT_FALSE(matches(S("OK"), Reply::bulk("ok")));
  EXPECT_FALSE(matches(S("OK"), Reply::error("OK")));
  EXPECT_FALSE(matches(S(""), Reply::nil()));
  EXPECT_TRUE(matches(S(std::string("a\0b", 3)), Reply::bulk(std::string("a\0b", 3))));
  EXPECT_FALSE(matches(S(std::string("a\0b", 3)), Reply::bulk("a")));
}

TEST(ReplyPattern, array_matches_item_by_item_and_length) {
  const auto reply = Reply::array({Reply::bulk("j1"), Reply::integer(1), Reply::bulk("hello")});
  EXPECT_TRUE(matches(A({S("j1"), I(1), S("hello")}), reply));
  EXPECT_TRUE(matches(A({S("j1"), Any(), S("hello")}), reply));
  EXPECT_FALSE(matches(A({S("j1"), I(1)}), reply));
  EXPECT_FALSE(matches(A({S("j1"), I(2), S("hello")}), reply));
  EXPECT_TRUE(matches(A(), Reply::array()));
  EXPECT_FALSE(matches(A(), Reply::nil()));
  EXPECT_FALSE(matches(A({A()}), Reply::array()));
}

TEST(ReplyPattern, nil_matches_only_nil) {
  EXPECT_TRUE(matches(Nil(), Reply::nil()));
  EXPECT_FALSE(matches(Nil(), Reply::array()));
  EXPECT_FALSE(matches(Nil(), Reply::bulk("nil")));
}

TEST(ReplyPattern, error_matches_the_exact_text) {
  EXPECT_TRUE(
      matches(Err("ERR EMQ lease out of range"), Reply::error("ERR EMQ lease out of range")));
  EXPECT_FALSE(matches(Err("ERR EMQ lease out of range"), Reply::error("ERR EMQ syntax error")));
  EXPECT_FALSE(matches(Err("ERR EMQ"), Reply::error("ERR EMQ lease out of range")));
  EXPECT_FALSE(matches(Err("x"), Reply::bulk("x")));
}

TEST(ReplyPattern, any_matches_every_reply) {
  for (const Reply& r : {Reply::integer(0), Reply::bulk("x"), Reply::simple("OK"), Reply::nil(),
                         Reply::error("ERR x"), Reply::array({Reply::nil()})}) {
    EXPECT_TRUE(matches(Any(), r)) << debug_string(r);
  }
}

TEST(ReplyPattern, notation_of_every_form) {
  EXPECT_EQ(to_notation(Reply::integer(-42)), "-42");
  EXPECT_EQ(to_notation(Reply::bulk("hello")), "hello");
  EXPECT_EQ(to_notation(Reply::simple("OK")), "OK");
  EXPECT_EQ(to_notation(Reply::bulk("two words")), "\"two words\"");
  EXPECT_EQ(to_notation(Reply::nil()), "nil");
  EXPECT_EQ(to_notation(Reply::error("ERR EMQ lease out of range")),
            "error \"ERR EMQ lease out of range\"");
  EXPECT_EQ(to_notation(Reply::array()), "[]");
  EXPECT_EQ(to_notation(Reply::array(
                {Reply::array({Reply::bulk("j1"), Reply::integer(1), Reply::bulk("hello")})})),
            "[[j1 1 hello]]");
  EXPECT_EQ(to_notation(Any()), "_");
}

TEST(ReplyPattern, strings_that_look_like_other_replies_are_quoted) {
  EXPECT_EQ(to_notation(Reply::bulk("12")), "\"12\"");
  EXPECT_EQ(to_notation(Reply::bulk("-7")), "\"-7\"");
  EXPECT_EQ(to_notation(Reply::bulk("nil")), "\"nil\"");
  EXPECT_EQ(to_notation(Reply::bulk("_")), "\"_\"");
  EXPECT_EQ(to_notation(Reply::bulk("error")), "\"error\"");
  EXPECT_EQ(to_notation(Reply::bulk("")), "\"\"");
  EXPECT_EQ(parsed("12"), I(12));
  EXPECT_EQ(parsed("\"12\""), S("12"));
}

TEST(ReplyPattern, bare_words_that_are_not_integer_words_are_strings) {
  EXPECT_EQ(parsed("3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812"),
            S("3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812"));
  EXPECT_EQ(parsed("+5"), S("+5"));
  EXPECT_EQ(parsed("1.5"), S("1.5"));
  EXPECT_EQ(parsed("NIL"), S("NIL"));
}

TEST(ReplyPattern, spec_reply_forms_parse) {
  EXPECT_EQ(parsed("[recovered [j1] dead [] ghosts [] lanes []]"),
            A({S("recovered"), A({S("j1")}), S("dead"), A(), S("ghosts"), A(), S("lanes"), A()}));
  EXPECT_EQ(parsed("error \"ERR EMQ lease out of range\""), Err("ERR EMQ lease out of range"));
  EXPECT_EQ(parsed("nil  # a comment"), Nil());
  EXPECT_EQ(parsed("_"), Any());
  EXPECT_EQ(parsed("-9223372036854775808"), I(INT64_MIN));
}

// Each awkward string, alone and inside arrays, reads back as the same bytes.
TEST(ReplyPattern, notation_round_trips_awkward_bytes) {
  const std::vector<std::string> awkward = {
      "",         " ",           "two words", "\"",   "\\",  "a\"b\\c", std::string("\0", 1),
      "\x80\xff", "caf\xc3\xa9", "12",        "-3",   "007", "-0",      "nil",
      "_",        "error",       "-",         "=>",   "a=b", "[x]",     "#",
      "x#",       "\n\t\r",      ">",         "\x7f", "OK",  "a:"};
  for (const std::string& s : awkward) {
    for (const Reply& r : {Reply::bulk(s), Reply::simple(s), Reply::error(s),
                           Reply::array({Reply::bulk(s), Reply::array({Reply::bulk(s)})})}) {
      const std::string text = to_notation(r);
      auto back = parse_reply_pattern(text);
      ASSERT_TRUE(back.ok()) << text << ": " << to_string(back.error());
      EXPECT_TRUE(matches(back.value(), r)) << text;
      EXPECT_EQ(back.value(), exact_pattern(r)) << text;
    }
  }
}

rc::Gen<Reply> arbitrary_reply(int depth) {
  auto text = rc::gen::oneOf(rc::gen::arbitrary<std::string>(),
                             rc::gen::element<std::string>("", "12", "nil", "_", "error", "-",
                                                           "a b", "\"", "\\", "#", "[", "=>"));
  auto leaf =
      rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<std::int64_t>(),
                                  [](std::int64_t v) { return Reply::integer(v); }),
                     rc::gen::map(text, [](const std::string& s) { return Reply::bulk(s); }),
                     rc::gen::map(text, [](const std::string& s) { return Reply::simple(s); }),
                     rc::gen::map(text, [](const std::string& s) { return Reply::error(s); }),
                     rc::gen::just(Reply::nil()));
  if (depth == 0) return leaf;
  auto array = rc::gen::mapcat(rc::gen::inRange(0, 5), [depth](int n) {
    return rc::gen::map(rc::gen::container<std::vector<Reply>>(n, arbitrary_reply(depth - 1)),
                        [](std::vector<Reply> items) { return Reply::array(std::move(items)); });
  });
  return rc::gen::weightedOneOf<Reply>({{3, leaf}, {1, array}});
}

RC_GTEST_PROP(ReplyPattern, parse_of_to_notation_matches_the_reply_exactly, ()) {
  const Reply reply = *arbitrary_reply(3);
  const std::string text = to_notation(reply);
  auto back = parse_reply_pattern(text);
  RC_ASSERT(back.ok());
  RC_ASSERT(matches(back.value(), reply));
  RC_ASSERT(back.value() == exact_pattern(reply));
}

}  // namespace
}  // namespace trafikey::scenario
