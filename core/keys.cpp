#include "core/keys.h"

#include <cstdint>
#include <cstring>

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

std::optional<RowKey> parse_row_key(std::string_view key) {
  if (!key.starts_with("emq:{")) return std::nullopt;
  const auto close = key.find("}:job:", 5);
  if (close == std::string_view::npos) return std::nullopt;
  return RowKey{key.substr(5, close - 5), key.substr(close + 6)};
}

std::optional<std::string_view> key_queue(std::string_view key) {
  if (!key.starts_with("emq:{")) return std::nullopt;
  const auto close = key.find("}:", 5);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view q = key.substr(5, close - 5);
  if (!valid_queue_name(q)) return std::nullopt;
  return q;
}

namespace {
// Copies the few bytes of a key part. For up to 16 bytes (every part of a short queue
// name) two overlapping word moves do it inline; std::memcpy with a length known only at
// run time is a libc call, and a QueueKeys makes eleven copies per verb call. Forced inline:
// called out of line, as GCC chose once it had four callers, it costs more than it saves.
[[gnu::always_inline]] inline void copy_bytes(char* to, const char* from, std::size_t n) {
  auto move = [&](std::size_t at, auto word) {
    std::memcpy(&word, from + at, sizeof word);
    std::memcpy(to + at, &word, sizeof word);
  };
  if (n >= 8 && n <= 16) {
    move(0, std::uint64_t{});
    move(n - 8, std::uint64_t{});
  } else if (n >= 4 && n < 8) {
    move(0, std::uint32_t{});
    move(n - 4, std::uint32_t{});
  } else if (n > 16) {
    std::memcpy(to, from, n);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}
}  // namespace

QueueKeys::QueueKeys(std::string_view q) {
  static constexpr std::string_view suffixes[] = {"pending", "active", "done", "dead", "seq"};
  const std::size_t prefix = q.size() + 7;  // "emq:{" q "}:"
  const std::size_t total = prefix * 6 + 24;
  if (q.size() <= block_q_max) {
    // The short names every caller uses: the prefix is assembled once in a 32-byte block,
    // then each name is the whole block followed by its suffix as one 8-byte word, all
    // fixed-size moves. A move's bytes past its name's end are overwritten by the next
    // name or lie past size_ (never read); block_q_max keeps the last move inside
    // inline_names_. The piecewise way below copied q six times by length, and for the
    // one-byte names callers use that was a byte loop each time.
    static constexpr char words[5][8] = {"pending", "active", "done", "dead", "seq"};
    unsigned char block[32] = {};
    std::memcpy(block, "emq:{", 5);
    copy_bytes(reinterpret_cast<char*>(block) + 5, q.data(), q.size());
    std::memcpy(block + 5 + q.size(), "}:", 2);
    unsigned char* at = inline_names_;
    std::memcpy(at, block, sizeof block);
    std::size_t len = prefix;
    for (std::size_t i = 0; i < 5; ++i) {
      std::memcpy(at + len, block, sizeof block);
      len += prefix;
      std::memcpy(at + len, words[i], sizeof words[i]);
      len += suffixes[i].size();
      ends_[i] = len;
    }
    prefix_len_ = prefix;
    size_ = len;
    return;
  }
  char* out = reinterpret_cast<char*>(inline_names_);
  if (total > inline_bytes) {
    long_names_.resize(total);
    out = long_names_.data();
  }
  std::size_t len = 0;  // a local, not size_: stores through `out` may alias members
  auto put = [&](std::string_view s) {
    copy_bytes(out + len, s.data(), s.size());
    len += s.size();
  };
  // Each name is written from its pieces, not by copying the prefix back out of the buffer:
  // reading bytes just written by several smaller stores stalls store forwarding.
  auto put_prefix = [&] {
    put("emq:{");
    put(q);
    put("}:");
  };
  put_prefix();
  prefix_len_ = len;
  for (std::size_t i = 0; i < 5; ++i) {
    put_prefix();
    put(suffixes[i]);
    ends_[i] = len;
  }
  size_ = len;
}

std::string QueueKeys::row(std::string_view id) const { return std::string(row_name(id).view()); }

KeyName QueueKeys::row_name(std::string_view id) const {
  KeyName name;
  const std::size_t len = prefix_len_ + 4 + id.size();
  char* out = reinterpret_cast<char*>(name.inline_);
  if (len > KeyName::inline_bytes) {
    name.long_.resize(len);
    out = name.long_.data();
  }
  copy_bytes(out, prefix().data(), prefix_len_);
  copy_bytes(out + prefix_len_, "job:", 4);
  copy_bytes(out + prefix_len_ + 4, id.data(), id.size());
  name.size_ = len;
  return name;
}

}  // namespace trafikey
