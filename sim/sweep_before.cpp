#include "sim/sweep_before.h"

#include "core/args.h"

namespace trafikey::sim {

const SweptRow* SweepBefore::due_row(std::string_view id) const {
  const auto it = rows.find(std::string(id));
  if (it == rows.end() || (expiry_known && it->second.rank >= due())) return nullptr;
  return &it->second;
}

void SweepBefore::clear() {
  queue.clear();
  max_stalled = 0;
  limit = 1000;
  expiry_known = true;
  expired.clear();
  rows.clear();
}

namespace {

Field field_of(const Keyspace::Hash* row, std::string_view name) {
  const std::string* value = row ? Keyspace::hash_field(*row, name) : nullptr;
  return value ? Field(*value) : std::nullopt;
}

}  // namespace

void capture_sweep(const Keyspace& data, Args argv, const SweepKeys& keys, std::int64_t now_ms, SweepBefore& out) {
  out.clear();
  if (argv.size() < 2) return;
  out.queue = argv[1];
  out.max_stalled = argv.size() > 2 ? parse_int64(argv[2]).value_or(0) : 0;
  if (argv.size() == 5) out.limit = static_cast<std::size_t>(parse_int64(argv[4]).value_or(1000));
  bool wrong = false;
  const Keyspace::Zset* active = data.zset_at(keys.active, wrong);
  if (!active) return;
  std::string row_key(keys.row_prefix);
  for (const auto& [score, id] :
       Keyspace::zrange_by_score_entries(*active, static_cast<double>(now_ms), active->order.size())) {
    row_key.resize(keys.row_prefix.size());
    row_key += id;
    const Keyspace::Hash* row = data.hash_at(row_key, wrong);
    SweptRow seen;
    seen.rank = out.expired.size();
    seen.exists = row != nullptr;
    seen.state = field_of(row, "state");
    seen.stalled = field_of(row, "stalled");
    seen.failures = field_of(row, "failures");
    seen.lease_epoch = field_of(row, "lease_epoch");
    out.expired.emplace_back(id);
    out.rows.emplace(id, std::move(seen));
  }
}

}  // namespace trafikey::sim
