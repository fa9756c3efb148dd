// AckModel: the kill part's record of one queue as the client's acknowledged replies
// describe it (soak.h). Every transition whose reply arrived is applied here; the server
// must then show it after any kill and restart. The one call whose reply a kill swallowed
// (in flight) may or may not have happened, so the comparison after a restart allows
// exactly what that call could have done, then adopts what the server holds.
//
// Time: a lease's deadline is known only as a window (the server's clock read somewhere
// between sending the call and reading its reply, on the same machine's wall clock), so a
// lease is live, expired, or either, and the checks of a reply allow both in the last case.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/reply.h"
#include "scenarios/soak/queue_audit.h"

namespace trafikey::soak {

// Wall-clock ms around one call: the server's `now` for it lies in [sent_ms, answered_ms].
struct CallWindow {
  std::int64_t sent_ms = 0, answered_ms = 0;
};

struct ModelJob {
  std::string state;  // pending, active, done, dead
  std::string payload;
  std::int64_t attempts = 0, failures = 0, stalled = 0, max_failures = 3;
  double pending_score = 0;                  // while pending
  std::int64_t deadline_lo_ms = 0, deadline_hi_ms = 0;  // while active
  std::string lease_epoch;                   // run_id that granted or extended the lease
  std::string last_call;                     // the last acknowledged call that moved it (facts)

  bool operator==(const ModelJob&) const = default;
};

enum class Liveness { live, expired, either };

class AckModel {
 public:
  explicit AckModel(std::string queue) : queue_(std::move(queue)) {}

  const std::string& queue() const { return queue_; }
  const std::map<std::string, ModelJob>& jobs() const { return jobs_; }
  std::int64_t seq() const { return seq_; }
  // The pending ids, lowest first (score, then id bytes: EMQ §1).
  std::vector<std::string> pending_order() const;
  std::vector<std::string> ids_in(const std::string& state) const;
  Liveness liveness(const ModelJob& job, std::int64_t attempts, const CallWindow& at) const;

  // Each checks the reply against the acknowledged state (an empty answer) or says what
  // contradicts it, and applies it. `epoch` is the run_id of the server that answered.
  // Each counts the transitions it applied into `transitions`.
  std::string on_add(const std::vector<std::string>& argv, const Reply& reply, std::int64_t& transitions);
  std::string on_claim(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                       const std::string& epoch, std::int64_t& transitions);
  std::string on_extend(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                        const std::string& epoch, std::int64_t& transitions);
  std::string on_complete(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                          std::int64_t& transitions);
  std::string on_fail(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                      std::int64_t& transitions);
  std::string on_sweep(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                       const std::string& epoch, std::int64_t& transitions);

  // After a restart: compares the server's queue with the model, allowing what the call in
  // flight (if any) may have done; one line per contradiction. Then adopt() the server's.
  std::vector<std::string> compare(const QueueState& real, const std::optional<std::vector<std::string>>& in_flight) const;
  void adopt(const QueueState& real);

 private:
  std::string check_zero_or_one(std::map<std::string, ModelJob>::iterator it, const std::vector<std::string>& argv,
                                const Reply& reply, const CallWindow& at) const;

  std::string queue_;
  std::map<std::string, ModelJob> jobs_;
  std::int64_t seq_ = 0;
};

}  // namespace trafikey::soak
