// Key names of one queue (shared spec EMQ §1). The one key-name builder: every key of a
// queue carries the hash tag {q}, so a queue lives in one cluster slot.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace trafikey {

inline constexpr std::size_t name_bytes_max = 200;

// 1..200 bytes, none of '{', '}', NUL.
bool valid_queue_name(std::string_view q);
// 1..200 bytes, no NUL.
bool valid_job_id(std::string_view id);

class QueueKeys {
 public:
  explicit QueueKeys(std::string_view q);

  const std::string& pending() const { return pending_; }
  const std::string& active() const { return active_; }
  const std::string& done() const { return done_; }
  const std::string& dead() const { return dead_; }
  const std::string& seq() const { return seq_; }
  std::string row(std::string_view id) const;

 private:
  std::string prefix_;  // "emq:{q}:"
  std::string pending_, active_, done_, dead_, seq_;
};

}  // namespace trafikey
