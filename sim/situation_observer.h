// SituationObserver: counts the situations of sim/situations.h that a generated run reaches,
// as the driver sees them around each of its calls. Internal to the generated-run driver
// (sim/run*.cpp): not a public API; a run's counts reach callers as RunSummary::situations.
//
// It reads the server's dataset before a call (what the call is about to meet) and the call
// as the world recorded it after (what it answered); it never writes. The few situations only
// the driver can tell (a setup's CLAIM over a hundred ghosts, a reload that kept the epoch,
// a write refused under the ACL it chose) it reports itself, through saw().
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/args.h"
#include "sim/situations.h"
#include "sim/world.h"

namespace trafikey::sim::driver {

class SituationObserver {
 public:
  // `queue_names`: the run's queues (a sweep of one meets another's expired leases).
  SituationObserver(const World& world, const std::vector<std::string>& queue_names)
      : world_(world), queue_names_(queue_names) {}

  void saw(Situation situation) { ++counts_[static_cast<std::size_t>(situation)]; }

  // What the call `argv` is about to meet, read from the server's dataset.
  void before_call(Args argv);
  // What the call answered.
  void after_call(const CallRecord& rec);
  // At the end of a run of `calls` calls; `claimed_from[q]`: a CLAIM got a job from queue q.
  void at_end(std::int64_t calls, const std::vector<bool>& claimed_from);

  // The situations seen, by name, with how often each occurred; those never seen are absent.
  std::map<std::string, std::int64_t> counts_by_name() const;

 private:
  void before_sweep(Args argv);
  void before_claim(Args argv);
  void before_lease_verb(Args argv);  // EXTEND, EXTENDS, COMPLETE, FAIL
  void after_adversarial_call(const CallRecord& rec);
  void after_add(const CallRecord& rec);
  void after_claim(const CallRecord& rec);
  void after_finish(const CallRecord& rec);  // COMPLETE, FAIL
  void after_extends(const CallRecord& rec);
  void after_read(const CallRecord& rec);  // JOB, STATS
  // An ADD or a requeueing FAIL (answered 1) on a valid queue: where its seq now stands.
  void after_ordering(const CallRecord& rec);

  const World& world_;
  const std::vector<std::string>& queue_names_;
  std::array<std::int64_t, situation_count> counts_{};  // by Situation
};

}  // namespace trafikey::sim::driver
