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

Liveness liveness(const sim::Keyspace& d, const sim::Keyspace::Value* active, std::string_view row_prefix,
                  std::string_view id, std::int64_t token, std::int64_t now) {
  Liveness l;
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
  const std::string* attempts = field(row, "attempts");
  const auto held = attempts ? integer(*attempts) : std::nullopt;
  if (attempts && (!held || *held < 0)) l.corrupt = true;
  if (!held || *held != token) {
    l.why = std::string(id) + "'s live token is " + (attempts ? *attempts : "(none)");
    return l;
  }
  l.live = true;
  return l;
}

}  // namespace trafikey::properties::model
