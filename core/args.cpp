#include "core/args.h"

#include "core/errors.h"

namespace trafikey {

std::optional<std::int64_t> parse_int64_checked(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  bool negative = text[0] == '-';
  std::string_view digits = negative ? text.substr(1) : text;
  if (digits.empty()) return std::nullopt;
  if (digits[0] == '0' && (digits.size() > 1 || negative)) return std::nullopt;  // "01", "-0"
  // Every integer a verb or the ledger meets (tokens, lease ms, counters) has at most 18
  // digits, and 18 digits cannot overflow: accumulate without the per-digit bound check
  // (a division), which was most of this function's cost. Longer text takes the checked
  // loop below.
  if (digits.size() <= 18) {
    std::int64_t value = 0;
    for (char c : digits) {
      const unsigned d = static_cast<unsigned char>(c) - unsigned{'0'};
      if (d > 9) return std::nullopt;
      value = value * 10 + static_cast<std::int64_t>(d);
    }
    return negative ? -value : value;
  }
  // Accumulate negatively so INT64_MIN parses without overflow.
  std::int64_t value = 0;
  constexpr std::int64_t min = std::numeric_limits<std::int64_t>::min();
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    int d = c - '0';
    if (value < (min + d) / 10) return std::nullopt;
    value = value * 10 - d;
  }
  if (!negative) {
    if (value == min) return std::nullopt;
    value = -value;
  }
  return value;
}

Outcome<std::int64_t> parse_ranged(std::string_view name, std::string_view text,
                                   std::int64_t lo, std::int64_t hi) {
  auto v = parse_int64(text);
  if (!v || *v < lo || *v > hi) return errors::integer_range(name, lo, hi);
  return *v;
}

Outcome<std::array<std::int64_t, 2>> parse_options(Args rest,
                                                   std::span<const OptionSpec> specs) {
  std::array<std::int64_t, 2> values{};
  std::array<bool, 2> seen{};
  for (std::size_t i = 0; i < specs.size() && i < values.size(); ++i) {
    values[i] = specs[i].fallback;
  }
  // Keywords first: a bad shape is a syntax error whatever the values say.
  if (rest.size() % 2 != 0) return errors::error(errors::syntax);
  std::array<std::size_t, 2> at{};
  for (std::size_t pos = 0; pos < rest.size(); pos += 2) {
    std::size_t which = specs.size();
    for (std::size_t i = 0; i < specs.size() && i < values.size(); ++i) {
      if (equals_ignore_case(rest[pos], specs[i].keyword)) which = i;
    }
    if (which == specs.size() || seen[which]) return errors::error(errors::syntax);
    seen[which] = true;
    at[which] = pos + 1;
  }
  for (std::size_t i = 0; i < specs.size() && i < values.size(); ++i) {
    if (!seen[i]) continue;
    TK_TRY(values[i], parse_ranged(specs[i].name, rest[at[i]], specs[i].lo, specs[i].hi));
  }
  return values;
}

}  // namespace trafikey
