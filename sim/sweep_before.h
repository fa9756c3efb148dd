// SweepBefore: a queue's expired leases as they stood just before a sweep (EMQ §5), the
// one record of them. What a sweep did with each member it listed can only be told
// against these rows: whether `stalled` rose (counted) or not (exempt), and which process
// had stamped the lease. The world's verdict lines, the invariant checker
// (epoch.exempt, epoch.counted) and the real-server runner read it; the world and the
// checker fill it from a sim keyspace (capture_sweep), the real runner from what it reads
// of a real server.
//
// Key names are the caller's: the checker reads the server through the spec's names
// (properties/model/names.h), never through the core's, so that a core with a key
// misspelt cannot move its judge.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "sim/keyspace.h"

namespace trafikey::sim {

// A field of a row: nullopt when the row has no such field (or there is no row).
using Field = std::optional<std::string>;

struct SweptRow {
  std::size_t rank = 0;  // its place among the expired members, lowest deadline first
  bool exists = false;   // a hash at the row key
  Field state, stalled, failures, lease_epoch;
};

struct SweepBefore {
  std::string queue;             // empty: the call is no sweep of a queue
  std::int64_t max_stalled = 0;  // as the argv gave it (0 when it is no number)
  std::size_t limit = 1000;      // LIMIT, 1000 by default (EMQ §5)
  // Whether `expired` lists exactly the members whose deadline had passed. False where the
  // server's clock is not known (a real server on its own clock): `rows` then holds every
  // member of active, each at rank 0, and which were due cannot be judged.
  bool expiry_known = true;
  std::vector<std::string> expired;      // lowest deadline first, then member bytes
  std::map<std::string, SweptRow, std::less<>> rows;  // the rows of `expired`

  // How many members the sweep must judge: the first LIMIT expired ones.
  std::size_t due() const { return limit < expired.size() ? limit : expired.size(); }
  // The row of a member that was due (null: not expired, past LIMIT, or not read).
  const SweptRow* due_row(std::string_view id) const;
  void clear();
};

// The names a sweep reads: a queue's active set, and its row keys (prefix + id).
struct SweepKeys {
  std::string_view active;
  std::string_view row_prefix;
};

// Reads `argv` (EMQ.STALLED.CHECK q max_stalled [LIMIT n]; the caller has checked the verb
// and the queue name) and every member of active whose deadline is below `now_ms`, with
// its row. `out` is cleared first and reused (its buffers kept).
void capture_sweep(const Keyspace& data, Args argv, const SweepKeys& keys, std::int64_t now_ms, SweepBefore& out);

// "-" for a field that is absent: how the judges' messages spell it.
inline std::string_view field_text(const Field& field) { return field ? std::string_view(*field) : "-"; }

}  // namespace trafikey::sim
