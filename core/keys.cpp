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
  static constexpr std::string_view suffixes[] = {"pending", "active", "done", "dead", "seq"};
  const std::size_t prefix = q.size() + 7;  // "emq:{" q "}:"
  names_.reserve(prefix * 6 + 24);
  names_ += "emq:{";
  names_ += q;
  names_ += "}:";
  prefix_len_ = names_.size();
  for (std::size_t i = 0; i < 5; ++i) {
    names_.append(names_.data(), prefix);
    names_ += suffixes[i];
    ends_[i] = names_.size();
  }
}

std::string QueueKeys::row(std::string_view id) const {
  std::string key;
  key.reserve(prefix_len_ + 4 + id.size());
  key.append(names_.data(), prefix_len_);
  key += "job:";
  key += id;
  return key;
}

}  // namespace trafikey
