// FakeClock: the clock of real servers the launcher starts, stepped and drifted the way
// Jepsen fakes clock faults: the server runs under libfaketime (Debian's `faketime`
// package), which reads its offset from a timestamp file (FAKETIME_TIMESTAMP_FILE, with
// FAKETIME_NO_CACHE=1 so every time call reads it). Every process started with env() shares
// the one clock, as the processes of one machine do (a restarted server or a promoted
// replica keeps a step made before it started).
//
// The clock is a function of the steady clock since `origin`: value = wall + offset, where
// a step adds to the offset at once and a drift at RATE makes the offset grow by
// (RATE - 1) per ms from then on. libfaketime's own rate (`x2`) is measured from each
// process's start, so a drift is written as offsets instead: a thread rewrites the file
// (atomically, by rename) every millisecond while the rate is not 1. Monotonic clocks are
// left alone (FAKETIME_DONT_FAKE_MONOTONIC=1): the server's timers keep true time, its
// wall clock (what TIME, and RedisModule_Milliseconds, read) is the faked one.
#pragma once

#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace trafikey::real {

// $TRAFIKEY_LIBFAKETIME, else libfaketime.so.1 where Debian installs it; empty when absent.
std::string find_libfaketime();

// Whether `binary --version` runs to completion under libfaketime within 2 s (the answer
// is remembered per binary). Debian 12's redis-server does not: its jemalloc calls
// clock_gettime while libfaketime 0.9.10 is still initialising, and the process hangs at
// load before main.
bool runs_under_faketime(const std::string& binary);

class FakeClock {
 public:
  // Creates the timestamp file in `dir` with offset 0; `origin`: the steady instant the
  // caller's true time 0 stands for.
  FakeClock(const std::filesystem::path& dir, std::chrono::steady_clock::time_point origin);
  ~FakeClock();
  FakeClock(const FakeClock&) = delete;
  FakeClock& operator=(const FakeClock&) = delete;

  // The environment a server needs to run on this clock (LD_PRELOAD and libfaketime's).
  std::vector<std::string> env() const;

  // At true time `true_ms` (ms since origin): the clock jumps by delta_ms.
  void step(std::int64_t true_ms, std::int64_t delta_ms);
  // At true time `true_ms`: the clock runs at `rate` × true time from now on.
  void set_rate(std::int64_t true_ms, double rate);
  // Restarts the clock's origin (true time 0) without changing its offset.
  void set_origin(std::chrono::steady_clock::time_point origin);

 private:
  double offset_ms_at(double true_ms) const;  // under mutex_
  void write(double offset_ms);
  void drift_loop(std::stop_token stop);

  std::string library_;
  std::filesystem::path file_;
  std::chrono::steady_clock::time_point origin_;
  mutable std::mutex mutex_;
  double anchor_true_ms_ = 0;    // offset(t) = anchor_offset + (t - anchor_true) * (rate - 1)
  double anchor_offset_ms_ = 0;
  double rate_ = 1.0;
  std::jthread drifter_;
};

}  // namespace trafikey::real
