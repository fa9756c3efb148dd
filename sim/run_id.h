// EMQ §2's run_id shape, spelt here from the page: exactly 40 characters of 0-9a-f.
//
// The harness's own check: the world's malformed draws and its near run_ids, the scenario
// language's `epoch` steps and the model's epoch.load oracle use it, never the core's
// Epoch::valid_run_id, which a wrong core shares with the server it is judged by (a core
// whose check is too loose must not also decide what the harness calls malformed).
#pragma once

#include <string_view>

namespace trafikey::sim {

inline bool run_id_shape_ok(std::string_view run_id) {
  if (run_id.size() != 40) return false;
  for (const char c : run_id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace trafikey::sim
