// One EMQ verb call as the model runs it, and §4's verbs, one file each with the names of
// core/verbs/ (add.cpp, claim.cpp, ..., stalled_check.cpp): a verb's whole predicted
// behaviour (its refusals, its reply, its writes on the model's dataset) is in its file.
// Written from the spec page, never from core/verbs/: the model stands apart from the core
// it judges (model.h).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/args.h"
#include "core/reply.h"
#include "properties/model/model.h"
#include "properties/model/names.h"
#include "properties/model/refusals.h"
#include "properties/model/rows.h"
#include "sim/keyspace.h"

namespace trafikey::properties::model {

// What a verb reads and fills: its arguments, the process it runs under, the model's
// dataset, the queue argv[1] names, the refusals found so far, and the prediction (empty on
// entry). A verb checks in the order refusals.h gives, and answers every refusal it found
// with refused(): any of them is right.
struct VerbCall {
  Args argv;
  const Context& ctx;
  sim::Keyspace& data;
  QueueCache* queue;  // null when argv[1] is not a queue name (then refused before any read)
  Expectation& e;
  Refusals refusals;

  std::size_t argc() const { return argv.size(); }
  std::int64_t now() const { return ctx.now_ms; }
  const QueueNames& names() const {
    assert(queue);
    return queue->names;
  }
  RowName row(std::string_view id) const { return RowName(names().row_prefix, id); }

  // The value of `key`: one of the queue's four set keys (the very views of names()) from
  // its sets, any other from the dataset.
  const sim::Keyspace::Value* value(std::string_view key) {
    if (!queue) return data.find(key);
    const QueueNames& n = queue->names;
    const auto& sets = queue->sets.of(data, {n.pending, n.active, n.done, n.dead});
    // by the views' own bytes: the verbs pass these very names (any other view of the same
    // text is looked up in the dataset, with the same answer)
    auto is = [&](const std::string& name) { return key.data() == name.data() && key.size() == name.size(); };
    if (is(n.pending)) return sets[0];
    if (is(n.active)) return sets[1];
    if (is(n.done)) return sets[2];
    if (is(n.dead)) return sets[3];
    return data.find(key);
  }

  // §6: the arity, checked first and alone.
  bool arity(bool ok) {
    if (!ok) refusals.add(e_arity);
    return ok;
  }
  void id_arg(std::string_view id) {
    if (!id_ok(id)) refusals.add(e_id);
  }
  // The lease a call names as `id attempts` in argv[2] and argv[3]: the id checked, the
  // token returned (nullopt: refused).
  std::optional<Token> lease_args() {
    id_arg(argv[2]);
    return lease_token(refusals, argv[3]);
  }
  // §3: whether the lease of `id` under `token` is live on the dataset as it is. When not,
  // the note says why, and a corrupt attempts field is a refusal (as right as the verb's 0).
  bool lease_live(std::string_view id, const Token& token) {
    const Liveness l = liveness(data, value(names().active), names().row_prefix, id, token, now());
    if (!l.live) {
      e.note = l.why;
      if (l.corrupt) refusals.add(e_corrupt);
    }
    return l.live;
  }
  // §6: a writing verb refuses on a replica or a loading server.
  void fence() {
    if (!ctx.writable) refusals.add(e_fence);
  }
  // The call refused: any of the refusals found is right.
  Expectation& refused() {
    e.replies = std::move(refusals.texts);
    e.range_suffixes = std::move(refusals.ranges);
    return e;
  }
  // The same, or `also`, a "nothing done" reply that writes nothing either.
  Expectation& refused(Reply also) {
    e.replies = std::move(refusals.texts);
    e.replies.push_back(std::move(also));
    e.range_suffixes = std::move(refusals.ranges);
    return e;
  }
  // The one right reply.
  Expectation& answer(Reply reply) {
    e.replies.push_back(std::move(reply));
    return e;
  }
};

// The verbs. EMQ.EPOCH names no queue; each other gets its call after the dispatch
// (Model::verb) refused a missing queue name on the arity and checked a present one.
namespace verbs {
Expectation& add(VerbCall& c);
Expectation& claim(VerbCall& c);
Expectation& extend(VerbCall& c);
Expectation& extends(VerbCall& c);
Expectation& complete(VerbCall& c);
Expectation& fail(VerbCall& c);
Expectation& stalled_check(VerbCall& c);
Expectation& stats(VerbCall& c);
Expectation& job(VerbCall& c);
Expectation& epoch(VerbCall& c);
}  // namespace verbs

}  // namespace trafikey::properties::model
