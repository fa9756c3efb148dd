// The spec's names (EMQ.md §1: keys, queue names, the four states; §4: the verbs), spelt
// here from the page for the harness: the call-effects decoder (sim/call_effects.h), the
// model, its ledger and the invariant checker read the server's keys through these, never
// through core/keys.cpp or core/states.cpp. A wrong core in
// those files (a key misspelt, a state misnamed) would otherwise move the checker with it,
// and only verb.model would still stand apart.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/states.h"

namespace trafikey::sim::spec {

// §4's verbs. The checker's and the ledger's as well: the core's command table would move
// the harness with a core that got it wrong.
enum class EmqVerb : std::uint8_t { none, add, claim, extend, extends, complete, fail, sweep, stats, job, epoch };
// The verb `word` names, whatever its case (none: no verb of the page). Found once per call
// and passed on as this: the model, the ledger and the checker each tested the call's name
// against the spec's names, a string compare each, several times a call.
EmqVerb verb_of(std::string_view word);
// As the page spells it ("EMQ.CLAIM"); "" for none.
std::string_view verb_name(EmqVerb verb);

// §1: the keys of queue q.
std::string pending_key(std::string_view q);
std::string active_key(std::string_view q);
std::string done_key(std::string_view q);
std::string dead_key(std::string_view q);
std::string seq_key(std::string_view q);
std::string row_key(std::string_view q, std::string_view id);

// §1: a queue name is 1..200 bytes with no '{', '}' or NUL.
bool queue_name_ok(std::string_view q);

// A queue's fixed key names, spelt once per queue rather than once per call.
struct QueueNames {
  explicit QueueNames(std::string_view q);
  std::string pending, active, done, dead, seq;
  std::string row_prefix;  // "emq:{q}:job:", row_key(q, "")
};

// A row's key name, "emq:{q}:job:" + id, held inline when it fits: the harness looks a row
// up or names it several times a call, and a std::string of it cost an allocation each.
class RowName {
 public:
  RowName(std::string_view prefix, std::string_view id) : size_(prefix.size() + id.size()) {
    if (size_ <= sizeof(inline_)) {
      std::copy(prefix.begin(), prefix.end(), inline_);
      std::copy(id.begin(), id.end(), inline_ + prefix.size());
    } else {
      long_.reserve(size_);
      long_.append(prefix).append(id);
    }
  }
  RowName(const QueueNames& names, std::string_view id) : RowName(names.row_prefix, id) {}
  RowName(const RowName&) = delete;
  RowName& operator=(const RowName&) = delete;
  std::string_view view() const {
    return size_ <= sizeof(inline_) ? std::string_view(inline_, size_) : std::string_view(long_);
  }
  operator std::string_view() const { return view(); }

 private:
  char inline_[80];
  std::string long_;
  std::size_t size_;
};

// "emq:{q}:job:id" -> (q, id): the queue name runs to the first '}' (a queue name holds
// none), and the id is the rest, whatever its bytes. nullopt for any other key.
struct RowKeyParts {
  std::string_view queue, id;
};
std::optional<RowKeyParts> parse_row_key(std::string_view key);
// "emq:{q}:pending" (or :active, :done, :dead) with q a queue name -> q; nullopt otherwise.
std::optional<std::string_view> set_key_queue(std::string_view key);
// "emq:{q}:pending" -> q; "" for any other key.
std::string_view pending_key_queue(std::string_view key);

// The four states as rows spell them (§1: state is pending, active, done or dead).
std::string_view state_name(JobState state);
std::optional<JobState> parse_state(std::string_view name);
// "pending->active"
std::string transition_name(JobState from, JobState to);

}  // namespace trafikey::sim::spec
