#include "properties/crash_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <thread>

#include "core/assert.h"

namespace trafikey::properties {

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Flight::start(int lane, int run) {
  TRAFIKEY_ASSERT(lane >= 0 && lane < lanes_max, "a lane the recorder has (campaign --parallel <= lanes_max)");
  FlightLane& l = lanes[lane];
  l.call.store(0, std::memory_order_relaxed);
  l.true_ms.store(0, std::memory_order_relaxed);
  l.argv_size.store(0, std::memory_order_relaxed);
  l.started_ms.store(steady_ms(), std::memory_order_relaxed);
  l.run.store(run, std::memory_order_release);
}

void Flight::finish(int lane) {
  TRAFIKEY_ASSERT(lane >= 0 && lane < lanes_max, "a lane the recorder has (campaign --parallel <= lanes_max)");
  lanes[lane].run.store(-1, std::memory_order_release);
}

Flight& shared_flight() {
  static Flight* flight = [] {
    void* p = mmap(nullptr, sizeof(Flight), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error(std::string("crash guard: mmap: ") + std::strerror(errno));
    return new (p) Flight();
  }();
  return *flight;
}

void reset(Flight& flight) {
  flight.phase.store(0);
  flight.failing_run.store(-1);
  for (FlightLane& l : flight.lanes) {
    l.run.store(-1);
    l.started_ms.store(0);
    l.call.store(0);
    l.true_ms.store(0);
    l.argv_size.store(0);
  }
}

Supervised supervise(const std::function<int()>& body, Flight& flight, double timeout_s) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("crash guard: fork: ") + std::strerror(errno));
  if (child == 0) {
    int status = 3;
    try {
      status = body();
    } catch (const std::exception& e) {
      std::cerr << "trafikey-sim: " << e.what() << "\n";
      status = 3;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(status);
  }
  Supervised out;
  const auto timeout_ms = static_cast<std::int64_t>(timeout_s * 1000);
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) {
      if (WIFSIGNALED(status)) {
        out.end = out.hung_lane >= 0 ? Supervised::End::hung : Supervised::End::crashed;
        out.signal = WTERMSIG(status);
      } else {
        out.end = Supervised::End::exited;
        out.status = WEXITSTATUS(status);
      }
      return out;
    }
    if (done < 0 && errno != EINTR) throw std::runtime_error(std::string("crash guard: waitpid: ") + std::strerror(errno));
    if (timeout_ms > 0 && out.hung_lane < 0) {
      const std::int64_t now = steady_ms();
      for (int i = 0; i < Flight::lanes_max; ++i) {
        const FlightLane& l = flight.lanes[i];
        if (l.run.load(std::memory_order_acquire) >= 0 && now - l.started_ms.load() > timeout_ms) {
          out.hung_lane = i;
          kill(child, SIGKILL);
          break;
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGTRAP: return "SIGTRAP";
    default: return "signal " + std::to_string(signal);
  }
}

std::vector<std::pair<int, std::int64_t>> runs_in_flight(const Flight& flight) {
  std::vector<std::pair<int, std::int64_t>> out;
  for (const FlightLane& l : flight.lanes) {
    const int run = l.run.load();
    if (run >= 0) out.emplace_back(run, l.call.load());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace trafikey::properties
