// The lexical layer of scenario files (sim/scenario/notation.h).
#include "sim/scenario/notation.h"

#include <gtest/gtest.h>

namespace trafikey::scenario {
namespace {

using K = Token::Kind;

std::vector<Token> tokens_of(std::string_view line) {
  auto lexed = lex_line(line);
  EXPECT_TRUE(std::holds_alternative<std::vector<Token>>(lexed)) << line;
  if (auto* tokens = std::get_if<std::vector<Token>>(&lexed)) return *tokens;
  return {};
}

LexError error_of(std::string_view line) {
  auto lexed = lex_line(line);
  EXPECT_TRUE(std::holds_alternative<LexError>(lexed)) << line;
  if (auto* e = std::get_if<LexError>(&lexed)) return *e;
  return {};
}

TEST(Notation, words_strings_and_punctuation_with_columns) {
  const auto t = tokens_of("a: X \"two words\" [b]=c => 1");
  ASSERT_EQ(t.size(), 10u);
  EXPECT_EQ(t[0].kind, K::word);
  EXPECT_EQ(t[0].text, "a:");
  EXPECT_EQ(t[0].column, 1);
  EXPECT_EQ(t[0].end_column, 3);
  EXPECT_EQ(t[2].kind, K::string);
  EXPECT_EQ(t[2].text, "two words");
  EXPECT_EQ(t[2].column, 6);
  EXPECT_EQ(t[2].end_column, 17);
  EXPECT_EQ(t[3].kind, K::open);
  EXPECT_EQ(t[4].text, "b");
  EXPECT_EQ(t[5].kind, K::close);
  EXPECT_EQ(t[6].kind, K::equals);
  EXPECT_EQ(t[7].text, "c");
  EXPECT_EQ(t[8].kind, K::arrow);
  EXPECT_EQ(t[8].column, 24);
  EXPECT_EQ(t[9].text, "1");
}

TEST(Notation, comment_runs_to_end_of_line_outside_strings_only) {
  const auto t = tokens_of("x \"a # not a comment\" y#z # gone");
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1].text, "a # not a comment");
  EXPECT_EQ(t[2].text, "y");
  EXPECT_TRUE(tokens_of("   # only a comment").empty());
  EXPECT_TRUE(tokens_of("").empty());
}

TEST(Notation, escapes_decode_to_bytes) {
  const auto t = tokens_of(R"("q\"b\\s\n\t\x00\xFF\x7f")");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].text, std::string("q\"b\\s\n\t\0\xff\x7f", 10));
}

TEST(Notation, raw_bytes_inside_a_string_are_kept) {
  const auto t = tokens_of("\"caf\xc3\xa9\tx\"");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].text, "caf\xc3\xa9\tx");
}

TEST(Notation, tabs_and_carriage_returns_separate_tokens) {
  const auto t = tokens_of("a\tb\r");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[1].column, 3);
}

TEST(Notation, unterminated_string_points_at_its_opening_quote) {
  const auto e = error_of("a \"never closed");
  EXPECT_EQ(e.column, 3);
  EXPECT_NE(e.message.find("unterminated string"), std::string::npos) << e.message;
  EXPECT_EQ(error_of("\"ends in a backslash\\").column, 1);
}

TEST(Notation, unknown_escape_is_refused_at_the_backslash) {
  const auto e = error_of(R"(x "ab\q")");
  EXPECT_EQ(e.column, 6);
  EXPECT_NE(e.message.find("expected an escape"), std::string::npos) << e.message;
  EXPECT_EQ(error_of(R"("\x4")").column, 2);
  EXPECT_EQ(error_of(R"("\xg0")").message, "expected two hex digits after '\\x'");
}

TEST(Notation, control_and_high_bytes_outside_strings_are_refused) {
  const auto e = error_of("ab \x01");
  EXPECT_EQ(e.column, 4);
  EXPECT_NE(e.message.find("\\x01"), std::string::npos) << e.message;
  EXPECT_EQ(error_of("caf\xc3\xa9").column, 4);
}

TEST(Notation, plain_words_exclude_punctuation_backslash_and_non_printables) {
  EXPECT_TRUE(is_plain_word("EMQ.ADD"));
  EXPECT_TRUE(is_plain_word("a:b'c{d}-+*/"));
  for (std::string_view w : {"", "a b", "a\"", "a#", "[", "]", "a=b", "a\\b", "\t", "\x80"}) {
    EXPECT_FALSE(is_plain_word(w)) << w;
  }
}

TEST(Notation, integer_words_are_optional_minus_then_digits) {
  for (std::string_view w : {"0", "12", "-3", "007", "-0", "99999999999999999999"}) {
    EXPECT_TRUE(is_integer_word(w)) << w;
  }
  for (std::string_view w : {"", "-", "+5", "1.5", "3f2c", "1e3", "12a"}) {
    EXPECT_FALSE(is_integer_word(w)) << w;
  }
}

TEST(Notation, write_word_quotes_only_what_would_not_read_back) {
  EXPECT_EQ(write_word("orders"), "orders");
  EXPECT_EQ(write_word("1000"), "1000");  // arguments are bytes: no integers here
  EXPECT_EQ(write_word("nil"), "nil");
  EXPECT_EQ(write_word(""), "\"\"");
  EXPECT_EQ(write_word("-"), "\"-\"");    // a row check reads a bare '-' as absent
  EXPECT_EQ(write_word(">x"), "\">x\"");  // after '=' it would read as '=>'
  EXPECT_EQ(write_word("two words"), "\"two words\"");
  EXPECT_EQ(write_word("a=b"), "\"a=b\"");
  EXPECT_EQ(write_word("x#y"), "\"x#y\"");
  EXPECT_EQ(write_word(std::string("\0\xff\"\\", 4)), R"("\x00\xff\"\\")");
}

TEST(Notation, write_reply_string_also_quotes_what_reads_as_another_reply) {
  EXPECT_EQ(write_reply_string("hello"), "hello");
  EXPECT_EQ(write_reply_string("3f2c"), "3f2c");
  EXPECT_EQ(write_reply_string("+5"), "+5");
  for (std::string_view s : {"12", "-3", "007", "nil", "_", "error", "-", ""}) {
    EXPECT_EQ(write_reply_string(s).front(), '"') << s;
  }
}

}  // namespace
}  // namespace trafikey::scenario
