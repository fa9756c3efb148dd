// The one argument parser of the core: strict integers with named ranges, and the
// optional keyword arguments of the verbs (COUNT, LIMIT, MAXFAILURES).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include "core/bytes.h"
#include "core/outcome.h"

namespace trafikey {

using Args = std::span<const std::string_view>;  // argv, argv[0] is the verb name

// Largest integer a zset score (a double) holds exactly: 2^53 - 1.
inline constexpr std::int64_t score_max = (std::int64_t{1} << 53) - 1;
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// Decimal as the server writes it: optional '-', digits, no leading zeros, no spaces.
// Any length; parse_int64 below is the same function with a fast path inline.
std::optional<std::int64_t> parse_int64_checked(std::string_view text);

// Inline: verbs, the ledger and the server parse a few integers on nearly every call,
// almost all short, and the call itself was a fair share of the cost. Text of at most 18
// bytes has at most 18 digits, which cannot overflow, so the loop needs no bound check;
// longer text goes to the checked parser.
inline std::optional<std::int64_t> parse_int64(std::string_view text) {
  const std::size_t n = text.size();
  if (n == 0 || n > 18) return parse_int64_checked(text);
  const char* p = text.data();
  const char* const end = p + n;
  const bool negative = *p == '-';
  p += negative;
  if (p == end) return std::nullopt;                                     // "-"
  if (*p == '0') return end - p == 1 && !negative ? std::optional<std::int64_t>(0)
                                                  : std::nullopt;  // "01", "-0"
  std::int64_t value = 0;
  for (; p != end; ++p) {
    const unsigned d = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (d > 9) return std::nullopt;
    value = value * 10 + static_cast<std::int64_t>(d);
  }
  return negative ? -value : value;
}

// Parses `text` as an integer in lo..hi, else
// "ERR EMQ <name> must be an integer in <lo>..<hi>".
Outcome<std::int64_t> parse_ranged(std::string_view name, std::string_view text,
                                   std::int64_t lo, std::int64_t hi);

// One optional keyword argument with an integer value, e.g. COUNT n.
struct OptionSpec {
  std::string_view keyword;  // upper case; matched case-insensitively
  std::string_view name;     // as errors print it, e.g. "count"
  std::int64_t lo, hi, fallback;
};

// Parses the trailing keyword/value pairs `rest` against at most two option specs, in any
// order, each at most once. An unknown keyword, a keyword without value or a repeat is
// "ERR EMQ syntax error". Values come back in spec order.
Outcome<std::array<std::int64_t, 2>> parse_options(Args rest, std::span<const OptionSpec> specs);

// Inline: find_command runs it over the command table on every call (the sim's command
// lookup too), and most entries differ in length, which an inline size check rejects
// without a call.
inline bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  // Nearly always the name found is spelt exactly as the table's: whole words confirm
  // that in a few steps; anything else is folded.
  if (a.size() >= 8 && StringEqual{}(a, b)) return true;
  // Command names are looked up this way on every call (the command tables, the ledger),
  // nearly always spelt the same case on both sides, so bytes that are equal outright go
  // by without folding; only differing bytes are checked as a case pair.
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i], y = b[i];
    if (x == y) continue;
    const char lower = static_cast<char>(x | 0x20);
    if (lower != (y | 0x20) || lower < 'a' || lower > 'z') return false;
  }
  return true;
}

}  // namespace trafikey
