#include "module/harness/fake_clock.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "core/assert.h"
#include "module/harness/clock_page.h"

namespace trafikey::real {

namespace {

std::int64_t monotonic_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The page's fields are shared with other processes: every access is atomic (the shim
// reads them with the same width, clock_page.h's sequence lock orders them).
template <class T>
void store(T& field, T value, std::memory_order order = std::memory_order_relaxed) {
  std::atomic_ref<T>(field).store(value, order);
}

}  // namespace

std::string find_clock_shim() {
  const char* env = std::getenv("TRAFIKEY_CLOCK_SHIM");
  const std::string shim = env != nullptr && *env != '\0' ? env : TRAFIKEY_CLOCK_SHIM_PATH;
  if (::access(shim.c_str(), R_OK) != 0) {
    throw std::runtime_error("fake_clock: the clock shim " + shim + " is not readable (build the target "
                             "trafikey_clock_shim, or set TRAFIKEY_CLOCK_SHIM)");
  }
  return shim;
}

FakeClock::FakeClock(const std::filesystem::path& dir, std::int64_t value_ms, double rate)
    : shim_(find_clock_shim()), file_(dir / "clock.page") {
  const int fd = ::open(file_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("fake_clock: cannot create " + file_.string());
  void* mapped = MAP_FAILED;
  if (::ftruncate(fd, sizeof(trafikey_clock_page)) == 0) {
    mapped = ::mmap(nullptr, sizeof(trafikey_clock_page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  ::close(fd);
  if (mapped == MAP_FAILED) throw std::runtime_error("fake_clock: cannot map " + file_.string());
  page_ = static_cast<trafikey_clock_page*>(mapped);
  set(value_ms, rate);
  // The magic last: a reader that sees it sees a whole clock.
  store<std::uint64_t>(page_->magic, TRAFIKEY_CLOCK_MAGIC, std::memory_order_release);
}

FakeClock::~FakeClock() { ::munmap(page_, sizeof(trafikey_clock_page)); }

std::vector<std::string> FakeClock::env() const {
  return {"LD_PRELOAD=" + shim_, std::string(TRAFIKEY_CLOCK_FILE_ENV) + "=" + file_.string()};
}

void FakeClock::set(std::int64_t value_ms, double rate) {
  TRAFIKEY_ASSERT(value_ms >= 0 && rate >= 0, "a clock reads after the epoch and runs forward or stands");
  std::uint64_t rate_bits = 0;
  std::memcpy(&rate_bits, &rate, sizeof rate);
  const std::uint64_t seq = std::atomic_ref<std::uint64_t>(page_->seq).load(std::memory_order_relaxed);
  store<std::uint64_t>(page_->seq, seq + 1);  // odd: being written
  std::atomic_thread_fence(std::memory_order_release);
  store<std::int64_t>(page_->anchor_mono_ns, monotonic_ns());
  store<std::int64_t>(page_->anchor_wall_ns, value_ms * 1'000'000);
  store<std::uint64_t>(page_->rate_bits, rate_bits);
  store<std::uint64_t>(page_->seq, seq + 2, std::memory_order_release);
}

}  // namespace trafikey::real
