// Keyspace: the simulated server's data, with the Valkey semantics the core needs.
//
// Strings, hashes and sorted sets; TYPE; WRONGTYPE on a key of another type. Hashes keep
// insertion order, as Valkey's listpack encoding does for small hashes, so HGETALL
// answers in the order a real server would. Sorted sets order by score, then member bytes
// (memcmp), as t_zset.c does. Lookups are hashed; every iteration the outside world can
// see (dump, ranges) is ordered, so nothing depends on hash order.
#pragma once

#include <cstdint>
#include <algorithm>
#include <array>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/bytes.h"
#include "core/host.h"
#include "sim/flat_map.h"
#include "sim/zset_order.h"

namespace trafikey::sim {

class UndoLog;

class Keyspace {
 public:
  Keyspace() = default;
  // A copy holds the same data and has no journal of its own (the journal belongs to the
  // keyspace the world writes); assignment keeps the target's journal.
  Keyspace(const Keyspace& o) : data_(o.data_) {}
  Keyspace& operator=(const Keyspace& o) {
    data_ = o.data_;
    reshaped();
    return *this;
  }
  Keyspace(Keyspace&& o) noexcept : data_(std::move(o.data_)) { o.reshaped(); }
  Keyspace& operator=(Keyspace&& o) noexcept {
    data_ = std::move(o.data_);
    reshaped();
    o.reshaped();
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
  void clear() {  // not journaled: whoever clears resets the journal
    data_.clear();
    reshaped();
  }

  // Before each write changes anything, tells `journal` what the write overwrites (the
  // world's undo log), with the lookup the write makes anyway; null: nobody is told.
  void set_journal(UndoLog* journal) { journal_ = journal; }
  UndoLog* journal() const { return journal_; }

  std::size_t size() const { return data_.size(); }
  // Which keys exist and of what type, as a stamp: it changes whenever a key is added,
  // removed or replaced whole (SET, DEL, an emptied hash or zset, clear, assignment), and
  // no two keyspaces of a process ever share one. While it stays the same, a pointer that
  // zset_at() or hash_at() answered (or its null) still holds: an observer that reads the
  // same few keys after every write (the invariant checker) keeps them instead of looking
  // each up again.
  struct Shape {
    std::uint64_t keyspace = 0;  // this keyspace's own number (from 1), for its life
    std::uint64_t version = 0;   // its changes of shape so far
    bool operator==(const Shape&) const = default;
  };
  Shape shape() const { return shape_; }
  // The values of N keys read together (null: no such key), looked up again only when the
  // shape changed since: for a reader that reads the same few keys after every write (a
  // queue's four sets, for the invariant checker and the model).
  template <std::size_t N>
  class Lookups {
   public:
    const std::array<const Value*, N>& of(const Keyspace& d, const std::array<std::string_view, N>& keys) {
      if (!(shape_ == d.shape())) {
        for (std::size_t i = 0; i < N; ++i) values_[i] = d.find(keys[i]);
        shape_ = d.shape();
      }
      return values_;
    }

   private:
    Shape shape_;  // {0, 0}: never a keyspace's (they number from 1)
    std::array<const Value*, N> values_{};
  };
  static const Zset* as_zset(const Value* v) { return v && v->index() == 2 ? &*std::get<2>(*v) : nullptr; }
  // Every key in byte order: `"key" type ...`, hash fields sorted, zset members in order.
  // Two keyspaces hold the same data exactly when their dumps are equal.
  std::string dump() const;
  std::vector<std::string> keys() const;  // sorted
  // Calls f(key, value) for every key in no set order: for a caller whose answer does not
  // depend on it (whether two keyspaces are equal), which keys() would sort for nothing.
  template <class F>
  void each_unordered(F&& f) const {
    for (const auto& e : data_.entries()) f(data_.key_of(e), e.second);
  }

  bool operator==(const Keyspace& o) const { return dump() == o.dump(); }

 private:
  Value* find_mut(std::string_view key);
  template <class T>
  T* slot(std::string_view key);  // nullptr when the key holds another type
  std::int64_t hset_in(std::string_view key, Hash& h, std::string_view field, std::string_view value);

  void reshaped() { ++shape_.version; }
  // A new keyspace's number: process-wide (an atomic taken once per keyspace), so that two
  // keyspaces never share a shape. A counter bumped on every change would be shared by a
  // campaign's threads.
  static std::uint64_t next_keyspace();

  FlatMap<Value> data_;
  UndoLog* journal_ = nullptr;
  Shape shape_{next_keyspace(), 0};
};

// Escapes bytes for dumps and messages: printable ASCII as is, '"' and '\\' escaped,
// everything else as \xHH; the result is wrapped in double quotes.
std::string quote_bytes(std::string_view bytes);

// How a zset score prints on the wire (ZSCORE, ZRANGE WITHSCORES): integers without a
// fraction, others with 17 significant digits, as the server does.
std::string format_score(double score);

}  // namespace trafikey::sim
