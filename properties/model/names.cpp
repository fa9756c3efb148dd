#include "properties/model/names.h"

#include <array>

namespace trafikey::properties::model {

namespace {
constexpr std::string_view head = "emq:{";
constexpr std::array<std::string_view, 4> state_names{"pending", "active", "done", "dead"};
// core/states.h orders JobState as the page lists the states; the names above follow it.
static_assert(static_cast<int>(JobState::pending) == 0 && static_cast<int>(JobState::active) == 1 &&
              static_cast<int>(JobState::done) == 2 && static_cast<int>(JobState::dead) == 3);

// (q, the rest after "emq:{q}") of a key, when it begins "emq:{" and has a '}'.
std::optional<std::pair<std::string_view, std::string_view>> split(std::string_view key) {
  if (!key.starts_with(head)) return std::nullopt;
  const auto close = key.find('}', head.size());
  if (close == std::string_view::npos) return std::nullopt;
  return std::pair(key.substr(head.size(), close - head.size()), key.substr(close + 1));
}
}  // namespace

std::string pending_key(std::string_view q) { return "emq:{" + std::string(q) + "}:pending"; }
std::string active_key(std::string_view q) { return "emq:{" + std::string(q) + "}:active"; }
std::string done_key(std::string_view q) { return "emq:{" + std::string(q) + "}:done"; }
std::string dead_key(std::string_view q) { return "emq:{" + std::string(q) + "}:dead"; }
std::string seq_key(std::string_view q) { return "emq:{" + std::string(q) + "}:seq"; }
std::string row_key(std::string_view q, std::string_view id) {
  return "emq:{" + std::string(q) + "}:job:" + std::string(id);
}

bool queue_name_ok(std::string_view q) {
  if (q.empty() || q.size() > 200) return false;
  // one pass over a few bytes (find_first_of walked the three bytes for each of them)
  for (const char c : q) {
    if (c == '{' || c == '}' || c == '\0') return false;
  }
  return true;
}

QueueNames::QueueNames(std::string_view q)
    : pending(pending_key(q)), active(active_key(q)), done(done_key(q)), dead(dead_key(q)), seq(seq_key(q)),
      row_prefix(row_key(q, "")) {}

std::optional<RowKeyParts> parse_row_key(std::string_view key) {
  const auto parts = split(key);
  if (!parts || !parts->second.starts_with(":job:")) return std::nullopt;
  return RowKeyParts{parts->first, parts->second.substr(5)};
}

std::optional<std::string_view> set_key_queue(std::string_view key) {
  const auto parts = split(key);
  if (!parts || !queue_name_ok(parts->first)) return std::nullopt;
  const std::string_view rest = parts->second;
  if (rest != ":pending" && rest != ":active" && rest != ":done" && rest != ":dead") return std::nullopt;
  return parts->first;
}

std::string_view pending_key_queue(std::string_view key) {
  const auto parts = split(key);
  return parts && parts->second == ":pending" && queue_name_ok(parts->first) ? parts->first : std::string_view{};
}

std::string_view state_name(JobState state) { return state_names[static_cast<std::size_t>(state)]; }

std::optional<JobState> parse_state(std::string_view name) {
  for (std::size_t i = 0; i < state_names.size(); ++i) {
    if (name == state_names[i]) return static_cast<JobState>(i);
  }
  return std::nullopt;
}

std::string transition_name(JobState from, JobState to) {
  return std::string(state_name(from)) + "->" + std::string(state_name(to));
}

}  // namespace trafikey::properties::model
