#include "sim/spec_names.h"

#include <array>
#include <cstring>

#include "core/args.h"

namespace trafikey::sim::spec {

namespace {
constexpr std::string_view head = "emq:{";
constexpr std::array<std::string_view, 4> state_names{"pending", "active", "done", "dead"};
// core/states.h orders JobState as the page lists the states; the names above follow it.
static_assert(static_cast<int>(JobState::pending) == 0 && static_cast<int>(JobState::active) == 1 &&
              static_cast<int>(JobState::done) == 2 && static_cast<int>(JobState::dead) == 3);

// Whether `s` is the literal's bytes: a memcmp of a constant length, which the compiler
// writes inline (== on a view is a libc call). The judgements parse every key each call
// writes.
template <std::size_t N>
bool is(std::string_view s, const char (&literal)[N]) {
  return s.size() == N - 1 && std::memcmp(s.data(), literal, N - 1) == 0;
}

// (q, the rest after "emq:{q}") of a key, when it begins "emq:{" and has a '}'.
std::optional<std::pair<std::string_view, std::string_view>> split(std::string_view key) {
  if (key.size() < head.size() || std::memcmp(key.data(), head.data(), head.size()) != 0) return std::nullopt;
  // names are a few bytes: a loop beats memchr's call
  for (std::size_t close = head.size(); close < key.size(); ++close) {
    if (key[close] == '}') return std::pair(key.substr(head.size(), close - head.size()), key.substr(close + 1));
  }
  return std::nullopt;
}

// In EmqVerb's order, after none.
constexpr std::array<std::string_view, 11> verb_names{
    "", "EMQ.ADD", "EMQ.CLAIM", "EMQ.EXTEND", "EMQ.EXTENDS", "EMQ.COMPLETE",
    "EMQ.FAIL", "EMQ.STALLED.CHECK", "EMQ.STATS", "EMQ.JOB", "EMQ.EPOCH"};
}  // namespace

EmqVerb verb_of(std::string_view word) {
  // names of other lengths are passed over by their length alone
  if (word.size() < 7 || word.size() > 17) return EmqVerb::none;
  for (std::size_t i = 1; i < verb_names.size(); ++i) {
    if (verb_names[i].size() == word.size() && equals_ignore_case(word, verb_names[i])) {
      return static_cast<EmqVerb>(i);
    }
  }
  return EmqVerb::none;
}

std::string_view verb_name(EmqVerb verb) { return verb_names[static_cast<std::size_t>(verb)]; }

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
  if (!parts || parts->second.size() < 5 || std::memcmp(parts->second.data(), ":job:", 5) != 0) return std::nullopt;
  return RowKeyParts{parts->first, parts->second.substr(5)};
}

std::optional<std::string_view> set_key_queue(std::string_view key) {
  const auto parts = split(key);
  if (!parts || !queue_name_ok(parts->first)) return std::nullopt;
  const std::string_view rest = parts->second;
  if (!is(rest, ":pending") && !is(rest, ":active") && !is(rest, ":done") && !is(rest, ":dead")) return std::nullopt;
  return parts->first;
}

std::string_view pending_key_queue(std::string_view key) {
  const auto parts = split(key);
  return parts && is(parts->second, ":pending") && queue_name_ok(parts->first) ? parts->first : std::string_view{};
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

}  // namespace trafikey::sim::spec
