// SimServer: one simulated Valkey server process with the trafikey module, over a
// Keyspace it does not own (the world keeps datasets across restarts).
//
// It is the core's Host for the simulation and for the unit tests: a settable server
// clock, a role (primary, replica, loading) for the fence, a write-permission predicate
// standing in for ACLs, and a process Incarnation that owns its epoch. A process whose
// run_id read failed or was malformed has no module: EMQ verbs answer as unknown
// commands, as a real server would after a refused load.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/epoch.h"
#include "core/host.h"
#include "sim/keyspace.h"
#include "sim/lua.h"

namespace trafikey::sim {

struct Incarnation {
  int number = 0;           // 1 for the first process of a run
  std::string run_id;       // what INFO server would print (empty when the read failed)
  Epoch epoch;              // the module's, loaded at start
  bool module_loaded = false;
};

enum class Role : std::uint8_t { primary, replica, loading };

// One write of a plain command (sim/plain.h), as it reaches the keyspace.
struct WriteOp {
  enum class Kind : std::uint8_t { hset, hdel, zadd, zrem, incr, set, del };
  Kind kind;
  std::string key;
  std::string field;  // hset/hdel field, zadd/zrem member, set value
  std::string value;  // hset value
  double score = 0;   // zadd
};
void apply(Keyspace& data, const WriteOp& op);

class SimServer final : public Host, private Writer {
 public:
  explicit SimServer(Keyspace& data) : data_(&data) {}

  // Starts a new process on the current dataset. `run_id_read` is what the module's
  // run_id read returns; the module loads only when it is a valid run_id.
  const Incarnation& start(Outcome<std::string> run_id_read);
  const Incarnation& incarnation() const { return incarnation_; }
  // A failover: the process now serving is demoted, not ended. It keeps running as a
  // replica (its run_id, grant counter and script cache as they are) in the one standby
  // slot, replacing whatever the slot held; start() then begins the promoted replica's
  // process. A restart ends the serving process and leaves the standby where it is.
  void keep_as_standby();
  bool has_standby() const { return standby_.has_value(); }
  // A failback: the standby serves again and the process that served becomes the standby.
  // No load runs (the module stays loaded in both processes as it was): the run_id and the
  // grant counter go on where that process left them (EMQ §8).
  void swap_with_standby();
  // The dataset reloaded inside this process (DEBUG RELOAD, or the module unloaded and
  // loaded again): the same process, so the same run_id; the module's load runs again on
  // it (EMQ §2: a second load in the same process keeps the first value). The dataset and
  // the script cache stay as they are. The load's run_id read is `read`: the process's own
  // run_id, or a failed or malformed read (an epoch fault), which refuses the load (EMQ §2),
  // so the process serves no EMQ verb until it is restarted. Nothing happens when no module
  // is loaded.
  void reload(const Outcome<std::string>& read);
  void rebind(Keyspace& data) { data_ = &data; }

  void set_now_ms(std::int64_t now_ms) { now_ms_ = now_ms; }
  // A verb call starts: its first clock read is now_ms_ again (see now_ms()). call() does
  // it; a caller that runs a verb on this host itself (core/tests) does it first.
  void begin_call() { clock_reads_ = 0; }
  std::int64_t server_now_ms() const { return now_ms_; }
  void set_role(Role role) { role_ = role; }
  Role role() const { return role_; }
  // Stand-in for the server's ACL: keys for which this returns true may not be written.
  void set_write_denied(std::function<bool(std::string_view)> denied) {
    write_denied_ = std::move(denied);
  }

  // A client call: an EMQ verb (when the module is loaded), EVAL/EVALSHA/SCRIPT (sim/lua.h)
  // or one of the plain commands scenarios may use (sim/plain.h). Anything else is an
  // unknown command.
  Reply call(Args argv);

  const Keyspace& data() const { return *data_; }
  // Writes applied so far by this server object (verbs and plain commands).
  std::int64_t writes() const { return writes_; }
  // Applies a write: the path of plain-command writes.
  void write(const WriteOp& op);

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
  // The server's clock moves while a call runs (the module reads the wall clock each time,
  // RedisModule_Milliseconds); here it is fixed per call, so a core that read it twice in
  // one call (EMQ §4: one `now` for the call) would pass every run. Every read after a
  // call's first is one ms later: a correct verb reads it once and sees no difference.
  Outcome<std::int64_t> now_ms() override { return now_ms_ + (clock_reads_++ > 0 ? 1 : 0); }
  const Epoch& epoch() const override { return incarnation_.epoch; }
  Epoch& epoch() override { return incarnation_.epoch; }
  Status fence() override;
  Status may_write(std::string_view key) override;
  Writer& begin_writes() override { return *this; }

 private:
  // ---- Writer
  void hset(std::string_view key, std::span<const FieldRef> fields) override;
  void zadd(std::string_view key, std::int64_t score, std::string_view member) override;
  void zrem(std::string_view key, std::string_view member) override;
  std::int64_t incr(std::string_view key) override;

  Keyspace* data_;
  Incarnation incarnation_;
  int last_number_ = 0;  // the highest incarnation number started
  struct Standby {
    Incarnation incarnation;
    Scripting scripting;
  };
  std::optional<Standby> standby_;
  std::int64_t now_ms_ = 0;
  std::int64_t clock_reads_ = 0;  // now_ms() reads in the current call
  Role role_ = Role::primary;
  std::function<bool(std::string_view)> write_denied_;
  std::int64_t writes_ = 0;
  Scripting scripting_;  // the process's script cache
};

// The server's reply to a command it does not know, byte for byte:
// ERR unknown command 'NAME', with args beginning with: 'a' 'b' 
Reply unknown_command(Args argv);

}  // namespace trafikey::sim
