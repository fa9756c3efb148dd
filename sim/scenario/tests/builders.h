// Short spellings of reply patterns and steps for the scenario tests.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/reply_pattern.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario::builders {

inline ReplyPattern I(std::int64_t v) { return ReplyPattern::make_integer(v); }
inline ReplyPattern S(std::string s) { return ReplyPattern::make_string(std::move(s)); }
inline ReplyPattern A(std::vector<ReplyPattern> items = {}) {
  return ReplyPattern::make_array(std::move(items));
}
inline ReplyPattern Nil() { return ReplyPattern::make_nil(); }
inline ReplyPattern Err(std::string text) { return ReplyPattern::make_error(std::move(text)); }
inline ReplyPattern Any() { return ReplyPattern::make_any(); }

inline Step at(std::int64_t time_ms, Action action, int line = 0) {
  return Step{time_ms, line, std::move(action)};
}
inline Call call(std::string client, std::vector<std::string> argv,
                 std::optional<ReplyPattern> expect = std::nullopt) {
  return Call{std::move(client), std::move(argv), std::move(expect)};
}

}  // namespace trafikey::scenario::builders
