// Short spellings of the replies the sim tests expect, and how GoogleTest prints one.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <utility>
#include <vector>

#include "core/reply.h"

namespace trafikey {
inline void PrintTo(const Reply& reply, std::ostream* os) { *os << debug_string(reply); }
}  // namespace trafikey

namespace trafikey::sim::test_replies {

inline Reply Int(std::int64_t v) { return Reply::integer(v); }
inline Reply Bulk(std::string_view b) { return Reply::bulk(b); }
inline Reply Arr(std::vector<Reply> items = {}) { return Reply::array(std::move(items)); }
inline Reply Err(std::string_view t) { return Reply::error(t); }

}  // namespace trafikey::sim::test_replies
