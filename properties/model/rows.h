// The model's dataset read as shared spec EMQ §1 and §3 lay it out: a key's type, a row's
// fields and counters, a set's scores, whether a lease is live and where a new one ends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/host.h"
#include "properties/model/refusals.h"
#include "sim/keyspace.h"

namespace trafikey::properties::model {

inline KeyType type_of(const sim::Keyspace& d, std::string_view key) {
  const sim::Keyspace::Value* v = d.find(key);
  if (!v) return KeyType::none;
  switch (v->index()) {
    case 0: return KeyType::string;
    case 1: return KeyType::hash;
    default: return KeyType::zset;
  }
}

inline const sim::Keyspace::Zset* zset_in(const sim::Keyspace::Value* v) { return sim::Keyspace::as_zset(v); }
inline const sim::Keyspace::Zset* zset(const sim::Keyspace& d, std::string_view key) { return zset_in(d.find(key)); }
inline const sim::Keyspace::Hash* hash(const sim::Keyspace& d, std::string_view key) {
  const sim::Keyspace::Value* v = d.find(key);
  return v && v->index() == 1 ? &std::get<1>(*v) : nullptr;
}
inline const std::string* field(const sim::Keyspace::Hash* h, std::string_view name) {
  if (!h) return nullptr;
  for (const auto& [f, v] : *h) {
    if (f == name) return &v;
  }
  return nullptr;
}
inline std::optional<double> score_in(const sim::Keyspace::Value* v, std::string_view member) {
  const sim::Keyspace::Zset* z = zset_in(v);
  if (!z) return std::nullopt;
  auto* e = z->scores.find(member);
  if (!e) return std::nullopt;
  return e->second;
}
inline std::optional<double> score_of(const sim::Keyspace& d, std::string_view key, std::string_view member) {
  return score_in(d.find(key), member);
}

// A row's counter field (§6): missing -> fallback; not a non-negative integer -> corrupt.
// (At int64's top it cannot be raised by one either.)
std::optional<std::int64_t> counter(const sim::Keyspace::Hash* row, std::string_view name, std::int64_t fallback,
                                    bool& corrupt);

// The token a lease verb carries (§3, §8): wire 1, the grant's attempts; wire 2,
// `<attempts>-<grant id>` with the grant id `<run_id>-<n>` (§8's shape: each number 1-19
// digits without a leading zero, the run_id 40 characters of 0-9a-f).
struct Token {
  std::int64_t attempts = 0;
  std::string_view grant;  // wire 2 (a view into the call's argument); empty: wire 1
  bool fits = true;        // wire 2: its attempts part is an int64 (else nothing is live for it)
  bool wire2() const { return !grant.empty(); }
};
// A lease verb's attempts argument as either token; anything else is refused with the
// wire 1 range text ("attempts must be an integer in 1..9223372036854775807").
std::optional<Token> lease_token(Refusals& r, std::string_view text);

// §3: live = in active with deadline >= now, the row a hash with state active, and its
// attempts equal to the token's; under wire 2 (§8) also its `lease` equal to the token's
// grant id. `corrupt` tells whether a corrupt attempts field decided it.
struct Liveness {
  bool live = false;
  bool corrupt = false;
  std::string why;  // when not live
};
// `active` is the queue's active set (null: none), `row_prefix` its rows' "emq:{q}:job:".
Liveness liveness(const sim::Keyspace& d, const sim::Keyspace::Value* active, std::string_view row_prefix,
                  std::string_view id, const Token& token, std::int64_t now);

// §3: deadline = now + lease_ms, within 2^53 - 1 (and a server clock below 0 has none).
inline std::optional<std::int64_t> deadline_of(std::int64_t now, std::int64_t lease_ms) {
  if (now < 0 || now > score_limit - lease_ms) return std::nullopt;
  return now + lease_ms;
}

}  // namespace trafikey::properties::model
