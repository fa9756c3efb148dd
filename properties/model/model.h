// Model: an independent executable model of shared spec EMQ.md, the oracle of the
// invariant `verb.model` (INVARIANTS.md).
//
// Written from the spec page, not from the core: it shares no code with core/verbs/ or
// core/decide/ (only the plain Reply and Args types, and the simulated keyspace as a data
// structure). Given a call, the server time and the process's run_id, it predicts the
// reply and applies the call's writes to its own dataset, so after each call the server's
// written keys, and at each phase end its whole keyspace, can be compared with the
// model's. It knows the plain commands of the simulated server too (sim/plain.cpp: DEL,
// HSET, ...), so an operator's fault (a deleted row, a written `group`) keeps it exact,
// and runs EVAL/EVALSHA scripts (the scripted executor) through those plain commands.
//
// Where to find a rule: each verb of §4 in its own file, with the name core/verbs/ gives
// it (verb_call.h lists them); the refusals they share, and which answers the model accepts
// where the spec leaves a choice, in refusals.h; reading rows and leases in rows.h; the
// plain commands in plain.cpp; comparing datasets in compare.cpp.
//
// The ledger (ledger.h) is the model's record of each job's history, fed by settle() after
// each call with the model's own answer: the one ground truth the checker, the reports it
// feeds and the shrinker read (the world keeps none).
//
// Persistence: the model's dataset is a prefix of its own write stream. end_call(i) marks
// where call i ended; keep_calls(n) takes the dataset back to the end of call n, as a
// restart or failover that kept n calls does, and the ledger with it. It is never rebuilt
// from the server.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/reply.h"
#include "properties/model/ledger.h"
#include "properties/model/names.h"
#include "sim/keyspace.h"
#include "sim/lua.h"
#include "sim/run_id.h"
#include "sim/undo.h"

namespace trafikey::properties::model {

// §2: a run_id the module loads with is exactly 40 characters of 0-9a-f (the checker's
// oracle for epoch.load; sim/run_id.h spells it from the page, not from the core).
using sim::run_id_shape_ok;

// What the call runs under.
struct Context {
  std::int64_t now_ms = 0;     // the server's clock at the call
  bool module_loaded = true;   // false: EMQ verbs are unknown commands
  std::string_view run_id;     // the process's epoch (current())
  bool writable = true;        // false: a replica or a loading server (the fence)
  bool replica = false;        // plain writes refuse on a replica only
  std::string_view write_denied;  // the one key the caller may not write (empty: none)
  // §8: the number the process's grant counter holds before the call (a CLAIM's grants
  // take the numbers after it, in order)
  std::int64_t last_grant = 0;
};

// What the model expects of one call.
struct Expectation {
  std::vector<Reply> replies;              // any of these is right
  std::vector<std::string> range_suffixes; // also right: "ERR EMQ <any> must be an integer in <suffix>"
  std::string note;                        // what the model saw, for a reviewer
  bool writes = false;                     // the model wrote something
  EmqVerb verb = EmqVerb::none;            // the EMQ verb the model ran (none: not one)

  // Empty again, its buffers kept for the next call.
  void clear();
  bool accepts(const Reply& reply) const;
  // "[[j1 1 a]]", or "one of: ..." for a set of refusals.
  std::string describe() const;
};

// A queue's key names, and its four sets (pending, active, done, dead): a verb reads them
// from here (VerbCall::value), looked up again only after a key came or went
// (sim::Keyspace::shape), not two to five times a call.
struct QueueCache {
  explicit QueueCache(std::string_view q) : names(q) {}
  QueueNames names;
  sim::Keyspace::Lookups<4> sets;
};

class Model {
 public:
  Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  // Predicts the call and applies its writes (a lost reply still ran).
  Expectation call(Args argv, const Context& ctx);
  // The same into `out` (cleared first): the checker's form, which reuses its buffers.
  void call(Args argv, const Context& ctx, Expectation& out);

