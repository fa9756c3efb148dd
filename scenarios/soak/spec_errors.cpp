#include "scenarios/soak/spec_errors.h"

#include <array>
#include <cstdint>
#include <limits>

#include "core/errors.h"

namespace trafikey::soak {

namespace {

struct SpecRange {
  std::string_view arg;
  std::int64_t lo, hi;
};

// EMQ §7, "Ranges and bounds", with the argument names the §6 text prints.
constexpr std::array spec_ranges{
    SpecRange{"lease_ms", 1, (std::int64_t{1} << 53) - 1},
    SpecRange{"attempts", 1, std::numeric_limits<std::int64_t>::max()},
    SpecRange{"count", 1, 1000},
    SpecRange{"limit", 1, 10000},
    SpecRange{"max_stalled", 1, 1000000},
    SpecRange{"max_failures", 1, 1000000},
};

// EMQ §6: "the server's `ERR value is not an integer or out of range` for a seq that INCR
// would refuse".
constexpr std::string_view server_incr_refusal = "ERR value is not an integer or out of range";
constexpr std::string_view no_write_access_prefix = "NOPERM EMQ no write access to ";

}  // namespace

bool is_spec_error(std::string_view text) {
  for (std::string_view fixed : {errors::wrong_arity, errors::syntax, errors::bad_queue, errors::bad_job_id,
                                 errors::lease_range, errors::host_call, errors::corrupt_row,
                                 errors::not_primary, errors::wrong_type, server_incr_refusal}) {
    if (text == fixed) return true;
  }
  for (const SpecRange& r : spec_ranges) {
    if (text == errors::integer_range(r.arg, r.lo, r.hi).text()) return true;
  }
  // NOPERM names the key a verb may not write: one of the queue's keys (EMQ §1).
  return text.starts_with(no_write_access_prefix) &&
         text.substr(no_write_access_prefix.size()).starts_with("emq:{");
}

}  // namespace trafikey::soak
