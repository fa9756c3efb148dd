#include "properties/model/refusals.h"

#include <cstring>

namespace trafikey::properties::model {

std::optional<std::int64_t> integer(std::string_view t) {
  if (t.empty() || t.size() > 20) return std::nullopt;
  const bool neg = t[0] == '-';
  std::string_view d = neg ? t.substr(1) : t;
  if (d.empty() || (d[0] == '0' && (d.size() > 1 || neg))) return std::nullopt;
  unsigned long long v = 0;
  for (char c : d) {
    if (c < '0' || c > '9') return std::nullopt;
    const unsigned long long next = v * 10 + static_cast<unsigned>(c - '0');
    if (next / 10 != v) return std::nullopt;
    v = next;
  }
  const unsigned long long lim = neg ? 9223372036854775808ull : 9223372036854775807ull;
  if (v > lim) return std::nullopt;
  return neg ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> ranged(Refusals& r, std::string_view text, std::int64_t lo, std::int64_t hi) {
  auto v = integer(text);
  if (!v || *v < lo || *v > hi) {
    r.range(lo, hi);
    return std::nullopt;
  }
  return v;
}

std::int64_t option(Refusals& r, Args rest, std::string_view keyword, std::int64_t lo, std::int64_t hi,
                    std::int64_t fallback) {
  if (rest.empty()) return fallback;
  if (rest.size() != 2 || !equals_ignore_case(rest[0], keyword)) {
    // an unknown keyword, a keyword without value, a repeat: the spec names both texts
    r.add(e_syntax);
    r.add(e_arity);
    return fallback;
  }
  return ranged(r, rest[1], lo, hi).value_or(fallback);
}

std::array<std::int64_t, 2> two_options(Refusals& r, Args rest, const Option& first, const Option& second) {
  std::array<std::int64_t, 2> values{first.fallback, second.fallback};
  const Option* options[] = {&first, &second};
  std::array<std::string_view, 2> texts{};
  std::array<bool, 2> seen{};
  bool shaped = rest.size() % 2 == 0;
  for (std::size_t at = 0; shaped && at < rest.size(); at += 2) {
    std::size_t which = 2;
    for (std::size_t i = 0; i < 2; ++i) {
      if (equals_ignore_case(rest[at], options[i]->keyword)) which = i;
    }
    if (which == 2 || seen[which]) {
      shaped = false;
      break;
    }
    seen[which] = true;
    texts[which] = rest[at + 1];
  }
  if (!shaped) {
    // an unknown keyword, a keyword without value, a repeat: the spec names both texts
    r.add(e_syntax);
    r.add(e_arity);
    return values;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    if (seen[i]) values[i] = ranged(r, texts[i], options[i]->lo, options[i]->hi).value_or(options[i]->fallback);
  }
  return values;
}

void expect_types(Refusals& r, std::initializer_list<const sim::Keyspace::Value*> zsets) {
  for (const sim::Keyspace::Value* v : zsets) {
    if (v && v->index() != 2) r.add(e_wrongtype);
  }
}

void expect_counter(Refusals& r, const sim::Keyspace& d, std::string_view key) {
  const sim::Keyspace::Value* v = d.find(key);
  if (!v) return;
  if (v->index() != 0) {
    r.add(e_wrongtype);
    return;
  }
  auto n = integer(std::get<0>(*v));
  if (!n || *n == i64_max) r.add(e_not_integer);
}

Reply unknown(Args argv) {
  // Built in a stack buffer: every EMQ call answers this while the module is not loaded.
  // Its bound: the fixed texts, a name of at most 128 bytes, and arguments that stop once
  // 128 bytes of them were printed (the last one cut to what was left, plus "'' ").
  static constexpr std::string_view head = "ERR unknown command '";
  static constexpr std::string_view middle = "', with args beginning with: ";
  char text[head.size() + 128 + middle.size() + 128 + 3];
  std::size_t len = 0;
  auto put = [&](std::string_view s) {
    std::memcpy(text + len, s.data(), s.size());
    len += s.size();
  };
  // Each argument as C prints it: up to a NUL, CR and LF as spaces, at most `max` bytes.
  auto c_string = [&](std::string_view s, std::size_t max) {
    s = s.substr(0, max);
    if (const void* nul = std::memchr(s.data(), '\0', s.size())) {
      s = s.substr(0, static_cast<std::size_t>(static_cast<const char*>(nul) - s.data()));
    }
    for (char c : s) text[len++] = c == '\r' || c == '\n' ? ' ' : c;
  };
  put(head);
  if (!argv.empty()) c_string(argv[0], 128);
  put(middle);
  std::size_t printed = 0;
  for (std::size_t i = 1; i < argv.size() && printed < 128; ++i) {
    const std::size_t from = len;
    put("'");
    c_string(argv[i], 128 - printed);
    put("' ");
    printed += len - from;
  }
  return Reply::error(std::string_view(text, len));
}

}  // namespace trafikey::properties::model
