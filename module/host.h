// ModuleHost: the core's Host over the module API, for the length of one command call
// (see shared design ARCHITECTURE.md, "The core"; MODULE-ABI.md for the calls).
//
// Reads go through RedisModule_Call without '!': the server's own commands (TYPE, HGET,
// ZRANGE ... BYSCORE, ...) answer, so a read means exactly what it means to a client,
// WRONGTYPE included. They run without the 'C' flag: the verb's own access rule is the
// write check below (shared spec EMQ §6), not the caller's command ACL.
//
// Writes go through RedisModule_Call with '!': each concrete command (HSET, ZADD, ZREM,
// INCR) is propagated to replicas and the AOF, wrapped with the call's other writes in
// MULTI/EXEC. The verb itself is never propagated, so a replica or an AOF replay applies
// the primary's bytes (its clock, its run_id) instead of re-running the verb.
//
// may_write asks the server's ACL about the calling user; the user is looked up once per
// call and freed with the host.
#pragma once

#include <string>
#include <string_view>

#include "core/host.h"
#include "module/abi.h"

namespace trafikey::module {

class ModuleHost final : public Host, private Writer {
 public:
  ModuleHost(abi::Ctx* ctx, const Epoch& epoch) : ctx_(ctx), epoch_(&epoch) {}
  ~ModuleHost() override;
  ModuleHost(const ModuleHost&) = delete;
  ModuleHost& operator=(const ModuleHost&) = delete;

  // ---- Host
  Outcome<KeyType> type(std::string_view key) override;
  Outcome<std::optional<std::string>> get(std::string_view key) override;
  Outcome<std::optional<std::string>> hget(std::string_view key, std::string_view field) override;
  Outcome<std::vector<FieldValue>> hgetall(std::string_view key) override;
  Outcome<std::optional<double>> zscore(std::string_view key, std::string_view member) override;
  Outcome<std::int64_t> zcard(std::string_view key) override;
  Outcome<std::vector<ScoredMember>> zrange_by_score(std::string_view key, double max_exclusive,
                                                    std::size_t limit) override;
  Outcome<std::vector<std::string>> zrange_by_rank(std::string_view key, std::int64_t start,
                                                  std::int64_t stop) override;
  Outcome<std::int64_t> now_ms() override;
  const Epoch& epoch() const override { return *epoch_; }
  Status fence() override;
  Status may_write(std::string_view key) override;
  Writer& begin_writes() override { return *this; }

 private:
  // ---- Writer
  void hset(std::string_view key, std::span<const FieldRef> fields) override;
  void zadd(std::string_view key, std::int64_t score, std::string_view member) override;
  void zrem(std::string_view key, std::string_view member) override;
  std::int64_t incr(std::string_view key) override;

  // Logs a write the read pass said could not fail, and did.
  void write_failed(const char* command, std::string_view key);

  abi::Ctx* ctx_;
  const Epoch* epoch_;
  abi::User* user_ = nullptr;  // the caller's ACL user, once looked up
  bool user_looked_up_ = false;
};

// INFO server's run_id through the three server-info calls (shared seed "One value per
// process"). The caller (Epoch::load) checks its shape.
Outcome<std::string> read_run_id(abi::Ctx* ctx);

}  // namespace trafikey::module
