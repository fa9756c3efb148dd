// Prng: the one random stream of a simulated run.
//
// Algorithm: xoshiro256** (Blackman & Vigna, 2018), seeded by expanding the 64-bit run
// seed with SplitMix64, as its authors recommend. Every draw of a run (run_ids, work
// durations, outcomes, tie-breaks) comes from one Prng in a fixed order, so one seed gives
// one history. Ranges use Lemire's multiply-shift with rejection, so draws are unbiased
// and the same on every platform; no floating point is involved in any draw.
#pragma once

#include <cstdint>
#include <string>

namespace trafikey::sim {

class Prng {
 public:
  explicit Prng(std::uint64_t seed);

  std::uint64_t next();
  // Uniform in lo..hi inclusive (lo <= hi).
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  // True with probability per_mille / 1000.
  bool chance(std::int64_t per_mille) { return between(0, 999) < per_mille; }
  // 40 lowercase hex characters: a run_id as Valkey prints one.
  std::string run_id();

 private:
  std::uint64_t s_[4];
};

std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace trafikey::sim
