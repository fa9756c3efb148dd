// Key names of one queue (shared spec EMQ §1). The one key-name builder: every key of a
// queue carries the hash tag {q}, so a queue lives in one cluster slot.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace trafikey {

inline constexpr std::size_t name_bytes_max = 200;

// 1..200 bytes, none of '{', '}', NUL.
bool valid_queue_name(std::string_view q);
// 1..200 bytes, no NUL.
bool valid_job_id(std::string_view id);

struct RowKey {
  std::string_view queue, id;
};
// The inverse of QueueKeys::row: "emq:{q}:job:<id>" -> (q, id), views into `key`;
// nullopt for any other key.
std::optional<RowKey> parse_row_key(std::string_view key);
// The queue whose hash tag a key carries: "emq:{q}:<anything>" -> q (a view into `key`)
// when q is a valid queue name; nullopt for any other key.
std::optional<std::string_view> key_queue(std::string_view key);

// One key name built per verb call, held inline when it fits (a row key of a short queue
// name and id), so a verb that only passes it on to the host allocates nothing for it.
class KeyName {
 public:
  std::string_view view() const {
    if (!long_.empty()) return long_;
    return std::string_view(reinterpret_cast<const char*>(inline_), size_);
  }
  operator std::string_view() const { return view(); }

 private:
  friend class QueueKeys;
  static constexpr std::size_t inline_bytes = 48;
  unsigned char inline_[inline_bytes];  // unsigned char: copying the unwritten rest is defined
  std::string long_;                    // used instead when the name does not fit inline
  std::size_t size_ = 0;
};

// Every verb builds one, so the five fixed names share one buffer, held inline for the
// short queue names callers use (a queue name of up to 21 bytes) and on the heap beyond;
// the views stay valid as long as the QueueKeys does.
class QueueKeys {
 public:
  explicit QueueKeys(std::string_view q);

  std::string_view pending() const { return part(0); }
  std::string_view active() const { return part(1); }
  std::string_view done() const { return part(2); }
  std::string_view dead() const { return part(3); }
  std::string_view seq() const { return part(4); }
  std::string row(std::string_view id) const;
  KeyName row_name(std::string_view id) const;  // the same bytes as row(id)
  std::string_view prefix() const { return names().substr(0, prefix_len_); }  // "emq:{q}:"

 private:
  // "emq:{q}:" + "emq:{q}:pending" + ... + "emq:{q}:seq" is 6 * (|q| + 7) + 24 bytes.
  static constexpr std::size_t inline_bytes = 192;
  // Queue names up to this long are built with fixed-size moves (see the constructor): the
  // last one, a 32-byte prefix block written just before "seq", must end inside
  // inline_names_, i.e. 6 * (16 + 7) + 24 - 3 - (16 + 7) + 32 = 168 <= 192.
  static constexpr std::size_t block_q_max = 16;
  static_assert(6 * (block_q_max + 7) + 24 - 3 - (block_q_max + 7) + 32 <= inline_bytes);
  static_assert(6 * (block_q_max + 7) + 24 - 3 + 8 <= inline_bytes);  // the "seq" word
  static_assert(block_q_max + 7 <= 32);                                // the prefix block

  std::string_view names() const {
    if (!long_names_.empty()) return long_names_;
    return std::string_view(reinterpret_cast<const char*>(inline_names_), size_);
  }
  std::string_view part(std::size_t i) const {
    return names().substr(ends_[i] - length(i), length(i));
  }
  std::size_t length(std::size_t i) const { return ends_[i] - (i == 0 ? prefix_len_ : ends_[i - 1]); }

  // Left uninitialised: only the first size_ bytes are ever read, and zeroing all of it
  // cost a quarter of the constructor. unsigned char, so copying the unwritten rest of an
  // object is defined.
  unsigned char inline_names_[inline_bytes];
  std::string long_names_;  // used instead when the names do not fit inline
  std::size_t size_ = 0;
  std::size_t prefix_len_ = 0;
  std::size_t ends_[5] = {};
};

}  // namespace trafikey
