// Pieces every verb shares: argument checks with the spec's texts, key-type checks that
// let the write pass assume its types, the lease-liveness rule (EMQ §3) and the option
// specs. Each verb's own behaviour lives in its file beside this one.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/args.h"
#include "core/errors.h"
#include "core/host.h"
#include "core/keys.h"

namespace trafikey::verbs {

inline constexpr OptionSpec count_option{"COUNT", "count", 1, 1000, 1};
inline constexpr OptionSpec limit_option{"LIMIT", "limit", 1, 10000, 1000};
inline constexpr OptionSpec max_failures_option{"MAXFAILURES", "max_failures", 1, 1000000, 3};
inline constexpr std::int64_t max_stalled_max = 1000000;
inline constexpr std::int64_t extends_pairs_max = 1000;
// CLAIM removes at most this many ghosts from pending per call (the rest go next time),
// so one call's work stays bounded whatever the keyspace holds.
inline constexpr std::size_t claim_ghosts_max = 1000;

Status queue_arg(std::string_view q);
Status job_id_arg(std::string_view id);
Outcome<std::int64_t> lease_ms_arg(std::string_view text);
Outcome<std::int64_t> attempts_arg(std::string_view text);

// The token a lease verb carries (§3, §8): a wire 1 token is the grant's attempts, an
// integer in 1..INT64_MAX; a wire 2 token is `<attempts>-<grant id>`, the grant id being
// `<run_id>-<n>` (each number 1-19 digits without a leading zero, the run_id 40 of 0-9a-f).
struct LeaseToken {
  std::int64_t attempts = 0;  // wire 2: its first part (when `fits`)
  std::string_view grant;     // wire 2: the grant id (a view into the argument); empty: wire 1
  bool fits = true;           // wire 2: the first part is an int64 (else no row can match it)
  bool wire2() const { return !grant.empty(); }
};
// Either shape; anything else is refused with attempts_arg's text (the wire 1 text).
Outcome<LeaseToken> token_arg(std::string_view text);

// CLAIM's WIRE option (§8): 1 (the default) or 2.
inline constexpr OptionSpec wire_option{"WIRE", "wire", 1, 2, 1};

// now + lease_ms, refused with "ERR EMQ lease out of range" past 2^53 - 1.
Outcome<std::int64_t> lease_deadline(std::int64_t now_ms, std::int64_t lease_ms);

// The key is absent or holds `want`; else the server's WRONGTYPE.
Status expect_type(Host& host, std::string_view key, KeyType want);
Status expect_zsets(Host& host, std::initializer_list<std::string_view> keys);

// INCR on `key` will succeed: absent, or a string holding an integer below INT64_MAX.
Status expect_counter(Host& host, std::string_view key);

// An integer field of a job row: absent -> fallback; not a non-negative integer ->
// "ERR EMQ corrupt job row".
Outcome<std::int64_t> row_integer(Host& host, std::string_view row, std::string_view field,
                                  std::int64_t fallback);

Status may_write_all(Host& host, std::initializer_list<std::string_view> keys);

// EMQ §3: `id` is in active with deadline >= now, its row is a hash with state active,
// and the row's attempts equals the token's; under wire 2 (§8) the row's `lease` also
// equals the token's grant id (a row without `lease` is never live for a wire 2 token).
Outcome<bool> lease_live(Host& host, const QueueKeys& keys, std::string_view id,
                         std::string_view row, const LeaseToken& lease, std::int64_t now_ms);

// The handlers, one per file.
Reply add(Host& host, Args argv);
Reply claim(Host& host, Args argv);
Reply extend(Host& host, Args argv);
Reply extends(Host& host, Args argv);
Reply complete(Host& host, Args argv);
Reply fail(Host& host, Args argv);
Reply stalled_check(Host& host, Args argv);
Reply stats(Host& host, Args argv);
Reply job(Host& host, Args argv);
Reply epoch(Host& host, Args argv);

}  // namespace trafikey::verbs
