// Situations: moments the contract cares about that a generated run may or may not reach,
// counted by run_plan as its driver sees them around its calls (RunSummary::situations), so
// that a campaign can show it reached each one (properties/coverage.h). Each situation's
// name (situation_name) is the text campaign.json, the coverage table and the dashboard
// print: a name never changes, even where the enumerator's does (the adversarial client was
// "odd" when its situations were named).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace trafikey::sim {

// In the order of the coverage table.
enum class Situation : std::uint8_t {
  sweep_cut_by_limit,                   // a sweep's LIMIT below the number of expired members
  sweep_at_a_deadline,                  // a sweep at the very ms a lease's deadline falls on
  holder_call_at_its_deadline,          // EXTEND, EXTENDS, COMPLETE or FAIL at its lease's deadline
  near_run_id,                          // a process whose run_id is one character off an earlier one's
  sweep_met_near_epoch,                 // a sweep over an expired lease stamped one character off the run_id
  claim_met_ghost_count_gt_1,           // a CLAIM with COUNT > 1 that reaches a ghost in pending
  claim_count_above_pending,            // a CLAIM whose COUNT exceeds the (non-zero) pending count
  extends_live_and_dead,                // an EXTENDS answering both 1 and 0
  fail_requeued,                        // a FAIL answering 1
  fail_dead,                            // a FAIL answering 2
  add_maxfailures_1,                    // a job added with MAXFAILURES 1
  large_run,                            // a run of more than 1000 calls
  unstamped_row_swept,                  // a sweep judging an expired lease with no lease_epoch (claim.lua's)
  reload_kept_epoch,                    // a DEBUG RELOAD after which EMQ.EPOCH answers what it did before
  several_queues,                       // a run in which CLAIMs got jobs from two queues or more
  other_queue_expired_at_sweep,         // a sweep while another queue's active holds an expired lease
  adversarial_call_refused,             // a call of the adversarial client refused
  adversarial_call_read,                // an adversarial client's STATS or JOB answered
  add_of_an_existing_id,                // an ADD answering 0 (the row exists)
  add_without_maxfailures,              // a job added without MAXFAILURES (the default budget)
  complete_without_result,              // a COMPLETE without result answering 1
  claim_over_100_pending,               // a CLAIM with COUNT > 100 while more than 100 jobs are pending
  sweep_over_100_expired,               // a sweep whose LIMIT (1000 when none) passes 100 over 100+ expired
  claimed_empty_payload,                // a CLAIM answering a payload of 0 bytes
  claimed_binary_payload,               // a CLAIM answering a payload with a NUL in it
  finished_with_empty_text,             // a COMPLETE or FAIL that took its lease with a text of 0 bytes
  finished_with_binary_text,            // a COMPLETE or FAIL that took its lease with a NUL in its text
  extends_repeated_live_pair,           // an EXTENDS naming its first id again in its last pair, both live
  claim_deadline_one_past_bound,        // a CLAIM, a job pending, whose deadline would be 2^53 (EMQ §3)
  corrupt_row_refused,                  // an adversarial call refused with ERR EMQ corrupt job row
  wrong_type_refused,                   // an adversarial EMQ verb refused with WRONGTYPE
  claim_met_over_100_ghosts,            // a setup's CLAIM answered over more than 100 ghosts in pending
  claim_met_over_1000_ghosts,           // a setup's CLAIM answered over more than 1000 ghosts in pending
  add_or_fail_met_seq_at_top,           // a setup's ADD or FAIL sent while seq stands at int64's top
  add_of_a_ghost_id,                    // a setup's ADD answering 1 for an id in pending or active, row gone
  sweep_met_empty_group_lane,           // a sweep judging an expired lease whose row's group is ""
  extends_at_1000_pairs,                // an EXTENDS answering 1000 pairs
  rare_bytes_name_answered,             // an adversarial call naming a queue or id with ":\xff\r\n" answered
  write_refused_on_a_replica,           // an adversarial write refused with READONLY EMQ on a replica
  write_refused_by_acl,                 // an adversarial call refused with NOPERM EMQ under an ACL
  write_refused_by_acl_on_a_row,        // the same, the key denied a job's row
  lease_verb_met_row_off_active,        // a lease verb on a row saying active with its token, id not in active
  claim_granted_over_100,               // a CLAIM answering more than 100 jobs
  sweep_default_limit_over_100,         // a sweep without LIMIT over more than 100 expired leases
  sweep_met_stamp_differing_in_case,    // a sweep judging a lease stamped with the run_id in another case
  long_names_written,                   // an ADD of a queue name and an id of more than 16 bytes each
  long_payload_added,                   // an ADD of a payload of more than 4096 bytes
  budget_past_9_judged,                 // a FAIL or sweep judging a counted lease on a budget of 10 or more
  lease_verb_token_past_2_31,           // a lease verb with a token past 2^31 for an id in active
  numeric_looking_value_claimed,        // a CLAIM answering an id or payload such as 10, 007, -1
  job_read_unlisted_field,              // a JOB answering a field EMQ §1's table does not name
  stats_counted_over_255,               // a STATS answering a count past 255
  text_at_a_buffer_edge,                // a payload, result or failure text of 16, 23 ... 1024 bytes written
  order_past_float_integers,            // an ADD or requeueing FAIL ordering its job past 2^24 (to 2^53)
  sweep_one_ms_past_a_deadline,         // a sweep one ms after a lease's deadline
  sweep_at_a_fractional_deadline,       // a sweep within a ms of a deadline that is not a whole ms
  lease_verb_one_ms_past_a_deadline,    // a lease verb one ms after its lease's deadline
  lease_verb_at_a_fractional_deadline,  // a lease verb within a ms of a deadline that is not a whole ms
  // A lease verb with a wire 2 token whose grant the row no longer holds though its attempts
  // still match (EMQ §8: the grant was rolled back and the job granted again with the same
  // attempts), the last loss of calls having been a restart, a failover or a failback; and
  // one whose grant the row still names though a script claimed it since (attempts moved).
  // Each is a holder that wire 1 would let move the job and wire 2 must answer 0.
  wire2_stale_after_restart,
  wire2_stale_after_failover,
  wire2_stale_after_failback,
  wire2_stale_after_script_claim,
};
// A situation added after the last one is named here too, or the name table (situations.cpp) cannot hold it.
inline constexpr std::size_t situation_count = static_cast<std::size_t>(Situation::wire2_stale_after_script_claim) + 1;

std::string_view situation_name(Situation situation);
// Every situation's name, in Situation order: what coverage lists even when no run saw it.
std::span<const std::string_view> situation_names();

}  // namespace trafikey::sim
