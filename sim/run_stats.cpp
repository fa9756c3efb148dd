#include "sim/run_stats.h"

#include "sim/prng.h"

namespace trafikey::sim {

namespace {
// The bounds of one decade, in tenths of its power of ten.
constexpr std::int64_t decade_tenths[] = {10, 15, 20, 30, 50, 70};
}  // namespace

std::int64_t bucket_of(std::int64_t value) {
  if (value < 1) return 0;
  // Work in tenths so that 1.5 is a bound in the first decade too (15 tenths).
  std::int64_t power = 1;
  while (value / power >= 10) power *= 10;
  const std::int64_t tenths = value * 10 / power;  // 10..99
  std::int64_t bound = 10;
  for (std::int64_t b : decade_tenths) {
    if (b <= tenths) bound = b;
  }
  // 1.5 in the first decade is not an integer: values 1 stay in bucket 1.
  return std::max<std::int64_t>(1, bound * power / 10);
}

std::int64_t next_bucket(std::int64_t lower) {
  // The smallest value above `lower` whose bucket differs.
  if (lower < 1) return 1;
  std::int64_t power = 1;
  while (lower / power >= 10) power *= 10;
  for (std::int64_t b : decade_tenths) {
    const std::int64_t bound = b * power / 10;
    if (bound > lower) return bound;
  }
  return power * 10;
}

std::string bucket_label(std::int64_t lower) {
  auto scaled = [](std::int64_t v, std::int64_t unit, const char* suffix) {
    const std::int64_t whole = v / unit, tenth = v % unit * 10 / unit;
    return std::to_string(whole) + (tenth ? "." + std::to_string(tenth) : "") + suffix;
  };
  if (lower >= 1000000) return scaled(lower, 1000000, "M");
  if (lower >= 1000) return scaled(lower, 1000, "k");
  return std::to_string(lower);
}

std::uint64_t sample_key(int run) {
  std::uint64_t state = 0x5a4d504c45ULL ^ static_cast<std::uint64_t>(run);  // "SAMPLE"
  return splitmix64(state);
}

}  // namespace trafikey::sim
