// verb.atomic and queue.fence: what one call may answer and write (rules.h).
#include <algorithm>

#include "core/text.h"
#include "properties/judge/rules.h"
#include "properties/model/names.h"

namespace trafikey::properties::judge {

void verb_atomic(Args argv, model::EmqVerb verb, const Reply& reply, const CallWrites& writes, Findings& out) {
  if (!writes.changed) return;
  using model::EmqVerb;
  // The verb as the spec spells it, or the command's name in upper case; the facts are
  // spelt only when something is wrong.
  auto verb_text = [&] {
    return verb != EmqVerb::none ? std::string(model::verb_name(verb)) : upper(argv.empty() ? "" : argv[0]);
  };
  auto wrote = [&] {
    return writes.count ? "wrote " + std::to_string(*writes.count) + " time(s)" : std::string("changed the keyspace");
  };
  if (reply.is_error()) {
    out.fail("verb.atomic", verb_text() + " was refused with \"" + reply.text() + "\" but " + wrote());
    return;
  }
  const bool zero = reply.kind() == Reply::Kind::integer && reply.as_integer() == 0 &&
                    (verb == EmqVerb::add || verb == EmqVerb::extend || verb == EmqVerb::complete ||
                     verb == EmqVerb::fail);
  const bool all_zero = reply.kind() == Reply::Kind::array && verb == EmqVerb::extends &&
                        std::all_of(reply.items().begin(), reply.items().end(),
                                    [](const Reply& x) { return x.as_integer() == 0; });
  if (zero || all_zero) out.fail("verb.atomic", verb_text() + " answered 0 (nothing done) but " + wrote());
}

void lease_verb(std::string_view verb_sent, bool fail_verb, std::span<const LeasePair> pairs,
                std::span<const std::pair<std::string, JobBefore>> before, std::string_view actor,
                std::optional<std::int64_t> server_ms, Findings& out) {
  for (const auto& [id, token, answer, other_grant] : pairs) {
    auto it = std::find_if(before.begin(), before.end(), [&](const auto& b) { return b.first == id; });
    if (it == before.end() || !it->second.granted) continue;  // the ledger cannot judge it
    const JobBefore& job = it->second;
    const bool holds = !other_grant && job.state == JobState::active && job.token == token;
    if (holds && !server_ms) {
      out.skipped("queue.fence", "whether a lease had run out (the server's clock is not known)");
      continue;
    }
    const bool live = holds && job.deadline_server_ms >= *server_ms;
    // The facts are spelt only when something is wrong.
    auto at = [&] { return " at st=" + std::to_string(*server_ms); };
    auto why = [&]() -> std::string {
      if (other_grant) return "its grant is not the job's live grant (EMQ §8)";
      if (job.state != JobState::active) return "the job is " + std::string(model::state_name(job.state));
      if (job.token != token) return "the live token is " + std::to_string(job.token) + " (held by " + job.holder + ")";
      return "the lease expired at st=" + std::to_string(job.deadline_server_ms);
    };
    if (answer != 0 && !live) {
      out.fail("queue.fence", upper(verb_sent) + " of " + std::string(id) + " with token " +
                                  std::to_string(token) + " by " + std::string(actor) + " answered " +
                                  std::to_string(answer) + at() + ", but " + why());
    } else if (answer == 0 && live) {
      out.fail("queue.fence", upper(verb_sent) + " of " + std::string(id) + " with the live token " +
                                  std::to_string(token) + " by " + std::string(actor) + " answered 0" + at() +
                                  " (deadline st=" + std::to_string(job.deadline_server_ms) + ")");
    }
    if (fail_verb && live && answer != 0) {
      out.judged("queue.budget");
      const std::int64_t f = job.failures + 1;
      const std::int64_t expected = f < job.max_failures ? 1 : 2;
      if (answer != expected) {
        out.fail("queue.budget", "FAIL of " + std::string(id) + " was failure " + std::to_string(f) +
                                     " of max_failures " + std::to_string(job.max_failures) + ": expected " +
                                     (expected == 1 ? "1 (requeued)" : "2 (dead)") + ", answered " +
                                     std::to_string(answer));
      }
    }
  }
}

void claim_token(std::string_view id, std::int64_t token, std::int64_t highest, Findings& out) {
  if (token > highest) return;
  out.fail("queue.fence", "CLAIM granted token " + std::to_string(token) + " of " + std::string(id) + ", but token " +
                              std::to_string(highest) + " was already granted: two holders could share a live token");
}

void grant_fresh(std::string_view id, const std::string& grant, std::string where,
                 std::map<std::string, std::string, std::less<>>& granted, Findings& out) {
  if (grant.empty()) return;
  const auto [it, fresh] = granted.try_emplace(grant, std::move(where));
  if (fresh) return;
  out.fail("queue.grant", "CLAIM granted " + std::string(id) + " under grant id " + grant +
                              ", which was granted before (" + it->second + "): no grant id is issued twice");
}

void wire2_answer(std::string_view verb_sent, std::string_view id, std::string_view grant,
                  const std::optional<std::string>& lease_before, std::int64_t answer, Findings& out) {
  if (answer == 0 || (lease_before && *lease_before == grant)) return;
  out.fail("queue.grant", upper(verb_sent) + " of " + std::string(id) + " with a wire 2 token of grant " +
                              std::string(grant) + " answered " + std::to_string(answer) + ", but the live grant was " +
                              (lease_before ? *lease_before : std::string("none (the row had no lease)")));
}

}  // namespace trafikey::properties::judge
