#include "module/harness/fake_clock.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace trafikey::real {

namespace {

using namespace std::chrono_literals;

constexpr auto drift_period = 1ms;
constexpr auto probe_timeout = 2s;

}  // namespace

std::string find_libfaketime() {
  if (const char* lib = std::getenv("TRAFIKEY_LIBFAKETIME"); lib != nullptr && *lib != '\0') return lib;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu/faketime", "/usr/lib/aarch64-linux-gnu/faketime",
                          "/usr/lib/faketime", "/usr/lib64/faketime", "/usr/local/lib/faketime"}) {
    const std::filesystem::path lib = std::filesystem::path(dir) / "libfaketime.so.1";
    if (::access(lib.c_str(), R_OK) == 0) return lib.string();
  }
  return {};
}

bool runs_under_faketime(const std::string& binary) {
  static std::mutex mutex;
  static std::map<std::string, bool> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(binary); it != known.end()) return it->second;
  const std::string library = find_libfaketime();
  bool ok = false;
  if (!library.empty()) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
    for (const char* extra : {"FAKETIME=+0", "FAKETIME_DONT_FAKE_MONOTONIC=1"}) env_strings.emplace_back(extra);
    env_strings.push_back("LD_PRELOAD=" + library);
    std::vector<char*> envp;
    for (auto& e : env_strings) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string bin = binary, version = "--version";
    char* argv[] = {bin.data(), version.data(), nullptr};
    const pid_t child = ::fork();
    if (child == 0) {
      const int null = ::open("/dev/null", O_RDWR);
      if (null >= 0) {
        ::dup2(null, 0);
        ::dup2(null, 1);
        ::dup2(null, 2);
      }
      ::execve(argv[0], argv, envp.data());
      ::_exit(127);
    }
    if (child > 0) {
      const auto deadline = std::chrono::steady_clock::now() + probe_timeout;
      int status = 0;
      bool exited = false;
      while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(child, &status, WNOHANG) == child) {
          exited = true;
          break;
        }
        std::this_thread::sleep_for(5ms);
      }
      if (!exited) {
        ::kill(child, SIGKILL);
        while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
      }
      ok = exited && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
  }
  known[binary] = ok;
  return ok;
}

FakeClock::FakeClock(const std::filesystem::path& dir, std::chrono::steady_clock::time_point origin)
    : library_(find_libfaketime()), file_(dir / "faketime.rc"), origin_(origin) {
  if (library_.empty()) throw std::runtime_error("fake_clock: no libfaketime (apt install faketime)");
  write(0);
  drifter_ = std::jthread([this](std::stop_token stop) { drift_loop(stop); });
}

FakeClock::~FakeClock() {
  drifter_.request_stop();
  if (drifter_.joinable()) drifter_.join();
}

std::vector<std::string> FakeClock::env() const {
  return {"LD_PRELOAD=" + library_, "FAKETIME_TIMESTAMP_FILE=" + file_.string(), "FAKETIME_NO_CACHE=1",
          "FAKETIME_DONT_FAKE_MONOTONIC=1"};
}

double FakeClock::offset_ms_at(double true_ms) const {
  return anchor_offset_ms_ + (true_ms - anchor_true_ms_) * (rate_ - 1.0);
}

void FakeClock::step(std::int64_t true_ms, std::int64_t delta_ms) {
  std::lock_guard lock(mutex_);
  anchor_offset_ms_ = offset_ms_at(static_cast<double>(true_ms)) + static_cast<double>(delta_ms);
  anchor_true_ms_ = static_cast<double>(true_ms);
  write(offset_ms_at(anchor_true_ms_));
}

void FakeClock::set_rate(std::int64_t true_ms, double rate) {
  std::lock_guard lock(mutex_);
  anchor_offset_ms_ = offset_ms_at(static_cast<double>(true_ms));
  anchor_true_ms_ = static_cast<double>(true_ms);
  rate_ = rate;
  write(anchor_offset_ms_);
}

void FakeClock::set_origin(std::chrono::steady_clock::time_point origin) {
  std::lock_guard lock(mutex_);
  origin_ = origin;
}

void FakeClock::write(double offset_ms) {
  // "+S.ssssss": libfaketime's relative offset in seconds, fractions allowed.
  char text[64];
  std::snprintf(text, sizeof text, "%+.6f\n", offset_ms / 1000.0);
  const std::filesystem::path tmp = file_.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out) throw std::runtime_error("fake_clock: cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, file_);
}

void FakeClock::drift_loop(std::stop_token stop) {
  while (!stop.stop_requested()) {
    std::this_thread::sleep_for(drift_period);
    std::lock_guard lock(mutex_);
    if (rate_ == 1.0) continue;
    const double now_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - origin_).count();
    try {
      write(offset_ms_at(now_ms));
    } catch (const std::exception&) {
      return;  // the directory is gone: the session is over
    }
  }
}

}  // namespace trafikey::real
