// The host interface: the only way the core touches the world (see shared design
// ARCHITECTURE.md, "The core"). The simulated server and the real module each implement it
// once.
//
// A verb reads through Host, decides, then calls begin_writes() and writes through the
// Writer it returns. Writer has no public constructor and Host hands it out only from
// begin_writes(), so "every refusal before any write" is a property of the types: once a
// verb holds a Writer it only writes and replies.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/epoch.h"
#include "core/outcome.h"

namespace trafikey {

enum class KeyType : std::uint8_t { none, string, list, set, zset, hash };
std::string_view key_type_name(KeyType type);  // as TYPE answers: "none", "hash", ...

struct FieldValue {
  std::string field;
  std::string value;
  bool operator==(const FieldValue&) const = default;
};

struct FieldRef {  // a field/value pair to write, borrowing its bytes
  std::string_view field;
  std::string_view value;
};

struct ScoredMember {
  std::string member;
  double score = 0;
  bool operator==(const ScoredMember&) const = default;
};

// Writes of one verb call. The host decides how they reach the keyspace (the sim applies
// them in place; the module issues replicated calls). Every write here is one the read
// pass has proved cannot fail on type, so writes report nothing back but INCR's value.
class Writer {
 public:
  virtual void hset(std::string_view key, std::span<const FieldRef> fields) = 0;
  virtual void zadd(std::string_view key, std::int64_t score, std::string_view member) = 0;
  virtual void zrem(std::string_view key, std::string_view member) = 0;
  virtual std::int64_t incr(std::string_view key) = 0;

 protected:
  Writer() = default;
  ~Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
};

class Host {
 public:
  virtual ~Host() = default;

  // ---- reads: each answers WRONGTYPE (errors::wrong_type) on a key of another type.
  //
  // GET and HGET answer views, not copies: a verb compares the epoch, a token or a state
  // against them and moves on. A view stays valid through the read pass, until the verb
  // takes its Writer (begin_writes()); a verb keeps a copy of what it needs past that (the
  // sim's views point into the keyspace its writes change; the module keeps each value
  // until the call ends).
  virtual Outcome<KeyType> type(std::string_view key) = 0;
  virtual Outcome<std::optional<std::string_view>> get(std::string_view key) = 0;
  virtual Outcome<std::optional<std::string_view>> hget(std::string_view key,
                                                       std::string_view field) = 0;
  // All fields of a hash in any order (the caller sorts); empty when the key is absent.
  virtual Outcome<std::vector<FieldValue>> hgetall(std::string_view key) = 0;
  virtual Outcome<std::optional<double>> zscore(std::string_view key,
                                               std::string_view member) = 0;
  virtual Outcome<std::int64_t> zcard(std::string_view key) = 0;
  // Members with score < max_exclusive, lowest first (ties by member bytes), at most limit.
  virtual Outcome<std::vector<ScoredMember>> zrange_by_score(std::string_view key,
                                                            double max_exclusive,
                                                            std::size_t limit) = 0;
  // Members at ranks start..stop inclusive (0-based, lowest first).
  virtual Outcome<std::vector<std::string>> zrange_by_rank(std::string_view key,
                                                          std::int64_t start,
                                                          std::int64_t stop) = 0;

  // ---- the process
  virtual Outcome<std::int64_t> now_ms() = 0;  // the server clock, ms
  virtual const Epoch& epoch() const = 0;
  // The same, to take grant numbers from (§8: CLAIM, in its read pass).
  virtual Epoch& epoch() = 0;
  // Writing verbs pass the fence first: a replica or a loading server refuses with
  // errors::not_primary.
  virtual Status fence() = 0;
  // The calling user may write `key`; else errors::no_write_access(key).
  virtual Status may_write(std::string_view key) = 0;

  // ---- the write pass
  virtual Writer& begin_writes() = 0;
};

}  // namespace trafikey
