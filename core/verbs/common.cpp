#include "core/verbs/common.h"

#include <algorithm>

namespace trafikey::verbs {

Status queue_arg(std::string_view q) {
  if (!valid_queue_name(q)) return errors::error(errors::bad_queue);
  return ok_status();
}

Status job_id_arg(std::string_view id) {
  if (!valid_job_id(id)) return errors::error(errors::bad_job_id);
  return ok_status();
}

Outcome<std::int64_t> lease_ms_arg(std::string_view text) {
  return parse_ranged("lease_ms", text, 1, score_max);
}

Outcome<std::int64_t> attempts_arg(std::string_view text) {
  return parse_ranged("attempts", text, 1, int64_max);
}

Outcome<std::int64_t> lease_deadline(std::int64_t now_ms, std::int64_t lease_ms) {
  if (now_ms < 0 || now_ms > score_max - lease_ms) return errors::error(errors::lease_range);
  return now_ms + lease_ms;
}

Status expect_type(Host& host, std::string_view key, KeyType want) {
  TK_TRY(KeyType type, host.type(key));
  if (type != KeyType::none && type != want) return errors::error(errors::wrong_type);
  return ok_status();
}

Status expect_zsets(Host& host, std::initializer_list<std::string_view> keys) {
  for (auto key : keys) TK_CHECK(expect_type(host, key, KeyType::zset));
  return ok_status();
}

Status expect_counter(Host& host, std::string_view key) {
  TK_TRY(auto value, host.get(key));
  if (value) {
    auto n = parse_int64(*value);
    if (!n || *n == int64_max) return errors::error("ERR value is not an integer or out of range");
  }
  return ok_status();
}

Outcome<std::int64_t> row_integer(Host& host, std::string_view row, std::string_view field,
                                  std::int64_t fallback) {
  TK_TRY(auto value, host.hget(row, field));
  if (!value) return fallback;
  auto n = parse_int64(*value);
  if (!n || *n < 0 || *n == int64_max) return errors::error(errors::corrupt_row);
  return *n;
}

Status may_write_all(Host& host, std::initializer_list<std::string_view> keys) {
  for (auto key : keys) TK_CHECK(host.may_write(key));
  return ok_status();
}

Outcome<LeaseToken> token_arg(std::string_view text) {
  // the number parts: 1-19 digits, no leading zero
  const auto number = [](std::string_view t) {
    if (t.empty() || t.size() > 19 || t[0] == '0') return false;
    return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::size_t first = text.find('-');
  if (first == std::string_view::npos || first == 0) {
    TK_TRY(const std::int64_t attempts, attempts_arg(text));
    return LeaseToken{attempts, {}, true};
  }
  const std::string_view grant = text.substr(first + 1);
  const bool shaped = number(text.substr(0, first)) && grant.size() > Epoch::run_id_len + 1 &&
                      Epoch::valid_run_id(grant.substr(0, Epoch::run_id_len)) &&
                      grant[Epoch::run_id_len] == '-' && number(grant.substr(Epoch::run_id_len + 1));
  if (!shaped) return attempts_arg(text).error();
  const auto attempts = parse_int64(text.substr(0, first));
  return LeaseToken{attempts.value_or(0), grant, attempts.has_value()};
}

Outcome<bool> lease_live(Host& host, const QueueKeys& keys, std::string_view id,
                         std::string_view row, const LeaseToken& lease, std::int64_t now_ms) {
  if (!lease.fits) return false;
  TK_TRY(auto deadline, host.zscore(keys.active(), id));
  if (!deadline || *deadline < static_cast<double>(now_ms)) return false;
  TK_TRY(KeyType type, host.type(row));
  if (type != KeyType::hash) return false;
  TK_TRY(auto state, host.hget(row, "state"));
  if (state != "active") return false;
  if (lease.wire2()) {
    TK_TRY(auto granted, host.hget(row, "lease"));
    if (granted != lease.grant) return false;
  }
  TK_TRY(auto attempts, host.hget(row, "attempts"));
  const std::int64_t token = lease.attempts;
  return attempts && parse_int64(*attempts) == token;
}

}  // namespace trafikey::verbs
