// epoch.exempt, epoch.counted (a sweep) and epoch.load (a process's start) (rules.h).
#include <set>

#include "properties/judge/rules.h"
#include "properties/model/names.h"
#include "sim/run_id.h"

namespace trafikey::properties::judge {

namespace {

std::string stamp_text(const std::optional<model::LeaseStamp>& s) {
  if (!s) return "no stamp";
  return "incarnation " + std::to_string(s->incarnation) + " at t=" + std::to_string(s->true_ms);
}

// A field's value for a message: "-" when absent, "" quoted when empty, so "stamp " + v
// never reads as a missing word.
std::string shown(std::string_view value) { return value.empty() ? "\"\"" : std::string(value); }

// A job's lease as the ledger knew it.
std::string lease_story(std::string_view id, const JobBefore& job) {
  std::string s = "lease of " + std::string(id) + " (token " + std::to_string(job.token) + ")";
  if (job.granted) s += ", granted by " + stamp_text(job.granted) + (job.granted->scripted ? " through claim.lua" : "");
  if (job.stamp && job.granted && job.stamp->call != job.granted->call) {
    s += ", last extended by " + stamp_text(job.stamp);
  }
  if (!job.granted && !job.stamp) s += ", never granted in this history";
  return s;
}

// List `i` of a sweep's reply (recovered, dead, ghosts, lanes at 1, 3, 5, 7): no ids when a
// wrong core put something else there (the due members then go unjudged, and say so).
const std::vector<Reply>& ids_in(const Reply& reply, std::size_t i) { return reply.items()[i].items_if_array(); }

// Exactly the first LIMIT expired members are judged, no other.
void judge_due(const sim::SweepBefore& before, const Reply& reply, const SweepContext& at, Findings& out) {
  if (!before.expiry_known) {
    out.skipped("epoch.counted", "which members had expired (the server's clock is not known)");
    return;
  }
  std::set<std::string> judged;
  for (std::size_t list = 1; list < 8; list += 2) {
    for (const Reply& id : ids_in(reply, list)) judged.insert(id.text());
  }
  const std::size_t due = before.due();
  for (std::size_t i = 0; i < due; ++i) {
    if (!judged.contains(before.expired[i])) {
      out.fail("epoch.counted", "expired lease of " + before.expired[i] + " was not judged by the sweep at st=" +
                                    std::to_string(at.server_ms));
    }
  }
  for (const auto& id : judged) {
    if (!before.due_row(id)) {
      out.fail("epoch.counted", "the sweep at st=" + std::to_string(at.server_ms) + " judged " + id +
                                    ", whose lease had not expired");
    }
  }
}

// One member the sweep listed as recovered or dead.
void judge_member(const sim::SweepBefore& sweep, std::string_view id, bool listed_dead, const SweepContext& at,
                  const SweepSight& sight, Findings& out) {
  // not due (not expired, or past LIMIT): judge_due reported it; its row was not read
  // before the sweep, so there is no stamp or count to judge it by
  const sim::SweptRow* before = sweep.due_row(id);
  if (!before) return;
  const JobBefore* known = sight.ledger_before(id);
  if (known && known->lane) {
    out.fail("epoch.counted", std::string(id) + " carries `group` (a lane row) but the sweep at t=" +
                                  std::to_string(at.true_ms) + " moved it");
    return;
  }
  const std::string_view epoch_before = sim::field_text(before->lease_epoch);
  int stamp_inc = 0;
  std::string story;
  if (known && known->stamp) {
    stamp_inc = known->stamp->incarnation;
    story = lease_story(id, *known);
  } else if (known && known->granted) {
    // granted by the scripted executor and never stamped since: no process's lease
    story = lease_story(id, *known) + ", never stamped";
  } else {
    // a row the ledger never saw granted: its stamp is what the row carries
    const auto& ids = *at.run_ids;
    for (std::size_t i = 1; i < ids.size(); ++i) {
      if (!epoch_before.empty() && epoch_before == ids[i]) stamp_inc = static_cast<int>(i);
    }
    story = "lease of " + std::string(id) + " (" +
            (epoch_before == "-" ? std::string("no stamp") : "stamp " + shown(epoch_before)) + ")";
  }
  const SweptAfter after = sight.row_after(id);
  const std::string_view stalled_before = sim::field_text(before->stalled);
  const std::string_view stalled_after = sim::field_text(after.stalled);
  const std::string_view state_after = sim::field_text(after.state);
  const std::string by = ", judged by the sweep of incarnation " + std::to_string(at.incarnation) +
                         " at t=" + std::to_string(at.true_ms);
  if (stamp_inc != at.incarnation) {
    if (stalled_after != stalled_before || listed_dead || state_after != "pending") {
      out.fail("epoch.exempt", story + by + ": counted (stalled " + shown(stalled_before) + " -> " +
                                   shown(stalled_after) + ", state " + shown(state_after) + ") although " +
                                   (epoch_before == "-" ? "its row carries no stamp" : "the lease crossed a restart"));
    }
    return;
  }
  const std::int64_t s = count_of(stalled_before) + 1;
  const bool should_die = s >= sweep.max_stalled;
  if (count_of(stalled_after) != s || listed_dead != should_die || state_after != (should_die ? "dead" : "pending")) {
    out.fail("epoch.counted", story + by + ": expected stalled " + std::to_string(s) + " and " +
                                  (should_die ? "dead" : "pending") + " at max_stalled " +
                                  std::to_string(sweep.max_stalled) + ", found stalled " + shown(stalled_after) +
                                  ", state " + std::string(state_after) + (listed_dead ? " (listed dead)" : ""));
  }
}

}  // namespace

void judge_sweep(const sim::SweepBefore& before, const Reply& reply, const SweepContext& context,
                 const SweepSight& sight, Findings& out) {
  if (reply.kind() != Reply::Kind::array || reply.items().size() != 8) {
    out.fail("epoch.counted", "STALLED.CHECK answered " + debug_string(reply) + ", not recovered/dead/ghosts/lanes");
    return;
  }
  judge_due(before, reply, context, out);
  for (const Reply& id : ids_in(reply, 1)) judge_member(before, id.text(), false, context, sight, out);
  for (const Reply& id : ids_in(reply, 3)) judge_member(before, id.text(), true, context, sight, out);
}

void epoch_load(int incarnation, std::string_view run_id, bool read_ok, bool reload_refused, const Reply& answer,
                Findings& out) {
  if (read_ok) {
    if (answer != Reply::bulk(std::string(run_id))) {
      out.fail("epoch.load", "incarnation " + std::to_string(incarnation) + " read run_id " + std::string(run_id) +
                                 " but EMQ.EPOCH answered " + debug_string(answer));
    }
  } else if (!answer.is_error() || answer.text().rfind("ERR unknown command", 0) != 0) {
    out.fail("epoch.load", "incarnation " + std::to_string(incarnation) +
                               (reload_refused ? " reloaded on a failed or malformed run_id read (process run_id "
                                               : " read a bad run_id (") +
                               sim::quote_bytes(run_id) + ")" + " yet serves EMQ verbs: EMQ.EPOCH answered " +
                               debug_string(answer));
  }
}

}  // namespace trafikey::properties::judge
