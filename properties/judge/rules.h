// The invariants of shared spec INVARIANTS.md, each stated once, as a function over the
// facts one step shows (properties/judge/facts.h says who gathers them). A rule judges;
// it does not count how often it ran (each adapter counts its own judgements) and it
// keeps no state (an adapter that follows a history, such as the highest token granted,
// keeps that itself and passes it in).
//
// The facts a rule reports are the same whoever calls it, so a finding reads alike from
// the sim, a real server and the soak.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/args.h"
#include "core/reply.h"
#include "properties/judge/facts.h"
#include "properties/model/ledger.h"
#include "sim/sweep_before.h"

namespace trafikey::properties::judge {

// ---- queue.conserve, queue.budget, epoch.stamp: the jobs of a queue

// queue.conserve of a member of a queue's sets (not a ghost): it is in exactly one of
// them (`in` lists the sets that hold it), it has a row, and the row's state names that
// set. Returns the row's state when the member is in one set and has a row (its budgets,
// and on the sim its transitions, are judged next), else null.
const std::string* conserve_member(std::string_view id, std::span<const JobState> in, const RowFacts& row,
                                   Findings& out);

// queue.budget of a member in `set`: failures within max_failures, and dead only with a
// budget spent (dead_reason failed: failures reached max_failures; stalled: counted).
void budget_member(std::string_view id, JobState set, const RowFacts& row, Findings& out);

// A job the ledger holds (not a ghost), against the server (`in`: the sets that hold its
// id): queue.conserve, in the set the ledger put it in; queue.budget, charged as its
// history charges; epoch.stamp, an active row stamped with the run_id of the incarnation
// that ran its last CLAIM, EXTEND or EXTENDS (`run_ids`, by incarnation).
void ledger_job(const model::JobTruth& job, std::span<const JobState> in, const RowFacts& row,
                const std::vector<std::string>& run_ids, Findings& out);

// queue.conserve of a row that is a job (a ledger's or, where no ledger is kept, any row
// with a state) whose id is in no set: a half-written job.
void unlisted_row(std::string_view id, std::string_view state, Findings& out);

// ---- a whole queue: the rules above, over one snapshot of its keys

// A queue as one moment of a server shows it: what every adapter can read of its keys.
struct QueueSnapshot {
  std::string queue;
  std::map<std::string, Row> rows;                       // every job row that is a hash, by id
  std::map<std::string, std::vector<JobState>> members;  // every member of the four sets:
                                                         // the sets that hold it, in JobState order
  std::set<std::string, std::less<>> ghosts;  // ids whose row an operator deleted: excused
};
// What an adapter knows of a queue beyond its keys (null: not known).
struct QueueKnowledge {
  const model::Ledger* ledger = nullptr;              // each job's history, every call's moves
  const std::vector<std::string>* run_ids = nullptr;  // the processes' run_ids, by incarnation
};
// queue.conserve and queue.budget of every member that is not a ghost (conserve_member,
// budget_member, by id); then, with a ledger, ledger_job of each job it holds. Without one
// the parts that need a job's history are skipped by name: the counts its history charges
// (queue.budget), and which process stamped its lease (epoch.stamp), of which only "an
// active row names a process of this run" is judged (when the run_ids are known); and
// since no ledger says which rows are jobs, every row with a `state` is one (unlisted_row).
void judge_queue(const QueueSnapshot& snapshot, const QueueKnowledge& known, Findings& out);

// ---- epoch.exempt, epoch.counted: a sweep

// What the adapter can tell of one member a sweep listed.
struct SweptAfter {
  sim::Field stalled, state;  // the member's row after the sweep
};
class SweepSight {
 public:
  // The ledger's job before the sweep (null: the ledger never held it).
  virtual const JobBefore* ledger_before(std::string_view id) const = 0;
  virtual SweptAfter row_after(std::string_view id) const = 0;

