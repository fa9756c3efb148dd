// Reading one queue back from a real server (every key of EMQ §1) and the structural
// check every queue must pass whatever happened to the server: queue.conserve and
// queue.budget as the one judge states them (properties/judge/rules.h judge_queue: every
// member in exactly one of pending/active/done/dead, the one its row's `state` names; no
// set holds an id without a row; no row with a `state` outside the sets; budgets within
// bounds), and EMQ.STATS counts what the sets hold.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "module/harness/real_server.h"

namespace trafikey::soak {

using Row = std::map<std::string, std::string>;  // field -> value

struct QueueState {
  std::map<std::string, Row> rows;  // by job id: every key emq:{q}:job:<id> that is a hash
  std::map<std::string, std::map<std::string, double>> sets;  // "pending" ... "dead" -> id -> score
  std::optional<std::int64_t> seq;  // emq:{q}:seq, absent when unset
  Reply stats = Reply::nil();       // EMQ.STATS q

  // A row's integer field, `fallback` when absent or not an integer.
  static std::int64_t field(const Row& row, const std::string& name, std::int64_t fallback = 0);
};

inline const std::vector<std::string>& set_names() {
  static const std::vector<std::string> names{"pending", "active", "done", "dead"};
  return names;
}

// Reads the queue's keys (SCAN for its rows). Throws std::runtime_error when a read fails.
QueueState read_queue(real::ServerConnection& connection, const std::string& queue);

// The structural check; one line per problem, empty when the queue is sound.
std::vector<std::string> audit_queue(const std::string& queue, const QueueState& state);

}  // namespace trafikey::soak
