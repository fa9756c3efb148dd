// The adversarial client's edge probes of a lease's live window (sim/adversarial_calls.h
// draw_boundary_probe).
#include <cstdio>

#include "sim/adversarial_setup.h"

namespace trafikey::sim {

using namespace adversary;

std::vector<std::vector<std::string>> draw_boundary_probe(Prng& prng, const AdversaryTarget& t) {
  const std::string b = t.queue + "-edge";
  const SpecKeys k(b);
  const std::string id = "e";
  const std::string row = k.row(id);
  std::vector<Call> calls{k.clear()};
  calls.front().push_back(row);  // e a ghost to the checker from here: a row written by hand
  const std::string lease = std::to_string(t.lease_ms);
  // now, one ms before, or half a ms below or above (exact as a double at any server time)
  const std::int64_t edge = prng.between(0, 3);
  std::string deadline;
  if (edge < 2) {
    deadline = std::to_string(t.server_ms - edge);
  } else {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f", static_cast<double>(t.server_ms) + (edge == 2 ? -0.5 : 0.5));
    deadline = text;
  }
  const bool budget_1 = prng.chance(500);  // FAIL dead-letters; the sweep (max_stalled 1) kills
  calls.push_back({"HSET", row, "state", "active", "payload", "p", "attempts", "1", "failures", "0", "max_failures",
                   budget_1 ? "1" : "3", "lease_epoch", t.run_id});
  calls.push_back({"ZADD", k.key("active"), deadline, id});
  switch (prng.between(0, 4)) {
    case 0: calls.push_back({"EMQ.EXTEND", b, id, "1", lease}); break;
    case 1: {
      Call extends{"EMQ.EXTENDS", b, lease, id, "1"};
      if (prng.chance(500)) {  // the id again: with its token, or with one it never held
        extends.push_back(id);
        extends.push_back(prng.chance(500) ? "1" : "2");
      }
      calls.push_back(extends);
      break;
    }
    case 2:
      calls.push_back(prng.chance(500) ? Call{"EMQ.COMPLETE", b, id, "1", "r"} : Call{"EMQ.COMPLETE", b, id, "1"});
      break;
    case 3: calls.push_back({"EMQ.FAIL", b, id, "1", "r"}); break;
    default: calls.push_back({"EMQ.STALLED.CHECK", b, budget_1 ? "1" : "5"}); break;
  }
  calls.push_back({"DEL", row});
  return calls;
}

}  // namespace trafikey::sim
