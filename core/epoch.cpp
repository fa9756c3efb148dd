#include "core/epoch.h"

#include "core/errors.h"

namespace trafikey {

bool Epoch::valid_run_id(std::string_view id) {
  if (id.size() != run_id_len) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Status Epoch::load(const Outcome<std::string>& run_id_read) {
  if (!run_id_read.ok() || !valid_run_id(run_id_read.value())) {
    return errors::error(errors::host_call);
  }
  if (!run_id_) run_id_ = run_id_read.value();  // one process, one run_id
  return ok_status();
}

Outcome<std::string_view> Epoch::current() const {
  if (!run_id_) return errors::error(errors::host_call);
  return std::string_view(*run_id_);
}

void Epoch::start_grants(std::int64_t server_ms) {
  const std::int64_t at = server_ms * 1000 + 999;
  if (at > grants_) grants_ = at;
}

void Epoch::resume_grants(std::int64_t last) {
  if (last > grants_) grants_ = last;
}

std::int64_t Epoch::take_grant() { return ++grants_; }

std::string Epoch::grant_id(std::string_view run_id, std::int64_t n) {
  std::string out(run_id);
  out += '-';
  out += std::to_string(n);
  return out;
}

std::string Epoch::wire2_token(std::int64_t attempts, std::string_view grant_id) {
  std::string out = std::to_string(attempts);
  out += '-';
  out += grant_id;
  return out;
}

}  // namespace trafikey
