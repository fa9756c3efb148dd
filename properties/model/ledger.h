// Ledger: the model's record of each job's history (model.h owns one).
//
// Fed after every call with the call and the answer the model gave it (Model::settle),
// stamped with the incarnation that served it, it keeps per job what the rows cannot say:
// the state the answers imply and every move with its call, the current token and who
// was granted it, which incarnation last granted or extended the lease (and when, in
// true time), and the budgets as the spec would charge them. It does not read the server:
// the invariant checker compares the two.
//
// Counters follow the spec by process, not by row: a sweep charges `stalled` only when
// the ledger's stamp names the sweeping incarnation (EMQ §5), whatever the run_ids are;
// the checker's comparison is what catches a server that charged otherwise. Jobs never
// seen added (rows a scenario built by hand) are adopted when an answer first names
// them. Of the plain commands, three change the ledger: DEL of a row, or SET of a row key
// (the id becomes a ghost; of an id the ledger does not hold, until it holds one: an
// operator may then put the id in a set by hand, as a ghost from the start), and HSET of
// `group` on a row (the job becomes a lane row). Of the scripts, the
// scripted executor's (sim/executor_scripts.h, by EVALSHA digest or EVAL body) move jobs
// as the verbs they stand for, with no stamp: claim.lua grants a lease (granted, not
// stamp), extend.lua moves its deadline, complete.lua finishes it.
//
// Persistence: each event carries the index of the call that caused it. When a restart or
// failover keeps only the calls up to some index (persistence keeps a prefix of the write
// stream, at call boundaries), truncate() drops later events and rebuilds.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/args.h"
#include "core/bytes.h"
#include "core/reply.h"
#include "core/states.h"
#include "properties/model/names.h"
#include "sim/call_effects.h"
#include "sim/history.h"
#include "sim/world.h"

namespace trafikey::properties::model {

using sim::CallRecord;
using sim::Instant;


struct LeaseStamp {          // the last CLAIM, EXTEND or EXTENDS that stamped the row
  int incarnation = 0;
  std::int64_t true_ms = 0;
  std::int64_t server_ms = 0;
  std::int64_t call = 0;     // call index
  bool by_claim = false;
  // A grant by the scripted executor (claim.lua): it writes no lease_epoch, so it is a
  // JobTruth::granted only, never a JobTruth::stamp.
  bool scripted = false;
  bool operator==(const LeaseStamp&) const = default;
};

struct Transition {
  JobState from, to;
  std::int64_t call;
  bool operator==(const Transition&) const = default;
};

struct JobTruth {
  std::string queue;
  std::string id;
  JobState state = JobState::pending;
  std::int64_t token = 0;        // attempts: the live fencing token
  std::string holder;            // actor granted `token`
  std::optional<LeaseStamp> granted;  // the CLAIM (or claim.lua) that granted `token`
  std::optional<LeaseStamp> stamp;    // the last CLAIM, EXTEND or EXTENDS: what the row's
                                      // lease_epoch names (the scripts leave it as it was)
  std::int64_t deadline_server_ms = 0;
  std::int64_t stalled = 0;
  std::int64_t failures = 0;
  std::int64_t max_failures = 3;
  bool lane = false;  // a plain HSET wrote `group`: the sweep leaves it (EMQ §5)
  std::vector<Transition> transitions;
  bool operator==(const JobTruth&) const = default;
};


class Ledger {
 public:
  Ledger() = default;
  Ledger(const Ledger&) = delete;
  Ledger& operator=(const Ledger&) = delete;
  Ledger(Ledger&&) = default;
  Ledger& operator=(Ledger&&) = default;

  void apply(const CallRecord& call);
  // The same, for a call whose EMQ verb the caller has found (the model's Expectation::verb;
  // none: not an EMQ verb the module ran, read from the call's name as apply(call) does).
  void apply(const CallRecord& call, EmqVerb verb);
  // Keeps only effects of calls with index <= last_call (persistence loss).
  void truncate(std::int64_t last_call);

