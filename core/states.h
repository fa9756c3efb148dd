// Job states and the allowed state graph (shared spec INVARIANTS queue.transitions):
// pending->active (CLAIM), active->pending (FAIL requeue, sweep recovery), active->done
// (COMPLETE), active->dead (FAIL, sweep). Plain data, so the checker and the reports can
// each build their graph from this one list.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace trafikey {

enum class JobState : std::uint8_t { pending, active, done, dead };
inline constexpr std::array<JobState, 4> all_job_states{JobState::pending, JobState::active,
                                                        JobState::done, JobState::dead};

std::string_view job_state_name(JobState state);
std::optional<JobState> parse_job_state(std::string_view name);

inline constexpr std::array<std::pair<JobState, JobState>, 4> allowed_transitions{{
    {JobState::pending, JobState::active},
    {JobState::active, JobState::pending},
    {JobState::active, JobState::done},
    {JobState::active, JobState::dead},
}};
// Their names, in the same order ("pending->active" is transition_name(pending, active)):
// what campaign summaries and reports list even when no run took an edge.
inline constexpr std::array<std::string_view, 4> allowed_transition_names{"pending->active", "active->pending",
                                                                         "active->done", "active->dead"};
std::string transition_name(JobState from, JobState to);

}  // namespace trafikey
