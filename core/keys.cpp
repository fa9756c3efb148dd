#include "core/keys.h"

namespace trafikey {

bool valid_queue_name(std::string_view q) {
  if (q.empty() || q.size() > name_bytes_max) return false;
  for (char c : q) {
    if (c == '{' || c == '}' || c == '\0') return false;
  }
  return true;
}

bool valid_job_id(std::string_view id) {
  return !id.empty() && id.size() <= name_bytes_max && id.find('\0') == std::string_view::npos;
}

QueueKeys::QueueKeys(std::string_view q) {
  prefix_.reserve(q.size() + 8);
  prefix_ += "emq:{";
  prefix_ += q;
  prefix_ += "}:";
  pending_ = prefix_ + "pending";
  active_ = prefix_ + "active";
  done_ = prefix_ + "done";
  dead_ = prefix_ + "dead";
  seq_ = prefix_ + "seq";
}

std::string QueueKeys::row(std::string_view id) const {
  std::string key;
  key.reserve(prefix_.size() + 4 + id.size());
  key += prefix_;
  key += "job:";
  key += id;
  return key;
}

}  // namespace trafikey
