// Killer: SIGKILLs one server process after a delay, from a thread of its own, so the kill
// lands wherever the client happens to be: between calls, or with a call in flight.
// stop() cancels it if it has not fired yet and says whether it did; the destructor stops
// it. It only signals; the launcher reaps the process (RealServer::kill after stop()).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sys/types.h>
#include <thread>

namespace trafikey::soak {

class Killer {
 public:
  Killer(pid_t pid, std::chrono::milliseconds delay);
  ~Killer() { stop(); }
  Killer(const Killer&) = delete;
  Killer& operator=(const Killer&) = delete;

  bool stop();  // true when the signal was sent

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool cancelled_ = false;
  bool fired_ = false;
  std::thread thread_;
};

}  // namespace trafikey::soak
