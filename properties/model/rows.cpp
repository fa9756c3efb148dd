#include "properties/model/rows.h"

#include "properties/model/names.h"

namespace trafikey::properties::model {

std::optional<std::int64_t> counter(const sim::Keyspace::Hash* row, std::string_view name, std::int64_t fallback,
                                    bool& corrupt) {
  const std::string* v = field(row, name);
  if (!v) return fallback;
  auto n = integer(*v);
  if (!n || *n < 0 || *n == i64_max) {
    corrupt = true;
    return std::nullopt;
  }
  return n;
}

std::optional<Token> lease_token(Refusals& r, std::string_view text) {
  const auto digits = [](std::string_view t) {
    if (t.empty() || t.size() > 19 || t.front() == '0') return false;
    for (const char c : t) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  const auto hex40 = [](std::string_view t) {
    if (t.size() != 40) return false;
    for (const char c : t) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
  };
  // `<attempts>-<40 hex>-<n>`: two dashes, 40 characters apart
  const std::size_t dash = text.find('-');
  if (dash != std::string_view::npos && dash > 0) {
    const std::string_view attempts = text.substr(0, dash), grant = text.substr(dash + 1);
    if (digits(attempts) && grant.size() > 41 && hex40(grant.substr(0, 40)) && grant[40] == '-' &&
        digits(grant.substr(41))) {
      const auto n = integer(attempts);
      return Token{n.value_or(0), grant, n.has_value()};
    }
  }
  const auto wire1 = ranged(r, text, 1, i64_max);
  if (!wire1) return std::nullopt;
  return Token{*wire1, {}, true};
}

Liveness liveness(const sim::Keyspace& d, const sim::Keyspace::Value* active, std::string_view row_prefix,
                  std::string_view id, const Token& token, std::int64_t now) {
  Liveness l;
  if (!token.fits) {
    l.why = "the token's attempts are past any a row holds";
    return l;
  }
  const auto deadline = score_in(active, id);
  if (!deadline) {
    l.why = std::string(id) + " is not in active";
    return l;
  }
  if (*deadline < static_cast<double>(now)) {
    l.why = std::string(id) + "'s lease expired at st=" + sim::format_score(*deadline);
    return l;
  }
  const sim::Keyspace::Hash* row = hash(d, RowName(row_prefix, id));
  if (!row) {
    l.why = std::string(id) + "'s row is not a hash";
    return l;
  }
  const std::string* state = field(row, "state");
  if (!state || *state != "active") {
    l.why = std::string(id) + "'s row says state " + (state ? *state : "(none)");
    return l;
  }
  if (token.wire2()) {
    const std::string* lease = field(row, "lease");
    if (!lease || *lease != token.grant) {
      l.why = std::string(id) + "'s grant is " + (lease ? *lease : "(none: no wire 2 lease)");
      return l;
    }
  }
  const std::string* attempts = field(row, "attempts");
  const auto held = attempts ? integer(*attempts) : std::nullopt;
  if (attempts && (!held || *held < 0)) l.corrupt = true;
  if (!held || *held != token.attempts) {
    l.why = std::string(id) + "'s live token is " + (attempts ? *attempts : "(none)");
    return l;
  }
  l.live = true;
  return l;
}

}  // namespace trafikey::properties::model
