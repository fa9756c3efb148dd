// ReplyPattern: what a scenario expects a call to answer (shared spec SCENARIO.md
// "Replies"), and the scenario notation of replies.
//
// Notation: `1` or `-3` an integer; `hello` or `"two words"` a string, which matches a
// bulk or a simple reply with those bytes (the notation does not tell them apart); `[a b
// [c]]` an array, item by item; `nil`; `error "TEXT"` an error reply with exactly that
// text (the text is always quoted); `_` any reply at all.
//
// Integers versus strings: a bare word of the form -?[0-9]+ is always an integer (and a
// parse error when it is not a canonical int64, e.g. `007` or `-0`); the string with
// those bytes must be quoted: `"12"`. Every other bare word (`3f2c`, `+5`, `1.5`) is a
// string. `to_notation` follows the same rule, so parse(to_notation(r)) matches r.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/reply.h"

namespace trafikey::scenario {

struct ReplyPattern {
  enum class Kind : std::uint8_t { integer, string, array, nil, error, any };

  Kind kind = Kind::any;
  std::int64_t integer = 0;          // integer
  std::string text;                  // string bytes, or the error text
  std::vector<ReplyPattern> items;   // array

  static ReplyPattern make_integer(std::int64_t value);
  static ReplyPattern make_string(std::string bytes);
  static ReplyPattern make_array(std::vector<ReplyPattern> items = {});
  static ReplyPattern make_nil();
  static ReplyPattern make_error(std::string text);
  static ReplyPattern make_any();

  bool operator==(const ReplyPattern&) const = default;
};

// True when `reply` is of the pattern's kind (a string matches bulk and simple) with
// the same integer, bytes or error text, arrays item by item; `any` matches everything.
bool matches(const ReplyPattern& pattern, const Reply& reply);

// The pattern that matches exactly this reply (simple and bulk both become strings).
ReplyPattern exact_pattern(const Reply& reply);

// Scenario notation, on one line: strings bare when they are plain words that cannot be
// read as anything else (notation.h `write_reply_string`), quoted otherwise.
std::string to_notation(const ReplyPattern& pattern);
std::string to_notation(const Reply& reply);

}  // namespace trafikey::scenario
