// Keyspace: the simulated server's data, with the Valkey semantics the core needs.
//
// Strings, hashes and sorted sets; TYPE; WRONGTYPE on a key of another type. Hashes keep
// insertion order, as Valkey's listpack encoding does for small hashes, so HGETALL
// answers in the order a real server would. Sorted sets order by score, then member bytes
// (memcmp), as t_zset.c does. Lookups are hashed; every iteration the outside world can
// see (dump, ranges) is ordered, so nothing depends on hash order.
#pragma once

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <optional>
#include <compare>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/bytes.h"
#include "core/host.h"

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

  const Entry* find(std::string_view key) const { return const_cast<FlatMap*>(this)->find(key); }
  Entry* find(std::string_view key) {
    if (entries_.empty()) return nullptr;
    const std::uint32_t h = hash_of(key);
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
  std::pair<Entry*, bool> try_emplace(std::string_view key) {
    if ((entries_.size() + 1) * 2 > slots_.size()) grow();
    const std::uint32_t h = hash_of(key);
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

  // Erases an entry find() or try_emplace() gave.
  void erase(const Entry* e) {
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

  static std::uint32_t hash_of(std::string_view key) {
    const std::uint64_t h = StringHash{}(key);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
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

// A zset's (score, member) entries in ZRANGE order: by score, then member bytes. The
// entries stay put in a slab; the order is a sorted array of slab indices, so an insert or
// erase shifts a few hundred bytes with one memmove (zsets hold tens to a few hundred
// members) where a red-black tree allocated, freed and rebalanced a node, and a rank is an
// index. Iterators are random access and last until the next write.
class ZsetOrder {
 public:
  using value_type = std::pair<double, std::string>;
  // (score, member) with the member bytes compared unsigned, as memcmp does (t_zset.c)
  static bool less(double score_a, std::string_view a, double score_b, std::string_view b) {
    return score_a != score_b ? score_a < score_b : a < b;
  }

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = ZsetOrder::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = const value_type&;

    const_iterator() = default;
    reference operator*() const { return items_[*at_]; }
    pointer operator->() const { return &items_[*at_]; }
    reference operator[](difference_type n) const { return items_[at_[n]]; }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator++(int) { const_iterator t = *this; ++at_; return t; }
    const_iterator operator--(int) { const_iterator t = *this; --at_; return t; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const_iterator a, const_iterator b) { return a.at_ - b.at_; }
    friend bool operator==(const_iterator a, const_iterator b) { return a.at_ == b.at_; }
    friend auto operator<=>(const_iterator a, const_iterator b) { return a.at_ <=> b.at_; }

   private:
    friend class ZsetOrder;
    const_iterator(const value_type* items, const std::uint32_t* at) : items_(items), at_(at) {}
    const value_type* items_ = nullptr;
    const std::uint32_t* at_ = nullptr;
  };

  const_iterator begin() const { return {items_.data(), order_.data()}; }
  const_iterator end() const { return {items_.data(), order_.data() + order_.size()}; }
  std::size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }

  void insert(double score, std::string_view member) {
    const std::size_t rank = rank_of(score, member);
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(items_.size());
      items_.emplace_back(score, std::string(member));
    } else {
      slot = free_.back();
      free_.pop_back();
      items_[slot].first = score;
      items_[slot].second.assign(member);
    }
    order_.insert(order_.begin() + rank, slot);
  }
  // `member` is present with `score`.
  void erase(double score, std::string_view member) {
    const auto at = order_.begin() + rank_of(score, member);
    free_.push_back(*at);
    order_.erase(at);
  }
  void rescore(double old_score, std::string_view member, double score) {
    auto at = order_.begin() + rank_of(old_score, member);
    const std::uint32_t slot = *at;
    order_.erase(at);
    items_[slot].first = score;
    order_.insert(order_.begin() + rank_of(score, member), slot);
  }

  bool operator==(const ZsetOrder& o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }

 private:
  // The rank of the first entry not before (score, member).
  std::size_t rank_of(double score, std::string_view member) const {
    std::size_t lo = 0, hi = order_.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      const value_type& e = items_[order_[mid]];
      if (less(e.first, e.second, score, member)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  std::vector<value_type> items_;     // the slab; free_ lists the unused slots
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> order_;  // slab slots in ZRANGE order
};

class UndoLog;

class Keyspace {
 public:
  Keyspace() = default;
  // A copy holds the same data and has no journal of its own (the journal belongs to the
  // keyspace the world writes); assignment keeps the target's journal.
  Keyspace(const Keyspace& o) : data_(o.data_) {}
  Keyspace& operator=(const Keyspace& o) {
    data_ = o.data_;
    return *this;
  }
  Keyspace(Keyspace&& o) noexcept : data_(std::move(o.data_)) {}
  Keyspace& operator=(Keyspace&& o) noexcept {
    data_ = std::move(o.data_);
    return *this;
  }

  using Hash = std::vector<std::pair<std::string, std::string>>;  // insertion order
  struct Zset {
    FlatMap<double> scores;  // member -> score
    ZsetOrder order;         // score, then member bytes
    bool operator==(const Zset& o) const { return order == o.order; }
  };
  // A Zset on the heap, copied deeply. A zset's two indexes take ~160 bytes, and a variant
  // holding one inline made every key's entry ~184 bytes, so the few zsets of a queue
  // spread the many string and hash keys over three cache lines each; boxed, an entry is
  // 56 bytes. Only a moved-from box is empty, and the variant destroys or reassigns it.
  class ZsetBox {
   public:
    ZsetBox() : z_(std::make_unique<Zset>()) {}
    ZsetBox(const ZsetBox& o) : z_(std::make_unique<Zset>(*o.z_)) {}
    ZsetBox(ZsetBox&&) noexcept = default;
    ZsetBox& operator=(const ZsetBox& o) {
      if (this != &o) z_ = std::make_unique<Zset>(*o.z_);
      return *this;
    }
    ZsetBox& operator=(ZsetBox&&) noexcept = default;
    Zset& operator*() { return *z_; }
    const Zset& operator*() const { return *z_; }
    Zset* operator->() { return z_.get(); }
    const Zset* operator->() const { return z_.get(); }
    bool operator==(const ZsetBox& o) const { return *z_ == *o.z_; }

   private:
    std::unique_ptr<Zset> z_;
  };
  using Value = std::variant<std::string, Hash, ZsetBox>;

  // ---- reads. Each typed read returns std::nullopt for "wrong type" through `wrong`.
  KeyType type(std::string_view key) const;
  bool exists(std::string_view key) const { return find(key) != nullptr; }
  const Value* find(std::string_view key) const;
  const std::string* string_at(std::string_view key, bool& wrong) const;
  const Hash* hash_at(std::string_view key, bool& wrong) const;
  const Zset* zset_at(std::string_view key, bool& wrong) const;

  static const std::string* hash_field(const Hash& hash, std::string_view field);
  // The (score, member) entries of a range, for a caller that copies what it needs straight
  // into its own output instead of through an intermediate vector of pairs.
  using ZsetIter = ZsetOrder::const_iterator;
  struct ZsetRange {
    ZsetIter first, last;
    std::size_t size;
    ZsetIter begin() const { return first; }
    ZsetIter end() const { return last; }
  };
  static ZsetRange zrange_by_score_entries(const Zset& z, double max_exclusive,
                                           std::size_t limit);
  static ZsetRange zrange_by_rank_entries(const Zset& z, std::int64_t start, std::int64_t stop);
  static std::vector<std::pair<std::string, double>> zrange_by_score(const Zset& z,
                                                                     double max_exclusive,
                                                                     std::size_t limit);
  // ranks start..stop inclusive, negative from the end, as ZRANGE does
  static std::vector<std::pair<std::string, double>> zrange_by_rank(const Zset& z,
                                                                    std::int64_t start,
                                                                    std::int64_t stop);

  // ---- writes. The caller has checked types (the core's read pass or the plain-command
  // layer); a write on a key of another type is a bug and aborts.
  std::int64_t hset(std::string_view key, std::string_view field, std::string_view value);
  std::int64_t hset(std::string_view key, std::span<const FieldRef> fields);  // one lookup
  std::int64_t hdel(std::string_view key, std::string_view field);
  std::int64_t zadd(std::string_view key, double score, std::string_view member);
  std::int64_t zrem(std::string_view key, std::string_view member);
  std::int64_t incr(std::string_view key);
  void set(std::string_view key, std::string_view value);
  std::int64_t del(std::string_view key);
  void clear() { data_.clear(); }  // not journaled: whoever clears resets the journal

  // Before each write changes anything, tells `journal` what the write overwrites (the
  // world's undo log), with the lookup the write makes anyway; null: nobody is told.
  void set_journal(UndoLog* journal) { journal_ = journal; }
  UndoLog* journal() const { return journal_; }

  std::size_t size() const { return data_.size(); }
  // Every key in byte order: `"key" type ...`, hash fields sorted, zset members in order.
  // Two keyspaces hold the same data exactly when their dumps are equal.
  std::string dump() const;
  std::vector<std::string> keys() const;  // sorted

  bool operator==(const Keyspace& o) const { return dump() == o.dump(); }

 private:
  Value* find_mut(std::string_view key);
  template <class T>
  T& slot(std::string_view key);
  std::int64_t hset_in(std::string_view key, Hash& h, std::string_view field, std::string_view value);

  FlatMap<Value> data_;
  UndoLog* journal_ = nullptr;
};

// Escapes bytes for dumps and messages: printable ASCII as is, '"' and '\\' escaped,
// everything else as \xHH; the result is wrapped in double quotes.
std::string quote_bytes(std::string_view bytes);

// How a zset score prints on the wire (ZSCORE, ZRANGE WITHSCORES): integers without a
// fraction, others with 17 significant digits, as the server does.
std::string format_score(double score);

}  // namespace trafikey::sim
