// FlatMap: the keyspace's open-addressing hash map (sim/keyspace.h uses it for its table
// of keys and each zset's member -> score index).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/assert.h"
#include "core/bytes.h"

namespace trafikey::sim {

// An open-addressing hash map from byte strings to V, for the keyspace's table of keys and
// a zset's member->score index. Every call looks a few keys up; a node-based
// std::unordered_map walks bucket -> node -> key for each, and allocates a node (and a
// key longer than 15 bytes) for each insert. Here the probe walks one array of
// (hash, index) slots (power-of-two size, linear probing, at most half full, backward-shift
// delete, so no tombstones); the entries sit densely in insertion order (a delete moves the
// last entry into the hole) and every key's bytes share one arena.
//
// Nothing may observe the entries' order (the keyspace sorts what it shows). An entry
// moves when the map grows or an entry is erased: pointers to entries last only until the
// next insert or erase.
template <class V>
class FlatMap {
 public:
  struct Entry {
    std::uint32_t hash = 0;  // kept: growing and erasing never rehash a key
    std::uint32_t key_offset = 0, key_size = 0;  // the key's bytes in the arena
    V second{};  // named like a std::pair's, so find(k)->second reads as with std maps
  };

  // A key's hash, as find() computes it: for a caller that looks one key up in several
  // maps (find(key, hash_of(key)) in each).
  static std::uint32_t hash_of(std::string_view key) {
    const std::uint64_t h = StringHash{}(key);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }

  const Entry* find(std::string_view key) const { return const_cast<FlatMap*>(this)->find(key); }
  Entry* find(std::string_view key) { return find(key, hash_of(key)); }
  const Entry* find(std::string_view key, std::uint32_t h) const { return const_cast<FlatMap*>(this)->find(key, h); }
  Entry* find(std::string_view key, std::uint32_t h) {
    if (entries_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot s = slots_[i];
      if (s.index == 0) return nullptr;
      Entry& e = entries_[s.index - 1];
      if (s.hash == h && StringEqual{}(key_of(e), key)) return &e;
    }
  }
  const Entry* end() const { return nullptr; }  // what find() answers for an absent key
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  std::string_view key_of(const Entry& e) const {
    return std::string_view(arena_.data() + e.key_offset, e.key_size);
  }
  std::span<const Entry> entries() const { return entries_; }

  // The entry of `key`, with a value-initialized V when the key is new (.second: new).
  std::pair<Entry*, bool> try_emplace(std::string_view key) { return try_emplace(key, hash_of(key)); }
  std::pair<Entry*, bool> try_emplace(std::string_view key, std::uint32_t h) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = h & mask;
    for (;; i = (i + 1) & mask) {
      const Slot s = slots_[i];
      if (s.index == 0) break;
      Entry& e = entries_[s.index - 1];
      if (s.hash == h && StringEqual{}(key_of(e), key)) return {&e, false};
    }
    const auto offset = static_cast<std::uint32_t>(arena_.size());
    arena_.append(key);
    Entry& e = entries_.emplace_back();  // V built in place (a V{} temporary trips GCC 12)
    e.hash = h;
    e.key_offset = offset;
    e.key_size = static_cast<std::uint32_t>(key.size());
    slots_[i] = Slot{h, static_cast<std::uint32_t>(entries_.size())};
    return {&e, true};
  }

  // Erases an entry find() or try_emplace() gave (asserted: not an absent key's nullptr).
  void erase(const Entry* e) {
    TRAFIKEY_ASSERT(e != nullptr, "erase of a key the map does not hold");
    const std::size_t index = static_cast<std::size_t>(e - entries_.data());
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot_of(*e, index);
    garbage_ += e->key_size;
    // Backward shift: each later entry of the probe run moves into the hole unless that
    // would put it before its home slot.
    for (std::size_t j = (i + 1) & mask; slots_[j].index != 0; j = (j + 1) & mask) {
      const std::size_t home = slots_[j].hash & mask;
      if (((j - home) & mask) >= ((j - i) & mask)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    const std::size_t last = entries_.size() - 1;
    if (index != last) {
      slots_[slot_of(entries_[last], last)].index = static_cast<std::uint32_t>(index + 1);
      entries_[index] = std::move(entries_[last]);
    }
    entries_.pop_back();
    // Keys erased leave their bytes behind; once they are most of the arena, repack it.
    if (garbage_ > 4096 && garbage_ * 2 > arena_.size()) repack();
  }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    entries_.clear();
    arena_.clear();
    garbage_ = 0;
  }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t index = 0;  // entries_ index + 1; 0: empty
  };

  std::size_t slot_of(const Entry& e, std::size_t index) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = e.hash & mask;
    while (slots_[i].index != index + 1) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    const std::size_t n = slots_.empty() ? 8 : slots_.size() * 2;
    slots_.assign(n, Slot{});
    const std::size_t mask = n - 1;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      std::size_t i = entries_[k].hash & mask;
      while (slots_[i].index != 0) i = (i + 1) & mask;
      slots_[i] = Slot{entries_[k].hash, static_cast<std::uint32_t>(k + 1)};
    }
  }
  void repack() {
    std::string arena;
    arena.reserve(arena_.size() - garbage_);
    for (Entry& e : entries_) {
      const auto offset = static_cast<std::uint32_t>(arena.size());
      arena.append(key_of(e));
      e.key_offset = offset;
    }
    arena_ = std::move(arena);
    garbage_ = 0;
  }

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  std::string arena_;
  std::size_t garbage_ = 0;  // bytes of erased keys still in arena_
};

}  // namespace trafikey::sim
