// EMQ.FAIL q id attempts reason (§4): a live lease (§3) charged one failure: requeued
// while failures stay below max_failures (reply 1), else dead (reply 2); 0 for any other.
#include <array>
#include <string>

#include "properties/model/verb_call.h"

namespace trafikey::properties::model::verbs {

namespace {

// Back to the end of pending with a new seq, its failures and the reason written.
Expectation& requeue(VerbCall& c, const RowName& row, const std::string& failures, std::int64_t max_failures) {
  const QueueNames& n = c.names();
  expect_counter(c.refusals, c.data, n.seq);
  if (c.refusals.any()) return c.refused();
  c.e.note = "failure " + failures + " of " + std::to_string(max_failures) + ": requeued";
  c.data.zrem(n.active, c.argv[2]);
  const std::int64_t s = c.data.incr(n.seq);
  c.data.zadd(n.pending, static_cast<double>(s), c.argv[2]);
  const std::array<FieldRef, 3> fields{FieldRef{"state", "pending"}, FieldRef{"failures", failures},
                                       FieldRef{"error", c.argv[4]}};
  c.data.hset(row, fields);
  c.e.writes = true;
  return c.answer(Reply::integer(1));
}

// Into dead at now, dead_reason "failed".
Expectation& dead_letter(VerbCall& c, const RowName& row, const std::string& failures, std::int64_t max_failures) {
  const QueueNames& n = c.names();
  c.e.note = "failure " + failures + " of " + std::to_string(max_failures) + ": dead";
  c.data.zrem(n.active, c.argv[2]);
  c.data.zadd(n.dead, static_cast<double>(c.now()), c.argv[2]);
  const std::array<FieldRef, 4> fields{FieldRef{"state", "dead"}, FieldRef{"failures", failures},
                                       FieldRef{"dead_reason", "failed"}, FieldRef{"error", c.argv[4]}};
  c.data.hset(row, fields);
  c.e.writes = true;
  return c.answer(Reply::integer(2));
}

}  // namespace

Expectation& fail(VerbCall& c) {
  Refusals& r = c.refusals;
  if (!c.arity(c.argc() == 5)) return c.refused();
  const auto token = c.lease_args();
  c.fence();
  if (r.any()) return c.refused();
  const QueueNames& n = c.names();
  expect_types(r, {c.value(n.active), c.value(n.pending), c.value(n.dead)});
  if (r.any()) return c.refused();
  const RowName row = c.row(c.argv[2]);
  if (!c.lease_live(c.argv[2], *token)) return c.refused(Reply::integer(0));
  bool corrupt = false;
  const sim::Keyspace::Hash* h = hash(c.data, row);
  const auto failures = counter(h, "failures", 0, corrupt);
  const auto max_failures = counter(h, "max_failures", 3, corrupt);
  if (corrupt) {
    r.add(e_corrupt);
    return c.refused();
  }
  const std::int64_t f = *failures + 1;
  const std::string fs = std::to_string(f);
  return f < *max_failures ? requeue(c, row, fs, *max_failures) : dead_letter(c, row, fs, *max_failures);
}

}  // namespace trafikey::properties::model::verbs
