#include "sim/prng.h"

#include "core/assert.h"

namespace trafikey::sim {

namespace {
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Prng::Prng(std::uint64_t seed) {
  for (auto& word : s_) word = splitmix64(seed);
}

std::uint64_t Prng::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::int64_t Prng::between(std::int64_t lo, std::int64_t hi) {
  // An empty range (hi < lo) would wrap to a huge one (hi = lo - 1 to the full 64 bits).
  TRAFIKEY_ASSERT(lo <= hi, "between() draws from a non-empty range");
  const std::uint64_t range = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  if (range == 0) return static_cast<std::int64_t>(next());  // the full 64-bit range
  // Lemire: multiply-shift, rejecting the biased low part.
  unsigned __int128 m = static_cast<unsigned __int128>(next()) * range;
  auto low = static_cast<std::uint64_t>(m);
  if (low < range) {
    const std::uint64_t threshold = -range % range;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next()) * range;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) +
                                   static_cast<std::uint64_t>(m >> 64));
}

std::string Prng::run_id() {
  static constexpr char hex[] = "0123456789abcdef";
  std::string id(40, '0');
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (i % 16 == 0) bits = next();
    id[i] = hex[bits & 0xf];
    bits >>= 4;
  }
  return id;
}

}  // namespace trafikey::sim
