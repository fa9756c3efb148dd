// RunPlan: everything a generated run is made of, explicit and serialisable.
//
// A plan fixes the workload, the actors' parameters and the fault schedule; the run's Prng
// (seeded by `seed`) draws only the small choices inside it (work durations, outcomes,
// run_ids, tie-breaks). Properties generate plans with RapidCheck and shrink them (fewer
// jobs, workers, faults, shorter times); `trafikey-sim run` draws one from a seed. The
// plan is the first line of every history, so a history alone is enough to replay it.
// Rates are integers in per-mille (1000 = 1.0) so plans print exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace trafikey::sim {

enum class Persistence : std::uint8_t { always, everysec, snapshot, none };
std::string_view persistence_name(Persistence mode);
std::optional<Persistence> parse_persistence(std::string_view name);

// What each kind does; what it carries is its struct in namespace fault below.
enum class FaultKind : std::uint8_t {
  restart,         // the server process ends; a new one starts on what persistence kept
  failover,        // a replica (own run_id, lagging data) becomes the server
  clock_step,      // the server clock jumps
  clock_rate,      // the server clock runs at another rate from now on
  worker_clock,    // a worker's clock jumps
  worker_death,    // a worker stops forever, leases held
  worker_pause,    // a worker stops for a while, then resumes with stale tokens
  lost_reply,      // the next reply to an actor is lost (the call ran)
  epoch_fail,      // the next start's run_id read fails: the module refuses to load
  epoch_malformed, // the next start's run_id is malformed: the module refuses to load
  row_delete,      // an operator deletes a job's row: its id becomes a ghost
  lane_mark,       // an operator writes `group` on a job's row: a lane row
  upgrade,         // a scripted worker switches to the native verbs (a rolling upgrade of
                   // the fleet; see RunPlan::scripted_workers)
  reload,          // the dataset is reloaded inside the same process (DEBUG RELOAD): same
                   // run_id, nothing lost
  failback,        // the primary that the last failover (or failback) demoted, still running
                   // as a replica with its run_id, grant counter and script cache, becomes
                   // the server again on the lagging copy (no process starts: EMQ §8)
};
// A kind added after `failback` is named here too, or the name table (plan.cpp) cannot hold it.
inline constexpr std::size_t fault_kind_count = static_cast<std::size_t>(FaultKind::failback) + 1;
std::string_view fault_name(FaultKind kind);
// Every kind's name, in FaultKind order: what campaigns and reports list even when no run
// drew the kind.
std::span<const std::string_view> fault_kind_names();
std::optional<FaultKind> parse_fault_kind(std::string_view name);

// What each fault kind carries: one struct a kind, in FaultKind order, each naming its own
// kind. A worker is an index into RunPlan::workers; a job number N names job jN.
namespace fault {
struct Restart {
  static constexpr FaultKind kind = FaultKind::restart;
  bool operator==(const Restart&) const = default;
};
struct Failover {
  static constexpr FaultKind kind = FaultKind::failover;
  bool operator==(const Failover&) const = default;
};
struct ClockStep {
  static constexpr FaultKind kind = FaultKind::clock_step;
  std::int64_t delta_ms = 0;  // signed
  bool operator==(const ClockStep&) const = default;
};
struct ClockRate {
  static constexpr FaultKind kind = FaultKind::clock_rate;
  std::int64_t rate_per_mille = 1000;  // of true time
  bool operator==(const ClockRate&) const = default;
};
struct WorkerClockStep {
  static constexpr FaultKind kind = FaultKind::worker_clock;
  int worker = -1;
  std::int64_t delta_ms = 0;  // signed
  bool operator==(const WorkerClockStep&) const = default;
};
struct WorkerDeath {
  static constexpr FaultKind kind = FaultKind::worker_death;
  int worker = -1;
  bool operator==(const WorkerDeath&) const = default;
};
struct WorkerPause {
  static constexpr FaultKind kind = FaultKind::worker_pause;
  int worker = -1;
  std::int64_t pause_ms = 0;
  bool operator==(const WorkerPause&) const = default;
};
struct LostReply {
  static constexpr FaultKind kind = FaultKind::lost_reply;
  int actor = -1;  // a worker's index, or the number of workers: the sweeper
  bool operator==(const LostReply&) const = default;
};
struct EpochFail {
  static constexpr FaultKind kind = FaultKind::epoch_fail;
  bool operator==(const EpochFail&) const = default;
};
struct EpochMalformed {
  static constexpr FaultKind kind = FaultKind::epoch_malformed;
  bool operator==(const EpochMalformed&) const = default;
};
struct RowDelete {
  static constexpr FaultKind kind = FaultKind::row_delete;
  int job_number = -1;
  bool operator==(const RowDelete&) const = default;
};
struct LaneMark {
  static constexpr FaultKind kind = FaultKind::lane_mark;
  int job_number = -1;
  bool operator==(const LaneMark&) const = default;
};
struct Upgrade {
  static constexpr FaultKind kind = FaultKind::upgrade;
  int worker = -1;  // a scripted one; any other is left as it is
  bool operator==(const Upgrade&) const = default;
};
struct Reload {
  static constexpr FaultKind kind = FaultKind::reload;
  bool operator==(const Reload&) const = default;
};
struct Failback {
  static constexpr FaultKind kind = FaultKind::failback;
  bool operator==(const Failback&) const = default;
};
}  // namespace fault

