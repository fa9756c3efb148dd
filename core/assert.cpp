#include "core/assert.h"

#include <cstdio>
#include <cstdlib>

namespace trafikey::detail {

void assertion_failed(const char* file, int line, const char* condition, const char* why) {
  std::fprintf(stderr, "%s:%d: assertion failed: %s (%s)\n", file, line, condition, why);
  std::fflush(stderr);
  std::abort();
}

}  // namespace trafikey::detail
