// LinearClock: a node's clock as a function of true time (the event clock).
//
// value(true_ms) = anchor_value_ms + (true_ms - anchor_true_ms) * rate. A step moves the
// value at once; a rate change re-anchors at the current instant so the clock never jumps
// when only its speed changes. The server and every worker own one, which is how the
// world gives each node its own skew. Values are floored to whole ms and never below 0,
// as no real server clock reads before the epoch. True time only moves forward: a step or
// a rate change at an instant before the last one is a caller's mistake (asserted); the
// value itself may step back (`clock -MS`).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/assert.h"

namespace trafikey::sim {

class LinearClock {
 public:
  LinearClock() = default;
  LinearClock(std::int64_t offset_ms, double rate) : anchor_value_ms_(offset_ms), rate_(rate) {
    TRAFIKEY_ASSERT(rate >= 0, "a clock runs forward or stands still");
  }

  std::int64_t value(std::int64_t true_ms) const {
    const double v = static_cast<double>(anchor_value_ms_) +
                     static_cast<double>(true_ms - anchor_true_ms_) * rate_;
    return std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(v)));
  }
  // The true time at which this clock reads `value` (assuming no further faults); the
  // earliest instant >= now when the value is already reached.
  std::int64_t true_time_of(std::int64_t value_ms, std::int64_t now_true_ms) const {
    const double t = static_cast<double>(anchor_true_ms_) +
                     static_cast<double>(value_ms - anchor_value_ms_) / rate_;
    return std::max(now_true_ms, static_cast<std::int64_t>(std::ceil(t)));
  }
  void step(std::int64_t true_ms, std::int64_t delta_ms) {
    reanchor(true_ms);
    anchor_value_ms_ += delta_ms;
  }
  void set_rate(std::int64_t true_ms, double rate) {
    TRAFIKEY_ASSERT(rate >= 0, "a clock runs forward or stands still");
    reanchor(true_ms);
    rate_ = rate;
  }
  double rate() const { return rate_; }

 private:
  void reanchor(std::int64_t true_ms) {
    TRAFIKEY_ASSERT(true_ms >= anchor_true_ms_, "a clock is stepped or re-rated at an instant before its last one");
    anchor_value_ms_ = static_cast<std::int64_t>(std::floor(
        static_cast<double>(anchor_value_ms_) +
        static_cast<double>(true_ms - anchor_true_ms_) * rate_));
    anchor_true_ms_ = true_ms;
  }

  std::int64_t anchor_true_ms_ = 0;
  std::int64_t anchor_value_ms_ = 0;
  double rate_ = 1.0;
};

}  // namespace trafikey::sim