// One alternative a kind, at the kind's index.
using FaultPayload =
    std::variant<fault::Restart, fault::Failover, fault::ClockStep, fault::ClockRate, fault::WorkerClockStep,
                 fault::WorkerDeath, fault::WorkerPause, fault::LostReply, fault::EpochFail, fault::EpochMalformed,
                 fault::RowDelete, fault::LaneMark, fault::Upgrade, fault::Reload, fault::Failback>;
namespace fault {
template <std::size_t... I>
constexpr bool in_kind_order(std::index_sequence<I...>) {
  return ((std::variant_alternative_t<I, FaultPayload>::kind == static_cast<FaultKind>(I)) && ...);
}
}  // namespace fault
static_assert(std::variant_size_v<FaultPayload> == fault_kind_count &&
                  fault::in_kind_order(std::make_index_sequence<fault_kind_count>{}),
              "FaultPayload: one alternative per FaultKind, at the kind's index");

// The payload of `kind`, each field at its default.
FaultPayload fault_payload(FaultKind kind);

struct Fault {
  std::int64_t at_ms = 0;  // true time
  FaultPayload what;       // the kind and exactly what it carries
  FaultKind kind() const { return static_cast<FaultKind>(what.index()); }
  bool operator==(const Fault&) const = default;
};

struct WorkerClock {
  std::int64_t offset_ms = 0;
  std::int64_t rate_per_mille = 1000;
  bool operator==(const WorkerClock&) const = default;
};

struct RunPlan {
  std::uint64_t seed = 1;
  std::string queue = "q";
  int jobs = 12;
  std::int64_t add_spread_ms = 2000;     // producer adds jobs over [0, this)
  std::vector<WorkerClock> workers{3};   // one entry per worker
  int claim_count = 2;
  std::int64_t lease_ms = 1000;
  std::int64_t extend_at_per_mille = 500;  // extend once this share of the lease has passed
  bool use_extends = true;                 // EXTENDS for all held leases, else EXTEND each
  std::int64_t work_min_ms = 100;
  std::int64_t work_max_ms = 2500;
  std::int64_t fail_per_mille = 150;       // a finished job reports FAIL instead of COMPLETE
  std::int64_t retry_per_mille = 500;      // after a lost reply the caller retries once
  std::int64_t poll_ms = 150;              // an idle worker claims again after this
  int max_failures = 3;
  int max_stalled = 2;
  std::int64_t sweep_interval_ms = 400;
  Persistence persistence = Persistence::always;
  std::int64_t snapshot_interval_ms = 3000;
  std::int64_t replication_lag_ms = 250;
  std::int64_t safety_ms = 15000;          // faults only inside [0, safety_ms)
  std::vector<Fault> faults;               // sorted by at_ms
  // The verbs' own parameters (0 / false: as before these fields existed).
  int sweep_limit = 0;                     // STALLED.CHECK ... LIMIT n (0: no LIMIT, i.e. 1000)
  int claim_overask = 0;                   // a worker's CLAIM asks COUNT free capacity + this
  bool max_failures_vary = false;          // job jN's MAXFAILURES is 1 + (N-1) % max_failures
  // A share of the server incarnations whose run_id is one character off an earlier
  // incarnation's (still 40 lowercase hex): an exemption that compares only part of the
  // run_id counts such leases.
  std::int64_t near_epoch_per_mille = 0;
  // When > 0 every drawn work duration and every extension interval is a multiple of this
  // (the generator puts lease, poll, sweep and fault times on the same grid), so calls land
  // exactly on deadlines.
  std::int64_t time_quantum_ms = 0;
  // A mixed fleet: workers w0..w(n-1) start on the scripted executor (bench/scripts/*.lua
  // through EVALSHA, EVAL after a NOSCRIPT): claim, extend and complete by script, so
  // their leases carry no stamp of their own; FAIL has no script and stays native. An
  // `upgrade` fault moves one of them to the native verbs. Written to the plan's JSON only
  // when not 0, so plans from before it read and run as they did.
  int scripted_workers = 0;
  // Several queues in one run: queue_name(0..queues-1) = `queue`, then `queue`2, `queue`3...
  // (q, q2, q3). Job jN goes to queue (N-1) % queues; each worker's CLAIMs cycle over the
  // queues; the sweeper sweeps every queue in turn. Written to the plan's JSON only when
  // not 1, so one-queue plans read, run and print as before.
  int queues = 1;
  // A sloppy client among the fleet: this many calls of sim/adversarial_calls.h (malformed and
  // boundary arguments, unusual spellings, read-only verbs, tokens ahead of the row), at
  // times drawn in the safety phase, as actor `x`; and the fleet spells its own calls
  // otherwise (ADD without MAXFAILURES or with it in lower case, COUNT and LIMIT in lower
  // case, COMPLETE without result). Written to the plan's JSON as "odd_calls", only when not
  // 0.
  int adversarial_calls = 0;
  // A long-lived queue: at the start every queue's `seq` already stands at this value (an
  // operator's SET, as a queue that has taken millions of jobs holds), so every ADD and every
  // requeueing FAIL orders its job past 2^24 (the last integer a float holds exactly), past
  // 2^31 or 2^32, or across 2^53 (where a score, a double, stops holding every integer:
  // EMQ §1 scores are the zset's doubles). 0: none, seq starts where INCR starts it. Written to
  // the plan's JSON only when not 0.
  std::int64_t seq_start = 0;
  // Wire 2 in the fleet (EMQ §8): the last this many workers claim with WIRE 2 and present
  // the wire 2 token to every lease verb; one of them that starts scripted (scripted_workers
  // overlaps it) claims by script until an `upgrade` moves it to the native verbs, wire 2.
  // Written to the plan's JSON only when not 0.
  int wire2_workers = 0;

