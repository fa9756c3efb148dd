// The facts the rules of shared spec INVARIANTS.md are judged on (properties/judge/rules.h),
// and the sink that hears a broken rule.
//
// The rules are stated once; each of their users is an adapter that gathers these facts
// from what it can see and hands them over: the sim checker (properties/checker.h) from
// the simulated keyspace and the model's ledger, the real-server runner
// (scenarios/runner/real_checks.h) from a real server's keys and a ledger of the replies
// it was sent, the soak (scenarios/soak/queue_audit.h) from a real server's keys alone.
// A fact an adapter cannot know is passed as unknown (a null pointer or a nullopt), and
// the rule skips the part that needs it, naming that part to Findings::skipped; no
// adapter judges with a rule of its own.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "properties/model/ledger.h"
#include "sim/keyspace.h"

namespace trafikey::properties::judge {

// Where a rule reports. `fail`: the invariant `invariant` is broken, with the facts that
// show it. `skipped`: a part of the rule could not be judged for want of a fact the
// adapter does not know (`part` names it); most adapters know every fact. `judged`: a rule
// judged an invariant that only it can tell applies (a FAIL's budget, once the rule knows
// the lease was live); adapters count every other judgement themselves.
class Findings {
 public:
  virtual void fail(std::string_view invariant, std::string facts) = 0;
  virtual void skipped(std::string_view invariant, std::string_view part) { (void)invariant, (void)part; }
  virtual void judged(std::string_view invariant) { (void)invariant; }

 protected:
  ~Findings() = default;
};

// A row as a real server answers HGETALL: field -> value.
using Row = std::map<std::string, std::string>;

// The fields of a job's row the rules read, found in one pass over it (null: absent; all
// null: no row). The pointers view the row, which must not change while they are read.
struct RowFacts {
  RowFacts() = default;
  explicit RowFacts(const sim::Keyspace::Hash* row);  // a row of the simulated keyspace
  explicit RowFacts(const Row* row);                  // a row read from a real server
  const std::string *state = nullptr, *stalled = nullptr, *failures = nullptr, *max_failures = nullptr,
                    *dead_reason = nullptr, *lease_epoch = nullptr;
};

// What the ledger knew of a job before a call: model::JobTruth but its transitions (a
// vector that grows with the run, which no judgement before a call reads).
struct JobBefore {
  JobState state = JobState::pending;
  std::int64_t token = 0;
  std::string holder;
  std::optional<model::LeaseStamp> granted, stamp;
  std::int64_t deadline_server_ms = 0;
  std::int64_t failures = 0, max_failures = 3;
  bool lane = false;

  static JobBefore of(const model::JobTruth& job);
};

// A counter field as the rules count it: absent, "-" or empty is 0; anything that is not
// an integer is -1 (a corrupt counter, which no budget check may read as spent).
std::int64_t count_of(std::string_view text);
inline std::string_view or_absent(const std::string* value, std::string_view absent = "-") {
  return value ? std::string_view(*value) : absent;
}

}  // namespace trafikey::properties::judge
