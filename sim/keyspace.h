// Keyspace: the simulated server's data, with the Valkey semantics the core needs.
//
// Strings, hashes and sorted sets; TYPE; WRONGTYPE on a key of another type. Hashes keep
// insertion order, as Valkey's listpack encoding does for small hashes, so HGETALL
// answers in the order a real server would. Sorted sets order by score, then member bytes
// (memcmp), as t_zset.c does. Lookups are hashed; every iteration the outside world can
// see (dump, ranges) is ordered, so nothing depends on hash order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "core/host.h"

namespace trafikey::sim {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

class Keyspace {
 public:
  using Hash = std::vector<std::pair<std::string, std::string>>;  // insertion order
  struct Zset {
    std::unordered_map<std::string, double, StringHash, std::equal_to<>> scores;
    std::set<std::pair<double, std::string>> order;  // score, then member bytes
    bool operator==(const Zset& o) const { return order == o.order; }
  };
  using Value = std::variant<std::string, Hash, Zset>;

  // ---- reads. Each typed read returns std::nullopt for "wrong type" through `wrong`.
  KeyType type(std::string_view key) const;
  bool exists(std::string_view key) const { return find(key) != nullptr; }
  const Value* find(std::string_view key) const;
  const std::string* string_at(std::string_view key, bool& wrong) const;
  const Hash* hash_at(std::string_view key, bool& wrong) const;
  const Zset* zset_at(std::string_view key, bool& wrong) const;

  static const std::string* hash_field(const Hash& hash, std::string_view field);
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
  std::int64_t hdel(std::string_view key, std::string_view field);
  std::int64_t zadd(std::string_view key, double score, std::string_view member);
  std::int64_t zrem(std::string_view key, std::string_view member);
  std::int64_t incr(std::string_view key);
  void set(std::string_view key, std::string_view value);
  std::int64_t del(std::string_view key);
  void clear() { data_.clear(); }

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

  std::unordered_map<std::string, Value, StringHash, std::equal_to<>> data_;
};

// Escapes bytes for dumps and messages: printable ASCII as is, '"' and '\\' escaped,
// everything else as \xHH; the result is wrapped in double quotes.
std::string quote_bytes(std::string_view bytes);

// How a zset score prints on the wire (ZSCORE, ZRANGE WITHSCORES): integers without a
// fraction, others with 17 significant digits, as the server does.
std::string format_score(double score);

}  // namespace trafikey::sim
