// FakeClock: the wall clock of the real servers the launcher starts, set by the runner.
// Each server process runs with libtrafikey_clock_shim.so preloaded (clock_shim.c), which
// answers the server's wall-clock reads (gettimeofday, clock_gettime(CLOCK_REALTIME),
// time) from one small file, the clock page (clock_page.h), mapped into every process.
// Every process started with env() shares the one clock, as the processes of one machine
// do: a restarted server or a promoted replica reads what the clock reads now.
//
// The clock is linear over the machine's monotonic clock: set(value_ms, rate) makes it
// read value_ms now and run at `rate` × true time from then on (0 holds it still, which
// is how the scenario runner makes a server's time exactly the sim's at each step).
// Monotonic clocks are left alone: a server's timers keep true time.
//
// Why not libfaketime: Debian 12's redis-server hangs at load under it (its jemalloc calls
// clock_gettime while libfaketime 0.9.10 is still initialising); the shim has nothing to
// initialise, so it runs under any server binary.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

struct trafikey_clock_page;

namespace trafikey::real {

// $TRAFIKEY_CLOCK_SHIM, else the shim built with this launcher; throws when neither is
// readable.
std::string find_clock_shim();

class FakeClock {
 public:
  // Creates the clock page `dir`/clock.page (the directory must exist), reading
  // `value_ms` now and running at `rate`.
  FakeClock(const std::filesystem::path& dir, std::int64_t value_ms, double rate);
  ~FakeClock();  // unmaps the page; the file stays with its directory
  FakeClock(const FakeClock&) = delete;
  FakeClock& operator=(const FakeClock&) = delete;

  // The environment a process needs to run on this clock: LD_PRELOAD and the page's file.
  std::vector<std::string> env() const;

  // From now on the clock reads value_ms (ms since the Unix epoch, >= 0) and runs at `rate`
  // (>= 0) × true time. Processes see the change at their next clock read.
  void set(std::int64_t value_ms, double rate);

 private:
  std::string shim_;
  std::filesystem::path file_;
  trafikey_clock_page* page_ = nullptr;
};

}  // namespace trafikey::real
