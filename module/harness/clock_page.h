/* The clock page: the one small file through which the runner sets the wall clock of the
 * server processes it starts (module/harness/fake_clock.h writes it, clock_shim.c reads it
 * inside each server). C, so the shim includes it too.
 *
 * The page describes a linear clock over the machine's monotonic clock:
 *   wall_ns(now) = anchor_wall_ns + (CLOCK_MONOTONIC(now) - anchor_mono_ns) * rate
 * rate 1 runs with true time, 0 holds the clock still, 2 runs it twice as fast. The
 * writer updates it in place (never by rename: every reader keeps its mapping of this
 * inode) under a sequence lock: seq is odd while the fields change, so a reader that saw
 * an odd or a changed seq reads again. */
#ifndef TRAFIKEY_MODULE_HARNESS_CLOCK_PAGE_H
#define TRAFIKEY_MODULE_HARNESS_CLOCK_PAGE_H

#include <stdint.h>

/* The environment variable that names the page's file for the shim. */
#define TRAFIKEY_CLOCK_FILE_ENV "TRAFIKEY_CLOCK_FILE"
/* "TKCLOCK1" little-endian: a page the writer has finished initialising. */
#define TRAFIKEY_CLOCK_MAGIC 0x314b434f4c434b54ULL

struct trafikey_clock_page {
  uint64_t magic;
  uint64_t seq;
  int64_t anchor_mono_ns;
  int64_t anchor_wall_ns;
  uint64_t rate_bits; /* a double, as its bits (so it is read with an integer atomic load) */
};

#endif