  bool operator==(const RunPlan&) const = default;
  // The simulated time the liveness phase may take to drain every job: a stated bound
  // (INVARIANTS liveness.drain) that grows with backward clock steps.
  std::int64_t liveness_bound_ms() const;
  std::string queue_name(int index) const {
    return index == 0 ? queue : queue + std::to_string(index + 1);
  }
  // The queue index of job jN (N from 1; any N, so that a fault naming a job maps too).
  int queue_of_job(int job) const {
    const int q = queues < 1 ? 1 : queues;
    return ((job - 1) % q + q) % q;
  }
  // Whether worker `w` (an index into workers) speaks wire 2 when it claims natively.
  bool wire2_worker(int w) const { return w >= static_cast<int>(workers.size()) - wire2_workers; }
  // The MAXFAILURES job jN (N from 1) is added with.
  int max_failures_of(int job) const {
    return max_failures_vary ? 1 + (job - 1) % max_failures : max_failures;
  }
};

// What `trafikey-sim run` lets a user choose; the rest is drawn from the seed.
struct PlanChoices {
  std::uint64_t seed = 1;
  std::optional<int> jobs, workers;
  std::optional<std::int64_t> safety_ms;
  std::optional<Persistence> persistence;
  std::vector<FaultKind> fault_kinds;  // empty: no faults
  int queues = 1;                      // RunPlan::queues (set, not drawn: the draws stay)
  int wire2_workers = 0;               // RunPlan::wire2_workers (set; at most the workers)
};
// `--faults` names: every kind by its own name (fault_name), and groups of kinds:
//   clock = clock_step,clock_rate,worker_clock   death = worker_death   pause = worker_pause
//   epoch = epoch_fail,epoch_malformed          ghost = row_delete     lane = lane_mark
// and `lost-reply`, the old spelling of lost_reply. Kinds come back in the order named
// (a group's in the order above), which draw_plan follows.
struct FaultGroup {
  std::string_view name;
  std::vector<FaultKind> kinds;
};
const std::vector<FaultGroup>& fault_groups();
// std::nullopt on a name that is neither a kind nor a group; `error` then names it.
std::optional<std::vector<FaultKind>> parse_fault_list(std::string_view csv, std::string* error = nullptr);
// The names parse_fault_list accepts, for --help and errors: "kinds: restart, ...;
// groups: clock = clock_step,clock_rate,worker_clock; death = worker_death; ...".
std::string fault_list_help();
RunPlan draw_plan(const PlanChoices& choices);

// One line of JSON, fields in a fixed order; parse_plan accepts exactly what plan_json
// writes (and refuses anything else with a message naming the field). A fault is written as
// at_ms, kind, "amount" (ClockStep's and WorkerClockStep's delta_ms, ClockRate's
// rate_per_mille, WorkerPause's pause_ms; else 0) and "target" (its worker, actor or
// job_number; else -1).
std::string plan_json(const RunPlan& plan);
std::optional<RunPlan> parse_plan(std::string_view json, std::string* error);

// Checks a plan's numbers (counts, times, rates, targets) before anything runs: empty
// when usable, else a message naming the first bad field.
std::string validate_plan(const RunPlan& plan);

}  // namespace trafikey::sim
