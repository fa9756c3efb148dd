// RunModel: one history (sim/history.h, JSON Lines) read back into what a report draws.
//
// parse_history reads every line, checks its shape and replays the replies into a small
// model of the queue as the *server answered*: leases (grant, extensions, how each ended),
// sweep verdicts, faults and incarnations, the server clock as a function of true time,
// the final row of every job, how often each edge of the state graph was taken, and the
// wire 2 tokens (EMQ §8) each call handed out or carried (read by sim/call_effects.h). It
// reads replies only, never a keyspace, so it works for any history a sim or a scenario
// wrote. Persistence loss (a restart's `kept_calls` below the calls made) rolls the rows
// and leases back to the kept prefix, as the server did; transitions already made are
// still counted, since the server made them.
//
// Everything is kept in vectors and std::maps: iterating a model is deterministic.
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trafikey::reports {

using Json = nlohmann::ordered_json;  // keeps a line's field order for display

struct JobKey {
  std::string queue, id;
  auto operator<=>(const JobKey&) const = default;
};

// Where a line sits in time: true time, server time, incarnation, 1-based line number.
struct At {
  std::int64_t line = 0;
  std::int64_t true_ms = 0;    // the line's "t"
  std::int64_t server_ms = 0;  // the line's "st"
  int inc = 0;
};

struct CallLine {
  At at;
  std::int64_t index = 0;  // 1-based call number (the `kept_calls` counter)
  std::string actor;
  Json call;   // argv
  Json reply;
  bool lost = false;
  std::string verb;  // argv[0] upper-cased
};

// A fault or world note (start, restart, failover, clock_step, worker_death, ...).
struct WorldEvent {
  At at;
  std::string name;
  Json fields;  // the line's fields after "fault"
};

struct Incarnation {
  int number = 0;
  At started;
  std::string cause;  // start, restart, failover
  std::string run_id;
  bool module_loaded = false;
  std::int64_t kept_calls = -1;  // -1: the first start
  std::int64_t lost_calls = 0;
};

// One grant (CLAIM) or extension (EXTEND, EXTENDS reply 1) of a lease.
struct LeaseSegment {
  At at;
  std::int64_t call = 0;
  std::string verb;
  std::string actor;
  std::int64_t deadline_server_ms = 0;
  std::optional<std::int64_t> deadline_true_ms;  // true time the server clock reaches it; none: never
  bool reply_lost = false;                 // the caller never saw this grant/extension
  bool rolled_back = false;                // a restart's persistence lost this call
  // The wire 2 token (EMQ §8) the grant handed out or the extension carried; empty: wire 1.
  std::string wire2_token;
};

enum class LeaseEnd : std::uint8_t {
  open,         // still active when the history ends
  completed,    // COMPLETE 1
  requeued,     // FAIL 1
  failed_dead,  // FAIL 2
  swept,        // a sweep verdict (see `end_verdict`)
  rolled_back,  // the grant itself was lost by persistence at a restart
  superseded,   // a later grant of the same job replaced it (no end was seen)
};
std::string_view lease_end_name(LeaseEnd end);

struct Lease {
  JobKey job;
  std::int64_t token = 0;  // attempts
  std::int64_t lease_ms = 0;
  std::vector<LeaseSegment> segments;  // [0] is the grant; never empty
  LeaseEnd end = LeaseEnd::open;
  At ended;                 // valid unless open
  std::int64_t end_call = 0;
  std::string end_verdict;  // the verdict kind when swept
};

struct Verdict {
  At at;
  std::string actor;
  JobKey job;
  std::string kind;  // as the history spells it: one of sim::sweep_verdict_names (sim/world.h)
  int stamp_inc = 0;
};

// A call that a stale or missing lease refused with 0 (EXTEND, EXTENDS pair, COMPLETE, FAIL).
struct Refusal {
  At at;
  JobKey job;
  std::string verb;
  std::int64_t token = 0;   // the token's attempts (the whole of a wire 1 token)
  std::string wire2_token;  // the wire 2 token it carried (EMQ §8); empty: wire 1
};

// A call that handed out or carried a wire 2 token (EMQ §8), once for each job it moved:
// what the report lists, since the timeline's tooltips alone would hide which holder
// presented which grant.
struct Wire2Use {
  At at;
  JobKey job;
  std::string verb;    // as the history names it (EMQ.CLAIM, EMQ.EXTEND, ...)
  std::string token;   // in full
  std::string answer;  // granted, extended, completed, requeued, dead-lettered, refused
};

// A plain call that edited a job's row behind the verbs' back (DEL; HSET of `group`).
struct RowEdit {
  At at;
  JobKey job;
  std::string what;
};

// A job's row as the replies imply it.
struct RowState {
  std::string state;  // pending, active, done, dead; deleted (a DEL), ghost (swept as one); at the
                     // end, "no row" when no reply ever showed the row (Builder::finish)
  std::int64_t attempts = 0;
  std::int64_t failures = 0;
  std::int64_t stalled = 0;
  bool operator==(const RowState&) const = default;
};

// An observed state change, keyed by the state names of core/states.h; `cause` says
// which reply or verdict made it ("CLAIM", "COMPLETE 1", "FAIL 1", "FAIL 2", "exempt",
// "counted-recovered", "counted-dead").
using EdgeKey = std::pair<std::string, std::string>;
struct EdgeCount {
  std::int64_t count = 0;
  std::map<std::string, std::int64_t> by_cause;
};

// The server clock as a function of true time, from every line's (t, st) and the rate
// faults. Clock steps appear as two points at one true time.
class ServerClockTrace {
 public:
  void add(std::int64_t true_ms, std::int64_t server_ms, std::int64_t rate_per_mille);
  // The first true time >= the point `from` at which the server clock reads >= value_server_ms;
  // extrapolated past the last line at the last rate; none if the clock never gets there.
  std::optional<std::int64_t> true_time_of(std::int64_t value_server_ms, std::size_t from) const;
  std::size_t size() const { return points_.size(); }
  struct Point {
    std::int64_t true_ms, server_ms, rate_per_mille;
  };
  const std::vector<Point>& points() const { return points_; }

 private:
  std::vector<Point> points_;
};

struct RunModel {
  Json header;                     // the first line
  std::string kind;                // header "kind" (plan, scenario, ...)
  std::vector<std::string> lines;  // raw text of every line, [0] = line 1
  std::string fingerprint;         // SHA-256 of the text, as sim/history.h defines it

  std::vector<CallLine> calls;
  std::vector<WorldEvent> events;  // every fault line, in order
  std::vector<Incarnation> incarnations;
  std::vector<Lease> leases;  // in grant order
  std::vector<Verdict> verdicts;
  std::vector<Refusal> refusals;
  std::vector<Wire2Use> wire2_uses;  // in history order; empty: a run all on wire 1
  std::vector<RowEdit> row_edits;
  std::vector<std::pair<At, std::string>> phases;
  ServerClockTrace clock;

  std::vector<JobKey> jobs;  // in order of first appearance
  std::map<JobKey, std::int64_t> added_true_ms;
  std::map<JobKey, RowState> final_rows;
  std::map<EdgeKey, EdgeCount> edges;

  std::map<std::string, std::int64_t> calls_by_verb;
  // Fault lines by name, plus faults that are calls: lost_reply (a "lost" call),
  // row_delete (DEL of a row), lane_mark (HSET of `group` on a row).
  std::map<std::string, std::int64_t> fault_counts;
  std::map<std::string, std::int64_t> verdict_counts;  // by kind
  std::int64_t lost_replies = 0;
  std::int64_t error_replies = 0;

  std::int64_t end_true_ms = 0;  // last line's true time
  std::optional<std::string> end_outcome;
  Json end_fields;

  bool one_queue = true;  // every job in the same queue (labels then omit it)

  std::optional<std::uint64_t> seed() const;  // plan.seed, or a header "seed" / options.seed
  std::string job_label(const JobKey& job) const;  // "j1", or "q/j1" when several queues
};

// Parses a history. On a bad line returns nullopt and sets *error to "line N: what".
std::optional<RunModel> parse_history(std::string_view text, std::string* error);

}  // namespace trafikey::reports
