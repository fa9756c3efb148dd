// Scenario: one history written for people, as a value (see shared spec SCENARIO.md).
//
// This is the tree that `parse_scenario` (parse.h) builds from a `.scn` file and that
// `write_scenario` (write.h) prints back; a runner walks `steps` in order. Every field
// holds exactly what the file said, raw bytes included; nothing here has been run. A
// Scenario that came from the parser is always well formed (`find_defect` below states
// the rules); one built in code, such as a replay file the harness saves, should be
// checked with it before it is written.
//
// Equality compares meaning, not layout: `Step::line` records where a step came from, for
// messages, and is ignored by ==, so parse(write(s)) == s although the lines move.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/args.h"
#include "sim/plan.h"
#include "sim/scenario/reply_pattern.h"

namespace trafikey::scenario {

// How much of the dataset survives a `restart`: the world's modes (sim/world.h).
using sim::Persistence;
using sim::persistence_name;
using sim::parse_persistence;

// `option NAME VALUE`. The spec's two, and two the harness writes into replay files so a
// generated run's persistence and replication timing come back exactly (defaults as the
// world's, so files that do not mention them are unchanged).
struct Options {
  Persistence persistence = Persistence::always;
  std::uint64_t seed = 1;  // PRNG seed for run_ids and anything drawn
  std::int64_t snapshot_interval_ms = 3000;
  std::int64_t replication_lag_ms = 250;
  bool operator==(const Options&) const = default;
};
inline constexpr std::int64_t interval_ms_max = 86400000;

// `C: VERB ARGS... [=> REPLY]`. argv[0] is the verb as written (case kept).
struct Call {
  std::string client;
  std::vector<std::string> argv;
  std::optional<ReplyPattern> expect;  // nullopt: the reply is not checked at all
  bool operator==(const Call&) const = default;
};

struct Restart {
  bool operator==(const Restart&) const = default;
};
struct Failover {
  bool operator==(const Failover&) const = default;
};
// `failback`: the primary the last failover (or failback) demoted, still running as a
// replica, serves again on the lagging copy, keeping its process: its run_id, grant counter
// and script cache go on (EMQ §8). A file says `failover` somewhere before it.
struct Failback {
  bool operator==(const Failback&) const = default;
};
// `reload`: the dataset is reloaded inside the same process (DEBUG RELOAD): same run_id,
// nothing lost.
struct Reload {
  bool operator==(const Reload&) const = default;
};
// `replica` / `primary`: the server becomes a replica of a primary that never answers
// (it keeps its dataset and refuses writes: EMQ §6's fence), or a primary again.
struct ReplicaRole {
  bool replica = true;
  bool operator==(const ReplicaRole&) const = default;
};
// `deny KEY` / `allow`: the calling user's ACL denies writes to KEY (EMQ §6: a writing
// verb that would write it answers NOPERM EMQ and writes nothing), or no key any more.
struct WriteDenied {
  std::string key;  // empty: allow
  bool operator==(const WriteDenied&) const = default;
};
// `clock +MS` / `clock -MS`: step the server clock.
struct ClockStep {
  std::int64_t delta_ms = 0;
  bool operator==(const ClockStep&) const = default;
};
// `drift RATE`: the server clock runs at rate × true time from now on.
struct Drift {
  double rate = 1.0;
  bool operator==(const Drift&) const = default;
};
// The next start's run_id read (or a `reload`'s, if one comes first):
//   `epoch fail`               fails (fail)
//   `epoch malformed`          is malformed, a shape the world draws (malformed_drawn)
//   `epoch malformed "TEXT"`   reads exactly TEXT, not a run_id; `""` is an empty read
//                              (malformed_text: a generated run's read, replayed)
//   `epoch RUN_ID`             reads exactly this run_id (40 lowercase hex), as when a
//                              generated run drew one a character off an earlier
//                              process's (a near run_id); what the seed alone would draw
//                              cannot say it (run_id)
struct EpochFault {
  enum class Kind : std::uint8_t { fail, malformed_drawn, malformed_text, run_id };
  EpochFault() = default;
  explicit EpochFault(Kind k, std::string id = {}) : kind(k), run_id(std::move(id)) {}
  Kind kind = Kind::fail;
  // Kind::run_id: the run_id; Kind::malformed_text: the exact bytes read (maybe none)
  std::string run_id;
  bool operator==(const EpochFault&) const = default;
};
// `lose C`: client C's next reply is lost (the call runs, C sees a timeout).
struct Lose {
  std::string client;
  bool operator==(const Lose&) const = default;
};

// One `F=V` of a row check; `F=-` (value nullopt) means the field is absent.
struct FieldCheck {
  std::string field;
  std::optional<std::string> value;
  bool operator==(const FieldCheck&) const = default;
};
struct CheckRow {
  std::string queue;
  std::string id;
  std::vector<FieldCheck> fields;  // at least one, field names distinct, in file order
  bool operator==(const CheckRow&) const = default;
};

enum class SetName : std::uint8_t { pending, active, done, dead };
std::string_view set_name(SetName set);
std::optional<SetName> parse_set_name(std::string_view name);

// `check set Q SET ID...`: the members of the set, in order (no ids: the set is empty).
struct CheckSet {
  std::string queue;
  SetName set = SetName::pending;
  std::vector<std::string> ids;
  bool operator==(const CheckSet&) const = default;
};
struct CheckInvariants {
  bool operator==(const CheckInvariants&) const = default;
};

using Action = std::variant<Call, Restart, Failover, ClockStep, Drift, EpochFault, Lose,
                            CheckRow, CheckSet, CheckInvariants, Reload, ReplicaRole, WriteDenied, Failback>;

struct Step {
  std::int64_t time_ms = 0;  // true time since the start; non-decreasing over the steps
  int line = 0;              // 1-based source line; 0 for a step built in code
  Action action;

