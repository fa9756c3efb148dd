// The one argument parser of the core: strict integers with named ranges, and the
// optional keyword arguments of the verbs (COUNT, LIMIT, MAXFAILURES).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string_view>

#include "core/outcome.h"

namespace trafikey {

using Args = std::span<const std::string_view>;  // argv, argv[0] is the verb name

// Largest integer a zset score (a double) holds exactly: 2^53 - 1.
inline constexpr std::int64_t score_max = (std::int64_t{1} << 53) - 1;
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// Decimal as the server writes it: optional '-', digits, no leading zeros, no spaces.
std::optional<std::int64_t> parse_int64(std::string_view text);

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

bool equals_ignore_case(std::string_view a, std::string_view b);

}  // namespace trafikey