  // Call `call` ran, and `e` was the model's prediction for it (call() above): the call's
  // index ends a position of the stream (end_call), and the ledger records what the call
  // did to the jobs, from the server's reply where the model accepts it (where the spec
  // leaves a choice, among refusals or "nothing done" answers, none of which moves a job),
  // else from the model's own first answer. So the ledger is the model's: what the
  // checker judges the server by, never what the server said unless the model agrees.
  void settle(const sim::CallRecord& call, const Expectation& e) { settle(call, e, e.accepts(call.reply)); }
  // The same, `accepted` being e.accepts(call.reply) (the checker asks it once per call).
  void settle(const sim::CallRecord& call, const Expectation& e, bool accepted);
  // Per job, what the rows cannot say: who holds the lease, which process and true time
  // granted or last stamped it, the state changes with their calls, the ghosts; and the
  // budgets as the spec charges them by that incarnation (ledger.h).
  const Ledger& ledger() const { return ledger_; }

  const sim::Keyspace& data() const { return data_; }
  // Call `index` (1, 2, ...) has ended: the dataset as of it is a position of the stream.
  void end_call(std::int64_t index);
  // A new process started on the first `calls` calls (what persistence or the replica
  // kept): the model's dataset goes back to the end of call `calls`.
  void keep_calls(std::int64_t calls);
  std::int64_t calls() const { return static_cast<std::int64_t>(ends_.size()) - 1; }
  // The position of the model's journal (data().journal()) at the end of call `calls`:
  // what keep_calls(calls) would undo is the journal's entries after it.
  std::int64_t position_after(std::int64_t calls) const {
    const auto i = static_cast<std::size_t>(std::max<std::int64_t>(calls, 0));
    return i < ends_.size() ? ends_[i] : undo_.position();
  }
  // The server process numbered `incarnation` serves from now on: a new one's script cache
  // is empty (EVALSHA answers NOSCRIPT); one that served before (a failback) has its own
  // cache back, as a real server keeps its cache across a resync.
  void serve_process(int incarnation) {
    if (incarnation == serving_) return;
    caches_[serving_] = std::move(scripting_);
    auto it = caches_.find(incarnation);
    if (it == caches_.end()) {
      scripting_ = sim::Scripting();
    } else {
      scripting_ = std::move(it->second);
      caches_.erase(it);
    }
    serving_ = incarnation;
  }

 private:
  // Each fills `e` (empty on entry) and returns it.
  // name: the verb argv[0] names (in any case); its prediction is in the verb's file
  Expectation& verb(EmqVerb name, Args argv, const Context& ctx, Expectation& e);
  Expectation& plain(Args argv, const Context& ctx, Expectation& e);
  Expectation& script(Args argv, const Context& ctx, Expectation& e);
  // The verb's writes since `from` touched `denied`: undone, and the reply is NOPERM (§6).
  void refuse_denied_write(std::int64_t from, std::string_view denied, Expectation& e);

  // Queue q's names and sets, made at its first call.
  QueueCache& queue_of(std::string_view q);

  sim::Keyspace data_;
  sim::UndoLog undo_;
  Ledger ledger_;
  std::vector<std::int64_t> ends_{0};  // [call index] -> stream position at its end
  // EVAL, EVALSHA, SCRIPT: the same Lua engine as the simulated server (sim/lua.h, plain
  // infrastructure, not the core), its redis.calls answered by this model's plain commands
  // on this model's dataset, so a script's effects are predicted, not read back.
  sim::Scripting scripting_;
  int serving_ = 0;                          // the process scripting_ belongs to
  std::map<int, sim::Scripting> caches_;     // the others', by process (serve_process)
  // Node-based: the names' views stay valid while the map grows.
  std::map<std::string, QueueCache, std::less<>> names_;
  std::pair<const std::string, QueueCache>* last_names_ = nullptr;  // queue_of's last answer
  Expectation inner_;  // a script's current redis.call
};

// Whether two keys' values (null: no key) hold the same: compare_key's test, without the text.
bool same_value(const sim::Keyspace::Value* server, const sim::Keyspace::Value* model);
// Compares one key of two keyspaces: same type and contents (hash fields as a set, zset
// members with their scores in order). Empty when equal, else what differs.
std::string compare_key(const sim::Keyspace& server, const sim::Keyspace& model, std::string_view key);
// The first keys (at most `max`) where the two keyspaces differ, with what differs.
std::string compare_all(const sim::Keyspace& server, const sim::Keyspace& model, std::size_t max = 3);

}  // namespace trafikey::properties::model
