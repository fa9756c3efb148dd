// Crash guard: a core that crashes the process (a segfault, an abort) or never returns
// from a verb must still leave a failure an engineer can act on, not a dead or silent
// campaign. The work runs in a child process; a flight recorder in memory the parent
// shares says which run, and which call of it, each thread was in; the parent waits, and
// stops a child whose run has gone on longer than a timeout (a hang).
//
// The recorder's lanes are written by the campaign's threads (campaign.cpp) and the
// checker (one store per call; Checker::set_lane), read by the parent only after the child
// ended or while it waits: plain atomics, no lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace trafikey::properties {

// One thread's run in flight.
struct FlightLane {
  static constexpr std::size_t argv_max = 1024;
  std::atomic<int> run{-1};                 // the campaign run in flight, -1 none
  std::atomic<std::int64_t> started_ms{0};  // steady-clock ms when it (or a shrink candidate) started
  std::atomic<std::int64_t> call{0};        // the history index of the call in flight (1-based), 0 before the first
  std::atomic<std::int64_t> true_ms{0};     // the world's true time at that call
  // The call in flight, its words joined by spaces and cut at argv_max (only when the
  // checker's set_lane asks for them: a probe of one run, not the campaign's every call).
  std::atomic<std::uint32_t> argv_size{0};
  char argv[argv_max] = {};
};

enum class FlightPhase : int { runs = 0, shrinking = 1, files = 2 };

struct Flight {
  static constexpr int lanes_max = 256;  // campaign --parallel's bound
  std::atomic<int> phase{0};             // a FlightPhase
  std::atomic<int> failing_run{-1};      // the run being shrunk (phase shrinking or files)
  FlightLane lanes[lanes_max];

  void start(int lane, int run);  // lane's run begins (or a new candidate of it)
  void finish(int lane);          // lane's run ended
};

// A Flight in memory shared with children forked after it (never unmapped: one per
// process, reused by every supervise()); reset() before each use.
Flight& shared_flight();
void reset(Flight& flight);

std::int64_t steady_ms();

// How a supervised child ended.
struct Supervised {
  enum class End { exited, crashed, hung } end = End::exited;
  int status = 0;   // exited: the exit status
  int signal = 0;   // crashed: the signal that ended it
  int hung_lane = -1;  // hung: the lane whose run passed the timeout (the child was killed)
};

// Runs `body` in a child process (its return value the child's exit status; stdout and
// stderr flushed first) and waits for it. timeout_s > 0: a lane whose run has been in
// flight longer than that gets the child killed (SIGKILL) and End::hung. The parent does
// nothing else meanwhile; the child inherits the process as it is (call before starting
// threads).
Supervised supervise(const std::function<int()>& body, Flight& flight, double timeout_s);

// "SIGSEGV", "SIGABRT", ... ("signal N" for others).
std::string signal_name(int signal);

// The lanes with a run in flight: (run, call in flight), by run.
std::vector<std::pair<int, std::int64_t>> runs_in_flight(const Flight& flight);

}  // namespace trafikey::properties
