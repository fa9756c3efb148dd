// The history minimizer's progress on a terminal (stderr a tty): one line rewritten in
// place; nothing otherwise. Shared by `campaign` and `shrink`.
#pragma once

#include <cstddef>
#include <functional>

namespace trafikey::cli {

// Empty when stderr is not a terminal. Call minimize_progress_done() after the minimization.
std::function<void(int, std::size_t, const char*)> minimize_progress();
void minimize_progress_done();

}  // namespace trafikey::cli
