/* libtrafikey_clock_shim.so: preloaded (LD_PRELOAD) into the server processes whose wall
 * clock the runner fakes (fake_clock.h). It interposes the calls a server reads the wall
 * clock with (Redis 7.0 / Valkey: gettimeofday for ustime and mstime, so also
 * RedisModule_Milliseconds and TIME; clock_gettime(CLOCK_REALTIME) and time() elsewhere)
 * and answers them from the clock page (clock_page.h) named by $TRAFIKEY_CLOCK_FILE.
 * Every other clock (CLOCK_MONOTONIC: the server's timers) is passed to the kernel as is.
 *
 * Why not libfaketime: a server's allocator (Debian 12's redis-server links jemalloc)
 * calls clock_gettime before libfaketime has initialised, and the process hangs at load.
 * This shim has nothing to initialise that can be unready: it reads the kernel's clocks
 * with the raw syscall (no dlsym, no libc clock entry point), never allocates, and maps
 * the page on its first use. Until the environment exists (a call before libc has set it
 * up) it answers the true time; with no $TRAFIKEY_CLOCK_FILE, or a page that is not one,
 * always the true time. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "module/harness/clock_page.h"

extern char** environ;

/* The mapped page; NULL until mapped. `absent` latches a process without a page. */
static const struct trafikey_clock_page* page;
static int absent;

static int kernel_clock(clockid_t id, struct timespec* ts) {
  return (int)syscall(SYS_clock_gettime, id, ts);
}

static const struct trafikey_clock_page* the_page(void) {
  const struct trafikey_clock_page* p = __atomic_load_n(&page, __ATOMIC_ACQUIRE);
  if (p != NULL || __atomic_load_n(&absent, __ATOMIC_RELAXED)) return p;
  if (environ == NULL) return NULL; /* too early: libc has not set the environment up yet */
  const char* file = getenv(TRAFIKEY_CLOCK_FILE_ENV);
  if (file == NULL || *file == '\0') {
    __atomic_store_n(&absent, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  const int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    __atomic_store_n(&absent, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  struct stat st;
  void* mapped = MAP_FAILED;
  if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct trafikey_clock_page)) {
    mapped = mmap(NULL, sizeof(struct trafikey_clock_page), PROT_READ, MAP_SHARED, fd, 0);
  }
  close(fd);
  if (mapped == MAP_FAILED) {
    __atomic_store_n(&absent, 1, __ATOMIC_RELAXED);
    return NULL;
  }
  /* Two threads may map it at once: one mapping wins, the other is given back. */
  const struct trafikey_clock_page* expected = NULL;
  if (!__atomic_compare_exchange_n(&page, &expected, (const struct trafikey_clock_page*)mapped, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    munmap(mapped, sizeof(struct trafikey_clock_page));
    return expected;
  }
  return (const struct trafikey_clock_page*)mapped;
}

/* The faked wall clock in ns; 0 when there is no page (the caller then asks the kernel). */
static int faked_wall_ns(int64_t* out) {
  const struct trafikey_clock_page* p = the_page();
  if (p == NULL || __atomic_load_n(&p->magic, __ATOMIC_ACQUIRE) != TRAFIKEY_CLOCK_MAGIC) return 0;
  int64_t anchor_mono_ns, anchor_wall_ns;
  uint64_t rate_bits, seq;
  do {
    seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);
    anchor_mono_ns = __atomic_load_n(&p->anchor_mono_ns, __ATOMIC_RELAXED);
    anchor_wall_ns = __atomic_load_n(&p->anchor_wall_ns, __ATOMIC_RELAXED);
    rate_bits = __atomic_load_n(&p->rate_bits, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
  } while ((seq & 1u) != 0 || seq != __atomic_load_n(&p->seq, __ATOMIC_RELAXED));
  double rate;
  memcpy(&rate, &rate_bits, sizeof rate);
  int64_t wall_ns = anchor_wall_ns;
  if (rate != 0.0) {
    struct timespec mono;
    if (kernel_clock(CLOCK_MONOTONIC, &mono) != 0) return 0;
    const int64_t mono_ns = (int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec;
    wall_ns += (int64_t)((double)(mono_ns - anchor_mono_ns) * rate);
  }
  *out = wall_ns < 0 ? 0 : wall_ns; /* no clock reads before the epoch (sim/clock.h) */
  return 1;
}

static int realtime(clockid_t id, struct timespec* ts) {
  int64_t ns;
  if (!faked_wall_ns(&ns)) return kernel_clock(id, ts);
  ts->tv_sec = (time_t)(ns / 1000000000);
  ts->tv_nsec = (long)(ns % 1000000000);
  return 0;
}

int clock_gettime(clockid_t id, struct timespec* ts) {
  if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE) return realtime(id, ts);
  return kernel_clock(id, ts);
}

int gettimeofday(struct timeval* restrict tv, void* restrict tz) {
  (void)tz; /* obsolete; glibc fills nothing useful either */
  struct timespec ts;
  if (realtime(CLOCK_REALTIME, &ts) != 0) return -1;
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
  return 0;
}

time_t time(time_t* out) {
  struct timespec ts;
  if (realtime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}
