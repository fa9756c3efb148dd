// Outcome<T>: a value or an error Reply, the core's Status (LevelDB style: failures are
// values, never exceptions). A verb that meets an error in its read pass returns the
// error Reply as its answer, having written nothing.
#pragma once

#include <utility>
#include <variant>

#include "core/assert.h"
#include "core/reply.h"

namespace trafikey {

template <class T>
class [[nodiscard]] Outcome {
 public:
  Outcome(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Outcome(Reply error) : v_(std::in_place_index<1>, std::move(error)) {  // NOLINT
    TRAFIKEY_ASSERT(std::get<1>(v_).is_error(), "an Outcome's error is an error Reply");
  }

  bool ok() const { return v_.index() == 0; }
  const T& value() const& {
    TRAFIKEY_ASSERT(ok(), "value() of an Outcome that holds an error");
    return std::get<0>(v_);
  }
  T& value() & {
    TRAFIKEY_ASSERT(ok(), "value() of an Outcome that holds an error");
    return std::get<0>(v_);
  }
  T&& value() && {
    TRAFIKEY_ASSERT(ok(), "value() of an Outcome that holds an error");
    return std::get<0>(std::move(v_));
  }
  const Reply& error() const& {
    TRAFIKEY_ASSERT(!ok(), "error() of an Outcome that holds a value");
    return std::get<1>(v_);
  }
  Reply&& error() && {
    TRAFIKEY_ASSERT(!ok(), "error() of an Outcome that holds a value");
    return std::get<1>(std::move(v_));
  }

 private:
  std::variant<T, Reply> v_;
};

struct Ok {};
using Status = Outcome<Ok>;
inline Status ok_status() { return Ok{}; }

}  // namespace trafikey

#define TK_CONCAT_INNER(a, b) a##b
#define TK_CONCAT(a, b) TK_CONCAT_INNER(a, b)

// TK_TRY(auto x, expr): evaluate an Outcome; on error return its Reply from the enclosing
// function (which returns a Reply or an Outcome), else bind the value.
#define TK_TRY(decl, expr)                                          \
  auto TK_CONCAT(tk_outcome_, __LINE__) = (expr);                   \
  if (!TK_CONCAT(tk_outcome_, __LINE__).ok())                       \
    return std::move(TK_CONCAT(tk_outcome_, __LINE__)).error();     \
  decl = std::move(TK_CONCAT(tk_outcome_, __LINE__)).value()

// TK_CHECK(expr): evaluate a Status; on error return its Reply.
#define TK_CHECK(expr)                                              \
  do {                                                              \
    auto tk_status = (expr);                                        \
    if (!tk_status.ok()) return std::move(tk_status).error();       \
  } while (0)