 protected:
  ~SweepSight() = default;
};
struct SweepContext {
  int incarnation = 0;  // the sweeping process
  std::int64_t true_ms = 0, server_ms = 0;
  const std::vector<std::string>* run_ids = nullptr;  // by incarnation: whose stamp a row carries
};

// A STALLED.CHECK's reply (not an error) against the expired rows before it
// (sim/sweep_before.h): exactly the first LIMIT expired members are judged (unless
// `before` cannot say which had expired: skipped), no lane row is moved, a lease stamped
// by the sweeping incarnation is counted (stalled + 1, dead exactly at max_stalled) and
// any other goes back to pending uncounted (exempt).
void judge_sweep(const sim::SweepBefore& before, const Reply& reply, const SweepContext& context,
                 const SweepSight& sight, Findings& out);

// ---- epoch.load

// A process (incarnation `incarnation`, run_id `run_id`) serves EMQ verbs exactly when its
// run_id read succeeded with a well-formed value (`read_ok`): then EMQ.EPOCH answers that
// run_id; else it answers the unknown-command error. `reload_refused`: the failed read was
// a reload's (the process keeps its run_id but serves nothing).
void epoch_load(int incarnation, std::string_view run_id, bool read_ok, bool reload_refused, const Reply& answer,
                Findings& out);

// ---- verb.atomic

// What the adapter knows of a call's writes: how many (the sim counts them), or only
// whether the keyspace changed (a real server's DEBUG DIGEST before and after).
struct CallWrites {
  std::optional<std::int64_t> count;
  bool changed = false;
};
// A refused call (an error reply), or one that answered the 0 of "nothing done" (ADD,
// EXTEND, COMPLETE, FAIL; an EXTENDS of all 0), writes nothing. `verb`: the spec's verb of
// the call `argv` (none: a plain command, named by its argv[0]).
void verb_atomic(Args argv, model::EmqVerb verb, const Reply& reply, const CallWrites& writes, Findings& out);

// ---- queue.fence

// One (id, token) of a lease verb and what it answered for it. `other_grant`: the token is
// a wire 2 token whose grant id is not the row's `lease` (EMQ §8): it is not live, whatever
// its attempts.
struct LeasePair {
  std::string_view id;
  std::int64_t token = 0, answer = 0;
  bool other_grant = false;
};
// EXTEND, EXTENDS, COMPLETE or FAIL (`verb_sent`: its name as sent, any case): a pair
// answers non-zero exactly when its token is the job's live one (the ledger's job before
// the call, `before`: active, the same token, its deadline not passed at `server_ms`). Not
// judged: a pair whose job the ledger never saw granted, and, where the server's time is
// unknown, one whose token is the live one (its deadline cannot be placed). A FAIL that
// moved a live job is failure failures + 1: 1 (requeued) below max_failures, else 2 (dead)
// (queue.budget).
void lease_verb(std::string_view verb_sent, bool fail_verb, std::span<const LeasePair> pairs,
                std::span<const std::pair<std::string, JobBefore>> before, std::string_view actor,
                std::optional<std::int64_t> server_ms, Findings& out);

// A CLAIM granted `token` for `id`, where `highest` was the highest token granted for it
// before: a token never repeats, so two holders never share one.
void claim_token(std::string_view id, std::int64_t token, std::int64_t highest, Findings& out);

// ---- queue.grant (EMQ §8)

// A CLAIM granted `id` under grant id `grant` (the row's `lease` after the call; empty: it
// wrote none, which verb.model judges). `granted`: every grant id of the run so far, with
// where it was granted, the lost ones included (a rollback takes a grant back, not its
// id). No grant id twice: a holder of the earlier one would hold the new lease too.
void grant_fresh(std::string_view id, const std::string& grant, std::string where,
                 std::map<std::string, std::string, std::less<>>& granted, Findings& out);

// A lease verb's pair that presented a wire 2 token (`grant`: its grant id) and answered
// `answer`, where `lease_before` was the row's `lease` when the call came (nullopt: none).
// It moves the job only for its own grant: an answer other than 0 with another grant live
// means a holder whose grant was rolled back or superseded moved the job.
void wire2_answer(std::string_view verb_sent, std::string_view id, std::string_view grant,
                  const std::optional<std::string>& lease_before, std::int64_t answer, Findings& out);

}  // namespace trafikey::properties::judge
