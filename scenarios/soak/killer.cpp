#include "scenarios/soak/killer.h"

#include <signal.h>

namespace trafikey::soak {

Killer::Killer(pid_t pid, std::chrono::milliseconds delay)
    : thread_([this, pid, delay] {
        std::unique_lock lock(mutex_);
        if (wake_.wait_for(lock, delay, [this] { return cancelled_; })) return;
        ::kill(pid, SIGKILL);
        fired_ = true;
      }) {}

bool Killer::stop() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  return fired_;
}

}  // namespace trafikey::soak
