#include "sim/situations.h"

#include "sim/name_table.h"

namespace trafikey::sim {

namespace {

// One row a situation, in Situation order.
constexpr std::array<Named<Situation>, situation_count> table{{
    {Situation::sweep_cut_by_limit, "sweep-cut-by-limit"},
    {Situation::sweep_at_a_deadline, "sweep-at-a-deadline"},
    {Situation::holder_call_at_its_deadline, "holder-call-at-its-deadline"},
    {Situation::near_run_id, "near-run-id"},
    {Situation::sweep_met_near_epoch, "sweep-met-near-epoch"},
    {Situation::claim_met_ghost_count_gt_1, "claim-met-ghost-count-gt-1"},
    {Situation::claim_count_above_pending, "claim-count-above-pending"},
    {Situation::extends_live_and_dead, "extends-live-and-dead"},
    {Situation::fail_requeued, "fail-requeued"},
    {Situation::fail_dead, "fail-dead"},
    {Situation::add_maxfailures_1, "add-maxfailures-1"},
    {Situation::large_run, "large-run"},
    {Situation::unstamped_row_swept, "unstamped-row-swept"},
    {Situation::reload_kept_epoch, "reload-kept-epoch"},
    {Situation::several_queues, "several-queues"},
    {Situation::other_queue_expired_at_sweep, "other-queue-expired-at-sweep"},
    {Situation::adversarial_call_refused, "odd-call-refused"},
    {Situation::adversarial_call_read, "odd-call-read"},
    {Situation::add_of_an_existing_id, "add-of-an-existing-id"},
    {Situation::add_without_maxfailures, "add-without-maxfailures"},
    {Situation::complete_without_result, "complete-without-result"},
    {Situation::claim_over_100_pending, "claim-over-100-pending"},
    {Situation::sweep_over_100_expired, "sweep-over-100-expired"},
    {Situation::claimed_empty_payload, "claimed-empty-payload"},
    {Situation::claimed_binary_payload, "claimed-binary-payload"},
    {Situation::finished_with_empty_text, "finished-with-empty-text"},
    {Situation::finished_with_binary_text, "finished-with-binary-text"},
    {Situation::extends_repeated_live_pair, "extends-repeated-live-pair"},
    {Situation::claim_deadline_one_past_bound, "claim-deadline-one-past-bound"},
    {Situation::corrupt_row_refused, "corrupt-row-refused"},
    {Situation::wrong_type_refused, "wrong-type-refused"},
    {Situation::claim_met_over_100_ghosts, "claim-met-over-100-ghosts"},
    {Situation::claim_met_over_1000_ghosts, "claim-met-over-1000-ghosts"},
    {Situation::add_or_fail_met_seq_at_top, "add-or-fail-met-seq-at-top"},
    {Situation::add_of_a_ghost_id, "add-of-a-ghost-id"},
    {Situation::sweep_met_empty_group_lane, "sweep-met-empty-group-lane"},
    {Situation::extends_at_1000_pairs, "extends-at-1000-pairs"},
    {Situation::rare_bytes_name_answered, "odd-bytes-name-answered"},
    {Situation::write_refused_on_a_replica, "write-refused-on-a-replica"},
    {Situation::write_refused_by_acl, "write-refused-by-acl"},
    {Situation::write_refused_by_acl_on_a_row, "write-refused-by-acl-on-a-row"},
    {Situation::lease_verb_met_row_off_active, "lease-verb-met-row-off-active"},
    {Situation::claim_granted_over_100, "claim-granted-over-100"},
    {Situation::sweep_default_limit_over_100, "sweep-default-limit-over-100"},
    {Situation::sweep_met_stamp_differing_in_case, "sweep-met-stamp-differing-in-case"},
    {Situation::long_names_written, "long-names-written"},
    {Situation::long_payload_added, "long-payload-added"},
    {Situation::budget_past_9_judged, "budget-past-9-judged"},
    {Situation::lease_verb_token_past_2_31, "lease-verb-token-past-2-31"},
    {Situation::numeric_looking_value_claimed, "numeric-looking-value-claimed"},
    {Situation::job_read_unlisted_field, "job-read-unlisted-field"},
    {Situation::stats_counted_over_255, "stats-counted-over-255"},
    {Situation::text_at_a_buffer_edge, "text-at-a-buffer-edge"},
    {Situation::order_past_float_integers, "order-past-float-integers"},
    {Situation::sweep_one_ms_past_a_deadline, "sweep-one-ms-past-a-deadline"},
    {Situation::sweep_at_a_fractional_deadline, "sweep-at-a-fractional-deadline"},
    {Situation::lease_verb_one_ms_past_a_deadline, "lease-verb-one-ms-past-a-deadline"},
    {Situation::lease_verb_at_a_fractional_deadline, "lease-verb-at-a-fractional-deadline"},
    {Situation::wire2_stale_after_restart, "wire2-stale-refused-after-restart"},
    {Situation::wire2_stale_after_failover, "wire2-stale-refused-after-failover"},
    {Situation::wire2_stale_after_failback, "wire2-stale-refused-after-failback"},
    {Situation::wire2_stale_after_script_claim, "wire2-stale-refused-after-script-claim"},
}};

static_assert(covers_the_enum(table), "sim/situations.cpp: the table must name every Situation, in order");
constexpr std::array<std::string_view, situation_count> names = names_of(table);

}  // namespace

std::string_view situation_name(Situation situation) { return names[static_cast<std::size_t>(situation)]; }

std::span<const std::string_view> situation_names() { return names; }

}  // namespace trafikey::sim
