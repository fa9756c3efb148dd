// The argument parser, the name checks and the key-name builder (shared spec EMQ §1, §6).
#include <gtest/gtest.h>

#include <array>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/errors.h"
#include "core/keys.h"
#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

using namespace std::string_view_literals;

TEST(Args, integers_parse_as_the_server_writes_them) {
  EXPECT_EQ(parse_int64("0"), 0);
  EXPECT_EQ(parse_int64("7"), 7);
  EXPECT_EQ(parse_int64("-7"), -7);
  EXPECT_EQ(parse_int64("9223372036854775807"), int64_max);
  EXPECT_EQ(parse_int64("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
  // Both sides of the 18-digit fast path.
  EXPECT_EQ(parse_int64("999999999999999999"), 999999999999999999);
  EXPECT_EQ(parse_int64("-999999999999999999"), -999999999999999999);
  EXPECT_EQ(parse_int64("1000000000000000000"), 1000000000000000000);
  EXPECT_EQ(parse_int64("-1000000000000000000"), -1000000000000000000);
}

TEST(Args, non_integers_do_not_parse) {
  for (std::string_view bad : {""sv, "-"sv, "01"sv, "-0"sv, "+1"sv, " 1"sv, "1 "sv, "1.5"sv,
                               "1e3"sv, "0x10"sv, "abc"sv, "9223372036854775808"sv,
                               "-9223372036854775809"sv, "99999999999999999999"sv,
                               "1\0"sv, "12345678901234567x"sv, "/"sv, ":"sv}) {
    EXPECT_EQ(parse_int64(bad), std::nullopt) << bad;
  }
}

// The rules spelt out once more on top of std::from_chars, for the comparison below.
std::optional<std::int64_t> reference_int64(std::string_view text) {
  const bool negative = text.starts_with('-');
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || digits[0] < '0' || digits[0] > '9') return std::nullopt;  // "-", "+1", " 1"
  if (digits[0] == '0' && (digits.size() > 1 || negative)) return std::nullopt;  // "01", "-0"
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The inline fast path and the checked parser agree with the reference on every shape:
// signs, leading zeros, 1 to 21 digits (both sides of 18, the int64 bounds), stray bytes
// at every position.
TEST(Args, integer_parsers_agree_with_from_chars) {
  std::vector<std::string> inputs = {"", "-", "--1", "+1", "0", "-0", "00", "-00", "01",
                                     "9223372036854775807", "9223372036854775808",
                                     "-9223372036854775808", "-9223372036854775809",
                                     "18446744073709551616", "-18446744073709551616"};
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  const std::string_view odd = " +-.x/:0\x00\xff"sv;
  for (int len = 1; len <= 21; ++len) {
    for (int round = 0; round < 400; ++round) {
      std::string digits;
      for (int i = 0; i < len; ++i) digits += static_cast<char>('0' + next() % 10);
      if (round % 4 == 0) digits[0] = static_cast<char>('1' + next() % 9);
      if (round % 8 == 1) digits[0] = '0';
      if (round % 16 == 2) digits[next() % digits.size()] = odd[next() % odd.size()];
      if (round % 32 == 3) digits = std::string(static_cast<std::size_t>(len), '9');
      inputs.push_back(digits);
      inputs.push_back("-" + digits);
    }
  }
  for (const std::string& text : inputs) {
    EXPECT_EQ(parse_int64(text), reference_int64(text)) << text;
    EXPECT_EQ(parse_int64_checked(text), reference_int64(text)) << text;
  }
}

TEST(Args, ranged_integer_names_its_range_when_refused) {
  auto low = parse_ranged("count", "0", 1, 1000);
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.error(), Err("ERR EMQ count must be an integer in 1..1000"));
  auto high = parse_ranged("count", "1001", 1, 1000);
  EXPECT_EQ(high.error(), Err("ERR EMQ count must be an integer in 1..1000"));
  auto text = parse_ranged("count", "ten", 1, 1000);
  EXPECT_EQ(text.error(), Err("ERR EMQ count must be an integer in 1..1000"));
  EXPECT_EQ(parse_ranged("count", "1", 1, 1000).value(), 1);
  EXPECT_EQ(parse_ranged("count", "1000", 1, 1000).value(), 1000);
}

constexpr OptionSpec kCount{"COUNT", "count", 1, 1000, 1};
constexpr OptionSpec kLimit{"LIMIT", "limit", 1, 10000, 1000};

TEST(Args, options_fall_back_when_absent) {
  const std::array specs{kCount, kLimit};
  auto values = parse_options({}, specs);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(values.value()[0], 1);
  EXPECT_EQ(values.value()[1], 1000);
}

TEST(Args, options_match_keywords_case_insensitively_in_any_order) {
  const std::array specs{kCount, kLimit};
  const std::vector<std::string_view> rest{"limit", "20", "Count", "5"};
  auto values = parse_options(rest, specs);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(values.value()[0], 5);
  EXPECT_EQ(values.value()[1], 20);
}

TEST(Args, options_refuse_unknown_repeated_or_valueless_keywords_as_syntax) {
  const std::array specs{kCount};
  for (const std::vector<std::string_view>& rest :
       {std::vector<std::string_view>{"COUNT"}, {"LIMIT", "5"}, {"COUNT", "1", "COUNT", "2"},
        {"COUNT", "1", "x"}, {"5", "COUNT"}}) {
    auto values = parse_options(rest, specs);
    ASSERT_FALSE(values.ok());
    EXPECT_EQ(values.error(), Err("ERR EMQ syntax error"));
  }
}

TEST(Args, option_syntax_is_judged_before_values) {
  const std::array specs{kCount};
  const std::vector<std::string_view> rest{"COUNT", "0", "BOGUS", "1"};
  EXPECT_EQ(parse_options(rest, specs).error(), Err("ERR EMQ syntax error"));
}

TEST(Keys, queue_names_are_1_to_200_bytes_without_braces_or_nul) {
  EXPECT_TRUE(valid_queue_name("q"));
  EXPECT_TRUE(valid_queue_name(std::string(200, 'q')));
  EXPECT_TRUE(valid_queue_name("a:b c\xff"));
  EXPECT_FALSE(valid_queue_name(""));
  EXPECT_FALSE(valid_queue_name(std::string(201, 'q')));
  EXPECT_FALSE(valid_queue_name("a{b"));
  EXPECT_FALSE(valid_queue_name("a}b"));
  EXPECT_FALSE(valid_queue_name("a\0b"sv));
}

TEST(Keys, job_ids_are_1_to_200_bytes_without_nul) {
  EXPECT_TRUE(valid_job_id("j"));
  EXPECT_TRUE(valid_job_id("{braces}:ok"));
  EXPECT_TRUE(valid_job_id(std::string(200, 'j')));
  EXPECT_FALSE(valid_job_id(""));
  EXPECT_FALSE(valid_job_id(std::string(201, 'j')));
  EXPECT_FALSE(valid_job_id("a\0b"sv));
}

TEST(Args, equals_ignore_case_folds_ascii_letters_only) {
  EXPECT_TRUE(equals_ignore_case("EMQ.CLAIM", "emq.claim"));
  EXPECT_TRUE(equals_ignore_case("EMQ.CLAIM", "EMQ.CLAIM"));
  EXPECT_TRUE(equals_ignore_case("", ""));
  EXPECT_FALSE(equals_ignore_case("EMQ.CLAIM", "EMQ.CLAIMS"));
  EXPECT_FALSE(equals_ignore_case("EMQ.ADD", "EMQ.JOB"));
  // pairs that differ only in bit 0x20 but are not a letter's two cases
  EXPECT_FALSE(equals_ignore_case("@", "`"));
  EXPECT_FALSE(equals_ignore_case("[", "{"));
  EXPECT_FALSE(equals_ignore_case("\x0d", "-"));
  EXPECT_FALSE(equals_ignore_case("\xc1", "\xe1"));
  // the last byte is checked first: a case pair there, a mismatch before it, and back
  EXPECT_TRUE(equals_ignore_case("EMQ.CLAIm", "emq.claiM"));
  EXPECT_FALSE(equals_ignore_case("EMQ.STATs", "EMQ.CLAIS"));
  EXPECT_FALSE(equals_ignore_case("x[a", "x{A"));
  EXPECT_FALSE(equals_ignore_case("EMQ.CLAIM", "EMQ.CLAI@"));
  // names of 8 bytes and more are compared a word at a time first
  EXPECT_TRUE(equals_ignore_case("EMQ.STALLED.CHECK", "EMQ.STALLED.CHECK"));
  EXPECT_TRUE(equals_ignore_case("EMQ.STALLED.CHECK", "emq.STALLED.CHECK"));
  EXPECT_TRUE(equals_ignore_case("EMQ.STALLED.CHECK", "EMQ.STALLEd.CHECK"));
  EXPECT_TRUE(equals_ignore_case("EMQ.STALLED.CHECK", "EMQ.STALLED.CHECk"));
  EXPECT_FALSE(equals_ignore_case("EMQ.STALLED.CHECK", "EMQ.STALLED_CHECK"));
  EXPECT_FALSE(equals_ignore_case("EMQ.STALLED.CHECK", "FMQ.STALLED.CHECK"));
  EXPECT_FALSE(equals_ignore_case("EMQ.STALLED.CHECK", "EMQ.STALLED.CHECX"));
  EXPECT_FALSE(equals_ignore_case("EMQ.FAIL", "EMQ.FAI@"));
}

TEST(Keys, every_key_of_a_queue_carries_its_hash_tag) {
  const QueueKeys keys("orders");
  EXPECT_EQ(keys.pending(), "emq:{orders}:pending");
  EXPECT_EQ(keys.active(), "emq:{orders}:active");
  EXPECT_EQ(keys.done(), "emq:{orders}:done");
  EXPECT_EQ(keys.dead(), "emq:{orders}:dead");
  EXPECT_EQ(keys.seq(), "emq:{orders}:seq");
  EXPECT_EQ(keys.row("j:1"), "emq:{orders}:job:j:1");
  EXPECT_EQ(keys.prefix(), "emq:{orders}:");
}

TEST(Keys, names_are_the_same_whether_held_inline_or_on_the_heap) {
  // 21 bytes is the longest queue name whose names fit inline; 200 is the longest allowed.
  // 16 is the longest built with fixed-size moves.
  for (std::size_t n : {1u, 2u, 3u, 4u, 8u, 16u, 17u, 21u, 22u, 200u}) {
    const std::string q(n, 'x');
    const QueueKeys keys(q);
    const std::string p = "emq:{" + q + "}:";
    EXPECT_EQ(keys.prefix(), p);
    EXPECT_EQ(keys.pending(), p + "pending");
    EXPECT_EQ(keys.active(), p + "active");
    EXPECT_EQ(keys.done(), p + "done");
    EXPECT_EQ(keys.dead(), p + "dead");
    EXPECT_EQ(keys.seq(), p + "seq");
    EXPECT_EQ(keys.row("j1"), p + "job:j1");
    const std::string long_id(200, 'i');  // a row name past KeyName's inline bytes
    EXPECT_EQ(keys.row_name("j1").view(), keys.row("j1"));
    EXPECT_EQ(keys.row_name(long_id).view(), keys.row(long_id));
    const QueueKeys copy = keys;  // the views of a copy point into the copy
    EXPECT_EQ(copy.seq(), p + "seq");
  }
}

TEST(Keys, a_row_key_parses_back_to_its_queue_and_id) {
  const std::string row = QueueKeys("orders").row("j}:job:1");
  const auto parsed = parse_row_key(row);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->queue, "orders");
  EXPECT_EQ(parsed->id, "j}:job:1") << "the first '}:job:' ends the hash tag";
  EXPECT_FALSE(parse_row_key("emq:{orders}:pending").has_value());
  EXPECT_FALSE(parse_row_key("orders:job:j1").has_value());
}

