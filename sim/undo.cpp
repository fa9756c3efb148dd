#include "sim/undo.h"

#include <algorithm>
#include <cstring>
#include <variant>

#include "core/assert.h"

namespace trafikey::sim {

UndoLog::UndoLog() {
  // A run of ~1,000 calls writes a few thousand entries: grow once, not per run phase.
  entries_.reserve(4096);
  bytes_.reserve(64 * 1024);
}

void UndoLog::Bytes::reserve(std::size_t n) {
  if (n <= capacity_) return;
  auto data = std::make_unique_for_overwrite<char[]>(n);
  if (size_) std::memcpy(data.get(), data_.get(), size_);
  data_ = std::move(data);
  capacity_ = n;
}

// The appends, keep, keep_key and start run for every write: `inline` lets them fold into
// field() and member() (they are used in this file only).
inline void UndoLog::Bytes::append(std::string_view s) {
  const std::size_t n = s.size();
  if (capacity_ - size_ < n) reserve(std::max(capacity_ * 2, size_ + n));
  char* to = data_.get() + size_;
  const char* from = s.data();
  size_ += n;
  if (n > 64) {
    std::memcpy(to, from, n);
  } else if (n >= 8) {  // whole words; the last one may overlap bytes already copied
    for (std::size_t i = 0; i + 8 < n; i += 8) std::memcpy(to + i, from + i, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

inline UndoLog::Span UndoLog::keep_key(std::string_view key) {
  // A verb writes several fields of one row in a row: their entries share its bytes.
  if (!entries_.empty() && StringEqual{}(view(entries_.back().key), key)) {
    return entries_.back().key;
  }
  return keep(key);
}

inline UndoLog::Span UndoLog::keep(std::string_view bytes) {
  Span s{static_cast<std::uint32_t>(bytes_.size()), static_cast<std::uint32_t>(bytes.size())};
  bytes_.append(bytes);
  return s;
}

inline UndoLog::Entry& UndoLog::start(Entry::Kind kind, std::string_view key,
                                      std::string_view name) {
  const auto begin = static_cast<std::uint32_t>(bytes_.size());
  const Span key_bytes = keep_key(key);  // compares with the last entry: before the new one
  const Span name_bytes = keep(name);
  Entry& e = entries_.emplace_back();
  e.kind = kind;
  e.begin = begin;
  e.key = key_bytes;
  e.name = name_bytes;
  return e;
}

void UndoLog::field(std::string_view key, std::string_view field, const std::string* old,
                    std::size_t index, const std::string_view* now) {
  Entry& e = start(Entry::Kind::field, key, field);
  if (old) {
    e.existed = true;
    e.index = static_cast<std::uint32_t>(index);
    e.value = keep(*old);
  }
  if (keep_new_) {
    e.kept_new = true;
    e.removed = now == nullptr;
    e.now = now ? keep(*now) : Span{};
  }
}

void UndoLog::member(std::string_view key, std::string_view member, const double* old_score,
                     const double* now) {
  Entry& e = start(Entry::Kind::member, key, member);
  if (old_score) {
    e.existed = true;
    e.score = *old_score;
  }
  if (keep_new_) {
    e.kept_new = true;
    e.removed = now == nullptr;
    e.new_score = now ? *now : 0;
  }
}

void UndoLog::whole(std::string_view key, const Keyspace::Value* old, WholeOp op, std::string_view now) {
  Entry& e = start(Entry::Kind::key, key, {});
  if (keep_new_) {
    e.kept_new = true;
    e.op = op;
    e.now = op == WholeOp::set ? keep(now) : Span{};
  }
  e.existed = old != nullptr;
  e.whole = static_cast<std::int32_t>(wholes_.size());
  if (old) {
    wholes_.emplace_back(*old);
  } else {
    wholes_.emplace_back(std::nullopt);
  }
}

namespace {
// Puts a whole value back under `key` through the keyspace's own writes, so the result is
// the keyspace those writes give (hash fields in their order, zset order by score).
void restore(Keyspace& data, std::string_view key, const Keyspace::Value& value) {
  data.del(key);
  if (const auto* s = std::get_if<std::string>(&value)) {
    data.set(key, *s);
  } else if (const auto* h = std::get_if<Keyspace::Hash>(&value)) {
    for (const auto& [field, v] : *h) data.hset(key, field, v);
  } else {
    for (const auto& [score, member] : std::get<Keyspace::ZsetBox>(value)->order) {
      data.zadd(key, score, member);
    }
  }
}
}  // namespace

void UndoLog::undo(Keyspace& data, const Entry& e) {
  const std::string_view key = view(e.key);
  switch (e.kind) {
    case Entry::Kind::field: {
      const std::string_view field = view(e.name);
      if (!e.existed) {
        // the write added it last; HDEL drops an emptied hash
        const std::int64_t removed = data.hdel(key, field);
        TRAFIKEY_ASSERT(removed == 1, "undo of a field write whose field is not there");
        break;
      }
      bool wrong = false;
      const Keyspace::Hash* hash = data.hash_at(key, wrong);
      if (hash && Keyspace::hash_field(*hash, field)) {
        data.hset(key, field, view(e.value));  // overwritten in place
        break;
      }
      // deleted: back at its index
      Keyspace::Hash rebuilt = hash ? *hash : Keyspace::Hash{};
      TRAFIKEY_ASSERT(e.index <= rebuilt.size(), "a deleted field goes back past the end of its hash");
      rebuilt.insert(rebuilt.begin() + e.index, {std::string(field), std::string(view(e.value))});
      restore(data, key, rebuilt);
      break;
    }
    case Entry::Kind::member:
      if (e.existed) {
        data.zadd(key, e.score, view(e.name));
      } else {
        // ZREM drops an emptied zset
        const std::int64_t removed = data.zrem(key, view(e.name));
        TRAFIKEY_ASSERT(removed == 1, "undo of a member write whose member is not there");
      }
      break;
    case Entry::Kind::key: {
      const auto& old = wholes_[static_cast<std::size_t>(e.whole)];
      if (old) {
        restore(data, key, *old);
      } else {
        data.del(key);
      }
      wholes_.pop_back();  // entries are undone newest first: this one is the last
      break;
    }
  }
}

void UndoLog::rewind(Keyspace& data, std::int64_t to) {
  TRAFIKEY_ASSERT(to >= oldest() && to <= position(), "a rewind to a position the log no longer (or never) held");
  // Undoing writes through the keyspace must not journal them again.
  UndoLog* const journal = data.journal();
  data.set_journal(nullptr);
  while (position() > to) {
    const Entry e = entries_.back();
    undo(data, e);
    entries_.pop_back();
    bytes_.truncate(e.begin);  // an entry's own bytes are the last ones kept
  }
  data.set_journal(journal);
}

void UndoLog::forget_before(std::int64_t to) {
  if (to <= oldest()) return;
  head_ = static_cast<std::size_t>(std::min(to, position()) - base_);
  // Dropping from the front moves what is left: done once half the log is forgotten.
  if (head_ >= 4096 && head_ * 2 >= entries_.size()) compact();
}

void UndoLog::compact() {
  Bytes bytes;
  bytes.reserve(bytes_.size());
  std::vector<Entry> entries;
  std::vector<std::optional<Keyspace::Value>> wholes;
  entries.reserve(entries_.size() - head_);
  auto move_span = [&](Span s) {
    Span moved{static_cast<std::uint32_t>(bytes.size()), s.size};
    bytes.append(view(s));
    return moved;
  };
  for (std::size_t i = head_; i < entries_.size(); ++i) {
    Entry e = entries_[i];
    e.begin = static_cast<std::uint32_t>(bytes.size());
    e.key = move_span(e.key);
    e.name = move_span(e.name);
    if (e.kind == Entry::Kind::field) e.value = move_span(e.value);
    if (e.kept_new && e.kind != Entry::Kind::member) e.now = move_span(e.now);
    if (e.kind == Entry::Kind::key) {
      const auto old = static_cast<std::size_t>(e.whole);
      e.whole = static_cast<std::int32_t>(wholes.size());
      wholes.push_back(std::move(wholes_[old]));
    }
    entries.push_back(e);
  }
  base_ += static_cast<std::int64_t>(head_);
  head_ = 0;
  bytes_ = std::move(bytes);
  entries_ = std::move(entries);
  wholes_ = std::move(wholes);
}

bool UndoLog::same_writes_since(std::int64_t from, const UndoLog& other, std::int64_t other_from) const {
  if (from < oldest() || from > position() || other_from < other.oldest() || other_from > other.position()) {
    return false;
  }
  if (position() - from != other.position() - other_from) return false;
  auto i = static_cast<std::size_t>(from - base_);
  auto j = static_cast<std::size_t>(other_from - other.base_);
  for (; i < entries_.size(); ++i, ++j) {
    const Entry& a = entries_[i];
    const Entry& b = other.entries_[j];
    if (!a.kept_new || !b.kept_new || a.kind != b.kind || a.removed != b.removed) return false;
    if (!StringEqual{}(view(a.key), other.view(b.key)) || !StringEqual{}(view(a.name), other.view(b.name))) {
      return false;
    }
    switch (a.kind) {
      case Entry::Kind::field:
        if (!StringEqual{}(view(a.now), other.view(b.now))) return false;
        break;
      case Entry::Kind::member:  // bit for bit: 0 and -0 are told apart, as the keyspace would print them
        if (std::memcmp(&a.new_score, &b.new_score, sizeof a.new_score) != 0) return false;
        break;
      case Entry::Kind::key:
        if (a.op != b.op || !StringEqual{}(view(a.now), other.view(b.now))) return false;
        break;
    }
  }
  return true;
}

void UndoLog::clear() {
  bytes_.truncate(0);
  entries_.clear();
  wholes_.clear();
  head_ = 0;
  base_ = 0;
}

}  // namespace trafikey::sim