  using Key = std::pair<std::string, std::string>;  // queue, id
  // Orders keys and (queue, id) views alike, so lookups build no strings: by queue, then
  // id, each in byte order (unsigned, as std::string compares). Names are a few bytes, so
  // an inline loop beats the two memcmp calls a string compare makes.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      const int queues = compare(a.first, b.first);
      return queues != 0 ? queues < 0 : compare(a.second, b.second) < 0;
    }
    static int compare(std::string_view a, std::string_view b) {
      const std::size_t n = a.size() < b.size() ? a.size() : b.size();
      for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
        if (x != y) return x < y ? -1 : 1;
      }
      return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
    }
  };

 private:
  // A key number stands for one (queue, id) for the life of the ledger; its slot also
  // holds the ledger's job, so a new job costs no node of its own.
  struct Slot {
    Key key;
    std::uint64_t hash = 0;  // hash(key), kept for growing table_
    bool held = false;       // the ledger holds this job
    bool unheld_ghost = false;  // in ghosts_ by a DEL of its row while not held (model())
    JobTruth job;            // meaningful while held
  };

 public:
  // The jobs the ledger holds, in key order, as (key, job) pairs: what iterating a
  // std::map<Key, JobTruth> listed. A view: valid until the ledger next changes.
  class Jobs {
   public:
    using value_type = std::pair<const Key&, const JobTruth&>;
    class iterator {
     public:
      value_type operator*() const { return {slots_[*at_].key, slots_[*at_].job}; }
      iterator& operator++() {
        ++at_;
        return *this;
      }
      bool operator==(const iterator& other) const { return at_ == other.at_; }

     private:
      friend class Jobs;
      iterator(const Slot* slots, const std::uint32_t* at) : slots_(slots), at_(at) {}
      const Slot* slots_;
      const std::uint32_t* at_;
    };
    iterator begin() const { return {slots_, order_->data()}; }
    iterator end() const { return {slots_, order_->data() + order_->size()}; }
    std::size_t size() const { return order_->size(); }
    bool empty() const { return order_->empty(); }
    bool contains(const Key& key) const;
    // Same keys in the same order, with equal jobs.
    bool operator==(const Jobs& other) const;

   private:
    friend class Ledger;
    Jobs(const Slot* slots, const std::vector<std::uint32_t>* order) : slots_(slots), order_(order) {}
    const Slot* slots_;
    const std::vector<std::uint32_t>* order_;
  };
  Jobs jobs() const { return Jobs(slots_.data(), &order_); }
  // Valid until the ledger next changes.
  const JobTruth* job(std::string_view queue, std::string_view id) const;
  // Ids whose row a plain DEL (or SET) removed while the id may still sit in a set, or may
  // be put in one by hand: ghosts, which CLAIM and the sweep remove (EMQ §4, §5).
  const std::set<Key, KeyLess>& ghosts() const { return ghosts_; }
  // Calls f(queue, id) for each job call `index` moved, as apply() read them from its argv
  // and reply (none when it moved none, or when a later call has been applied since): a
  // checker judges these after the call instead of every word the call carries. The views
  // last until the ledger next changes.
  template <class F>
  void each_moved(std::int64_t index, F&& f) const {
    if (!events_.empty() && events_.back().call == index) each_job_of(events_.back(), f);
  }

  // Calls f(queue, id) for each job the calls after `call` moved (newest first; a job may
  // come more than once): what truncate(call) would take back. The views last until the
  // ledger next changes.
  template <class F>
  void each_moved_after(std::int64_t call, F&& f) const {
    for (auto e = events_.rbegin(); e != events_.rend() && e->call > call; ++e) each_job_of(*e, f);
  }

 private:
  // What a call was to the ledger (del: a DEL or SET of a row; hset: HSET of `group`).
  enum class Verb : std::uint8_t {
    other, add, claim, extend, extends, complete, fail, sweep, del, hset,
    script_claim, script_extend, script_complete
  };
  // What one call did to the ledger, decoded once from its argv and reply: truncate()
  // replays these, so the log holds no copy of argv, reply or actor, and the replay
  // parses nothing. Jobs are named by key number (see slots_).
  struct Event {
    std::int64_t call = 0;     // the call's index
    Instant at;
    std::int64_t arg = 0;      // ADD: max_failures; CLAIM, EXTEND(S): lease ms; FAIL: the reply
    std::uint32_t begin = 0;   // items_[begin, end): the jobs it names, in reply order
    std::uint32_t end = 0;
    std::uint32_t extra = 0;   // CLAIM: the actor's number; sweep: items before begin+extra recovered
    Verb verb = Verb::other;
  };
  struct Item {
    std::uint32_t key = 0;     // key number
    std::int64_t token = 0;    // CLAIM: the token granted
  };
  // The key's hash: each name's, mixed so that ("ab", "c") and ("a", "bc") differ.
  static std::uint64_t hash(std::string_view queue, std::string_view id) {
    return StringHash{}(queue) * 0x9e3779b97f4a7c15ull + StringHash{}(id);
  }

  // f(queue, id) for each job `event` names, in order.
  template <class F>
  void each_job_of(const Event& event, F& f) const {
    for (std::uint32_t i = event.begin; i < event.end; ++i) {
      const Key& key = slots_[items_[i].key].key;
      f(std::string_view(key.first), std::string_view(key.second));
    }
  }
  static Verb verb_of_effects(const sim::CallEffects& effects);
  bool decode(const CallRecord& call, EmqVerb verb, Event& event);
  std::uint32_t key_number(std::string_view queue, std::string_view id);
  // The cell of table_ that holds (queue, id), or the empty cell where it would go.
  std::size_t probe(std::string_view queue, std::string_view id, std::uint64_t h) const;
  std::uint32_t actor_number(std::string_view actor);
  // Applies item i of `event` (the items of one event go in order).
  void model(const Event& event, std::uint32_t i);
  JobTruth& adopt(std::uint32_t key, JobState state);
  void move(JobTruth& job, JobState to, std::int64_t call);
  void forget(std::uint32_t key);  // the ledger no longer holds the key's job
  // Where `key` is or would go in order_.
  std::vector<std::uint32_t>::iterator order_at(std::uint32_t key);

  std::vector<std::uint32_t> order_;  // the key numbers of the held jobs, in key order
  std::set<Key, KeyLess> ghosts_;
  // key -> key number, by open addressing: each cell is a key number + 1, or 0 when
  // empty; a power of two in size, at most half full. A node-based map cost an
  // allocation per new key and a division per lookup. Only looked up, never iterated:
  // no order depends on a hash.
  std::vector<std::uint32_t> table_;
  std::vector<Slot> slots_;  // by key number
  std::unordered_map<std::string, std::uint32_t, StringHash, StringEqual> actor_index_;
  std::vector<std::string> actors_;                               // by actor number
  std::vector<Event> events_;  // calls that moved the ledger, in order
  std::vector<Item> items_;    // the jobs the events name
  std::vector<bool> dirty_;    // truncate(): the keys to rebuild (kept to reuse its buffer)
  sim::CallEffects effects_;   // decode(): the last call's moves (kept to reuse its buffer)
};

}  // namespace trafikey::properties::model