  // Ignores `line` (see the header comment).
  bool operator==(const Step& o) const { return time_ms == o.time_ms && action == o.action; }
};

struct Scenario {
  std::string title;
  Options options;
  std::vector<Step> steps;
  bool operator==(const Scenario&) const = default;
};

// Steps a real server cannot do (SCENARIO.md's table): the epoch faults (nothing makes a
// real server's run_id read fail; `epoch RUN_ID`, which only names the sim's next run_id,
// a real runner takes). A file with any of them is skipped on a real server. Failover,
// reload, clock, drift, replica/primary and deny/allow a real server can do when the runner
// started it (scenarios/runner/run_real.h has the rest of the skip rules).
bool sim_only(const Step& step);
// True when no step is sim-only.
bool real_capable(const Scenario& scenario);

// ---- Well-formedness: what the parser accepts and the writer can print back.

// Bounds the parser enforces.
inline constexpr std::int64_t time_ms_max = score_max;  // times and |clock steps|, in ms
inline constexpr double drift_rate_max = 1000.0;        // drift rates are in 0..this
inline constexpr int reply_depth_max = 32;               // arrays nested in a pattern

// A client is named by a plain word (notation.h) without ':'.
bool is_client_name(std::string_view name);
// An EMQ verb of the core's command table, a plain command of sim/plain.h, or EVAL,
// EVALSHA and SCRIPT (sim/lua.h); any case.
bool is_known_verb(std::string_view name);
// What is_known_verb accepts, for messages, from the same tables: "an EMQ verb, a plain
// command (HSET HGET ...) or a script command (EVAL EVALSHA SCRIPT)".
std::string known_verbs();

// The first rule `scenario` breaks, as a message naming the step ("step 3: ..."), or
// nullopt when it is well formed: times in 0..time_ms_max and non-decreasing; calls by
// a client name with a known verb; |clock steps| <= time_ms_max; drift rates in
// 0..drift_rate_max; row checks with at least one field and no field twice; reply
// patterns nested at most reply_depth_max deep; every enum value named.
std::optional<std::string> find_defect(const Scenario& scenario);

}  // namespace trafikey::scenario
