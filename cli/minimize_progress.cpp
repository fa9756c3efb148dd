#include "cli/minimize_progress.h"

#include <unistd.h>

#include <cstdio>

namespace trafikey::cli {

std::function<void(int, std::size_t, const char*)> minimize_progress() {
  if (isatty(STDERR_FILENO) == 0) return {};
  return [](int replays, std::size_t steps, const char* pass) {
    // every replay would flood a slow terminal: every 16th, and the first
    if (replays % 16 != 1) return;
    std::fprintf(stderr, "\rminimizing: %d replays, %zu steps left (%s)   ", replays, steps, pass);
  };
}

void minimize_progress_done() {
  if (isatty(STDERR_FILENO) != 0) std::fputs("\r\033[K", stderr);
}

}  // namespace trafikey::cli