TEST(Keys, every_key_of_a_queue_names_its_queue) {
  const QueueKeys keys("orders");
  for (std::string_view key : {keys.pending(), keys.active(), keys.done(), keys.dead(), keys.seq()}) {
    EXPECT_EQ(key_queue(key), "orders") << key;
  }
  EXPECT_EQ(key_queue(keys.row("j1")), "orders");
  EXPECT_FALSE(key_queue("orders:pending").has_value());
  EXPECT_FALSE(key_queue("emq:{orders").has_value());
  EXPECT_FALSE(key_queue("emq:{}:pending").has_value()) << "not a valid queue name";
}

TEST(Errors, texts_are_the_spec_texts) {
  EXPECT_EQ(errors::wrong_arity, "ERR EMQ wrong number of arguments");
  EXPECT_EQ(errors::syntax, "ERR EMQ syntax error");
  EXPECT_EQ(errors::bad_queue, "ERR EMQ bad queue name");
  EXPECT_EQ(errors::bad_job_id, "ERR EMQ bad job id");
  EXPECT_EQ(errors::lease_range, "ERR EMQ lease out of range");
  EXPECT_EQ(errors::host_call, "ERR EMQ host call failed");
  EXPECT_EQ(errors::not_primary, "READONLY EMQ not a writable primary");
  EXPECT_EQ(errors::integer_range("lease_ms", 1, 9007199254740991),
            Err("ERR EMQ lease_ms must be an integer in 1..9007199254740991"));
  EXPECT_EQ(errors::no_write_access("emq:{q}:active"),
            Err("NOPERM EMQ no write access to emq:{q}:active"));
}

}  // namespace
}  // namespace trafikey::test
