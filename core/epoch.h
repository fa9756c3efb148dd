// The lease epoch (shared seed "The lease epoch"; shared spec EMQ §2).
//
// One Epoch object belongs to whatever plays the server process: one per simulated
// incarnation, one per real process in the module. The core holds no global.
#pragma once

#include <cstdint>
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

  // §8: the grant counter, held in memory beside the run_id and never in a key. At each
  // load of the module, at server time `server_ms`, it moves to the last microsecond of
  // that millisecond (never back: a reload in the same process keeps counting up), so the
  // next grant's number is above the server's time in microseconds; every grant takes the
  // next number, so no two grants of one process share one.
  // (Out of line, in epoch.cpp, as the rest of the core's behaviour: the hosts call it.)
  void start_grants(std::int64_t server_ms);
  std::int64_t take_grant();
  std::int64_t last_grant() const { return grants_; }  // the last number taken (or the start)
  // A module unloaded and loaded again in the same process goes on from the last number
  // its unload left behind (a host keeps it in the process, outside the module's image,
  // which the unload frees): never back, even when the server's clock went back between.
  void resume_grants(std::int64_t last);

  // §8: a grant's id, `<run_id>-<n>`, and the wire 2 token `<attempts>-<grant id>`.
  static std::string grant_id(std::string_view run_id, std::int64_t n);
  static std::string wire2_token(std::int64_t attempts, std::string_view grant_id);

 private:
  std::optional<std::string> run_id_;
  std::int64_t grants_ = 0;
};

}  // namespace trafikey
