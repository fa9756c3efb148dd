// The unit tests' host: one simulated server process (sim::SimServer over a sim::Keyspace)
// whose run_id is the seed's NOW, a settable clock, and a tracing wrapper that logs every
// read and write the core makes through the Host interface.
//
// The tracer also checks the two-pass shape of every verb (shared spec EMQ §4): once a verb
// has taken its Writer, any further read, fence or access check fails the running test.
#pragma once

#include <utility>
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/commands.h"
#include "core/host.h"
#include "core/reply.h"
#include "sim/keyspace.h"
#include "sim/server.h"

namespace trafikey {
// gtest prints Reply values through this (found by ADL).
inline void PrintTo(const Reply& reply, std::ostream* os) { *os << debug_string(reply); }
}  // namespace trafikey

namespace trafikey::test {

// The seed's current process (EMQ §2 test vectors).
inline constexpr std::string_view NOW = "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812";
// The process after a restart: "0" * 40, a valid run_id that is not NOW.
inline constexpr std::string_view OTHER = "0000000000000000000000000000000000000000";

// ---- reply builders
inline Reply Int(std::int64_t value) { return Reply::integer(value); }
inline Reply Bulk(std::string_view bytes) { return Reply::bulk(bytes); }
inline Reply Arr(std::vector<Reply> items = {}) { return Reply::array(std::move(items)); }
inline Reply Err(std::string_view text) { return Reply::error(text); }
inline Reply Nil() { return Reply::nil(); }
// One claimed job in CLAIM's answer: [id, attempts, payload].
Reply Claimed(std::string_view id, std::int64_t attempts, std::string_view payload);
// STALLED.CHECK's answer: recovered [..] dead [..] ghosts [..] lanes [..].
Reply Swept(std::vector<std::string> recovered, std::vector<std::string> dead,
            std::vector<std::string> ghosts = {}, std::vector<std::string> lanes = {});

// ---- text helpers. Both replace the placeholders <NOW> and <OTHER> by the run_ids.
std::string subst(std::string_view text);
// Lines joined with '\n', each terminated: the shape of Keyspace::dump().
std::string lines(std::initializer_list<std::string_view> items);
std::vector<std::string> list(std::initializer_list<std::string_view> items);

// A Host that forwards to a SimServer and logs what the core does through it:
//   reads:  "TYPE k", "GET k", "HGET k f", "HGETALL k", "ZSCORE k m", "ZCARD k",
//           "ZRANGEBYSCORE k -inf (max LIMIT 0 n", "ZRANGE k start stop"
//   checks: "TIME", "FENCE", "ACL k" (logged with the reads)
//   writes: "HSET k f v [f v ...]" (one entry per Writer::hset call), "ZADD k score m",
//           "ZREM k m", "INCR k"
class TracingHost final : public Host, private Writer {
 public:
  explicit TracingHost(sim::SimServer& inner) : inner_(&inner) {}

  void reset() {
    reads.clear();
    writes.clear();
    writers_taken = 0;
    inner_writer_ = nullptr;
  }
  std::vector<std::string> reads;
  std::vector<std::string> writes;
  int writers_taken = 0;

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
  const Epoch& epoch() const override { return std::as_const(*inner_).epoch(); }
  Epoch& epoch() override { return inner_->epoch(); }
  Status fence() override;
  Status may_write(std::string_view key) override;
  Writer& begin_writes() override;

 private:
  void read(std::string entry);
  void hset(std::string_view key, std::span<const FieldRef> fields) override;
  void zadd(std::string_view key, std::int64_t score, std::string_view member) override;
  void zrem(std::string_view key, std::string_view member) override;
  std::int64_t incr(std::string_view key) override;

  sim::SimServer* inner_;
  Writer* inner_writer_ = nullptr;
};

// One server process with the module loaded (run_id NOW), its clock at `now_ms`.
class ServerUnderTest {
 public:
  explicit ServerUnderTest(std::string_view run_id = NOW, std::int64_t now_ms = 1000);

  // A client call. EMQ verbs run through the tracing host (reads/writes below are theirs);
  // anything else, or any call while the module is not loaded, is SimServer::call.
  Reply call(const std::vector<std::string>& argv);
  // Exactly SimServer::call, untraced.
  Reply client_call(const std::vector<std::string>& argv);
  // The core's command table run against the tracing host even when the module is not
  // loaded: a core-level host whose epoch may be missing.
  Reply core_call(const std::vector<std::string>& argv);

  void set_now_ms(std::int64_t now_ms) { server.set_now_ms(now_ms); }
  // A new process on the same dataset (the clock keeps running).
  void restart(Outcome<std::string> run_id_read) { server.start(std::move(run_id_read)); }
  std::string dump() const { return data.dump(); }

  const std::vector<std::string>& reads() const { return tracer.reads; }
  const std::vector<std::string>& writes() const { return tracer.writes; }

  sim::Keyspace data;
  sim::SimServer server{data};
  TracingHost tracer{server};
};

}  // namespace trafikey::test
