// The lease epoch (shared seed "The lease epoch"; shared spec EMQ §2).
//
// One Epoch object belongs to whatever plays the server process: one per simulated
// incarnation, one per real process in the module. The core holds no global.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/outcome.h"

namespace trafikey {

class Epoch {
 public:
  // CONFIG_RUN_ID_SIZE (Valkey server.h).
  static constexpr std::size_t run_id_len = 40;

  // A run_id as Valkey prints it: exactly 40 lowercase hex characters.
  static bool valid_run_id(std::string_view id);

  // Pure: an expired lease is restart-caused (exempt from the stall count) when its
  // lease_epoch is missing or differs byte-wise from the current run_id.
  static bool exempt(std::optional<std::string_view> lease_epoch, std::string_view current) {
    return lease_epoch != current;
  }

  // Takes the outcome of the host's run_id read. A failed read or a malformed value
  // refuses with "ERR EMQ host call failed" (the load must then be refused). A second
  // successful load keeps the first value: one process, one run_id.
  Status load(const Outcome<std::string>& run_id_read);

  // The cached run_id, or "ERR EMQ host call failed" when nothing was loaded; a caller
  // takes it before its first write and refuses rather than guess.
  Outcome<std::string_view> current() const;

  bool loaded() const { return run_id_.has_value(); }

 private:
  std::optional<std::string> run_id_;
};

}  // namespace trafikey
