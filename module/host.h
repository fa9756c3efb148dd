// ModuleHost: the core's Host over the module API, for the length of one command call
// (see shared design ARCHITECTURE.md, "The core"; MODULE-ABI.md for the calls).
//
// Reads of the verbs' hot path (TYPE, HGET, ZSCORE, ZCARD, ZRANGE BYSCORE, ZRANGE from rank
// 0) go through the low-level key API: OpenKey(READ) once per key for the read pass, the
// typed accessor, CloseKey before the first write. They mean what the commands mean (a key
// of another type is the server's WRONGTYPE; a missing key is empty; a READ open expires a
// key as a READ command does), without the cost of RedisModule_Call (a fake client, argv
// objects, a command lookup, a reply buffer parsed back). The rarer reads (GET, HGETALL,
// ZRANGE from a rank > 0) still use RedisModule_Call without '!'. No read uses the 'C'
// flag: the verb's own access rule is the write check below (shared spec EMQ §6), not the
// caller's command ACL.
//
// Writes (HSET, ZADD, ZREM) go through the low-level key API too (OpenKey(WRITE): the
// server signals the key modified when it is closed), and each is followed by
// RedisModule_Replicate of the concrete command and the keyspace event the command would
// have fired, so a replica or an AOF replay applies the primary's bytes (its clock, its
// run_id), wrapped with the call's other writes in MULTI/EXEC, and never re-runs the verb.
// INCR stays a RedisModule_Call with '!' (it keeps a counter's TTL and encoding exactly as
// the command does). Every write follows a read pass that proved its key's type.
//
// may_write asks the server's ACL about the calling user; the user is looked up once per
// call and freed with the host.
#pragma once

#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/host.h"
#include "module/abi.h"

namespace trafikey::module {

class ModuleHost final : public Host, private Writer {
 public:
  ModuleHost(abi::Ctx* ctx, Epoch& epoch) : ctx_(ctx), epoch_(&epoch) {
    names_.reserve(names_window);
    reads_.reserve(reads_max);
  }
  ~ModuleHost() override;
  ModuleHost(const ModuleHost&) = delete;
  ModuleHost& operator=(const ModuleHost&) = delete;

  // ---- Host
  Outcome<KeyType> type(std::string_view key) override;
  Outcome<std::optional<std::string_view>> get(std::string_view key) override;
  Outcome<std::optional<std::string_view>> hget(std::string_view key,
                                                std::string_view field) override;
  Outcome<std::vector<FieldValue>> hgetall(std::string_view key) override;
  Outcome<std::optional<double>> zscore(std::string_view key, std::string_view member) override;
  Outcome<std::int64_t> zcard(std::string_view key) override;
  Outcome<std::vector<ScoredMember>> zrange_by_score(std::string_view key, double max_exclusive,
                                                    std::size_t limit) override;
  Outcome<std::vector<std::string>> zrange_by_rank(std::string_view key, std::int64_t start,
                                                  std::int64_t stop) override;
  Outcome<std::int64_t> now_ms() override;
  const Epoch& epoch() const override { return *epoch_; }
  Epoch& epoch() override { return *epoch_; }
  Status fence() override;
  Status may_write(std::string_view key) override;
  Writer& begin_writes() override {
    end_reads();
    return *this;
  }

 private:
  // ---- Writer
  void hset(std::string_view key, std::span<const FieldRef> fields) override;
  void zadd(std::string_view key, std::int64_t score, std::string_view member) override;
  void zrem(std::string_view key, std::string_view member) override;
  std::int64_t incr(std::string_view key) override;

  // Logs a write the read pass said could not fail, and did.
  void write_failed(const char* command, std::string_view key);
  // The bytes as a module string, kept until the call ends: key and field names, which a
  // verb uses again and again.
  abi::String* name(std::string_view bytes);
  // The key opened for reading, kept open across the read pass (a verb reads the same row
  // and zsets several times); null when it does not exist. Every write and every
  // RedisModule_Call closes them first (end_reads), so no handle outlives a change.
  abi::Key* read_key(std::string_view key);
  void end_reads();

  abi::Ctx* ctx_;
  Epoch* epoch_;
  abi::User* user_ = nullptr;  // the caller's ACL user, once looked up
  bool user_looked_up_ = false;
  static constexpr std::size_t names_window = 16;  // how far back name() looks
  std::vector<std::pair<std::string, abi::String*>> names_;  // made by name(), freed at the end
  static constexpr std::size_t reads_max = 8;  // READ keys kept open at once
  std::vector<std::pair<abi::String*, abi::Key*>> reads_;  // by name()
  // What get() and hget() answered views of, kept until the call ends (Host's contract):
  // HGET values as the module strings HashGet made, GET values copied out of the reply.
  std::vector<abi::String*> values_;
  std::deque<std::string> copies_;  // a deque: adding a copy moves none of the others
};

// INFO server's run_id through the three server-info calls (shared seed "One value per
// process"). The caller (Epoch::load) checks its shape.
Outcome<std::string> read_run_id(abi::Ctx* ctx);

}  // namespace trafikey::module
