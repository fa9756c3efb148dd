// What refuses a call, spelt from shared spec EMQ §6 and §7: the error texts, the argument
// checks, the key-type checks, the server's answer to a command it does not know, and
// Refusals, the refusals that apply to one call.
//
// A verb (verb_call.h) checks in the page's order: its arity alone first; then every
// argument and the fence together; then the keys' types; then what the rows hold. Where the
// spec fixes the refusal texts but not which of several applicable refusals wins, the model
// accepts any of them (each writes nothing). Where a corrupt field could be answered either
// by `ERR EMQ corrupt job row` or by the verb's "nothing done" reply, it accepts both, as
// neither writes.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/reply.h"
#include "sim/keyspace.h"

namespace trafikey::properties::model {

inline constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t score_limit = (std::int64_t{1} << 53) - 1;  // §3, §7: 2^53 - 1

// ---- §6 error texts, spelt from the page
constexpr std::string_view e_arity = "ERR EMQ wrong number of arguments";
constexpr std::string_view e_syntax = "ERR EMQ syntax error";
constexpr std::string_view e_queue = "ERR EMQ bad queue name";
constexpr std::string_view e_id = "ERR EMQ bad job id";
constexpr std::string_view e_lease = "ERR EMQ lease out of range";
constexpr std::string_view e_corrupt = "ERR EMQ corrupt job row";
constexpr std::string_view e_fence = "READONLY EMQ not a writable primary";
constexpr std::string_view e_not_integer = "ERR value is not an integer or out of range";
constexpr std::string_view e_wrongtype = "WRONGTYPE Operation against a key holding the wrong kind of value";

// A decimal integer as the server writes one: optional '-', digits, no leading zero, no
// "-0", within int64.
std::optional<std::int64_t> integer(std::string_view t);

// §1: a job id is 1..200 bytes without NUL (a queue name: queue_name_ok, names.h).
inline bool id_ok(std::string_view id) {
  return !id.empty() && id.size() <= 200 && id.find('\0') == std::string_view::npos;
}

// The refusals that apply to a call; the call is refused when there is any.
struct Refusals {
  std::vector<Reply> texts;
  std::vector<std::string> ranges;
  void add(std::string_view text) {
    for (const Reply& r : texts) {
      if (r.text() == text) return;
    }
    texts.push_back(Reply::error(text));
  }
  // "ERR EMQ <arg> must be an integer in lo..hi" (§6; the arg's spelling is not fixed)
  void range(std::int64_t lo, std::int64_t hi) {
    ranges.push_back(std::to_string(lo) + ".." + std::to_string(hi));
  }
  bool any() const { return !texts.empty() || !ranges.empty(); }
};

// A ranged integer argument (§7).
std::optional<std::int64_t> ranged(Refusals& r, std::string_view text, std::int64_t lo, std::int64_t hi);
// An option a verb takes: `KEYWORD n` with n in lo..hi, `fallback` when absent.
struct Option {
  std::string_view keyword;
  std::int64_t lo, hi, fallback;
};
// The optional tail of a verb that takes two options (CLAIM: COUNT and WIRE): each at most
// once, in either order, each keyword with its value; their values, fallbacks where absent.
std::array<std::int64_t, 2> two_options(Refusals& r, Args rest, const Option& first, const Option& second);
// The optional `KEYWORD n` tail of a verb: absent, or exactly one keyword with its value.
std::int64_t option(Refusals& r, Args rest, std::string_view keyword, std::int64_t lo, std::int64_t hi,
                    std::int64_t fallback);

// §6: "WRONGTYPE" when a queue key holds another type than the spec's table (§1) says.
void expect_types(Refusals& r, std::initializer_list<const sim::Keyspace::Value*> zsets);
// The seq counter (§4 ADD, FAIL): INCR refuses a non-integer or a value at int64's top.
void expect_counter(Refusals& r, const sim::Keyspace& d, std::string_view key);

// The server's reply to a command it does not know (what a real server answers for EMQ
// verbs after a refused load): "ERR unknown command 'NAME', with args beginning with: 'a' "
// as processCommand prints it: each %.*s stops at a NUL, CR and LF become spaces, the name
// is cut at 128 bytes, the arguments are quoted while fewer than 128 bytes of them were
// printed, each cut to what is left of the 128.
Reply unknown(Args argv);

}  // namespace trafikey::properties::model
