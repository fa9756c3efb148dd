#include "core/states.h"

namespace trafikey {

namespace {
constexpr std::array<std::string_view, 4> names{"pending", "active", "done", "dead"};
}

std::string_view job_state_name(JobState state) { return names[static_cast<std::size_t>(state)]; }

std::string transition_name(JobState from, JobState to) {
  return std::string(job_state_name(from)) + "->" + std::string(job_state_name(to));
}

std::optional<JobState> parse_job_state(std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (name == names[i]) return static_cast<JobState>(i);
  }
  return std::nullopt;
}

}  // namespace trafikey
