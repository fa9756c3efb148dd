// TRAFIKEY_ASSERT(cond, why): a precondition or invariant the code relies on, stated where
// it is relied on (STYLE: assertions as documentation). Checked in every build: the default
// preset (RelWithDebInfo) defines NDEBUG, which turns <cassert>'s assert off, and a broken
// precondition should stop the program where it broke, not surface later as a wrong
// history. A failure prints "FILE:LINE: assertion failed: COND (WHY)" to stderr and aborts.
// `why` is a string literal saying what the condition means to the caller.
//
// Only for what no input can cause: a caller's mistake, never a reply, a row or a file the
// program reads (those are values: refusals, findings, parse errors).
#pragma once

namespace trafikey::detail {

[[noreturn, gnu::cold]] void assertion_failed(const char* file, int line, const char* condition, const char* why);

}  // namespace trafikey::detail

#define TRAFIKEY_ASSERT(cond, why)                                      \
  (__builtin_expect(static_cast<bool>(cond), 1)                         \
       ? static_cast<void>(0)                                           \
       : ::trafikey::detail::assertion_failed(__FILE__, __LINE__, #cond, why))
