// Views of many runs that stay small however many runs there are: the campaign summary
// (properties/campaign_summary.h) folds them and the campaign dashboard (reports/) draws
// them, so both use these same definitions.
//
// Buckets: a size (calls, or simulated ms) falls in the bucket whose lower bound is the
// largest of 0, 1, 1.5, 2, 3, 5, 7 times a power of ten not above it (about six buckets a
// decade: runs of 20 and 20,000 calls fit one chart). Bounds are fixed, not drawn from the
// data, so histograms of shards add up bucket by bucket.
//
// Longest runs: most calls first, then the lower run index. Sample: the runs whose
// sample_key is smallest (a hash of the run index only), a uniform sample that is the
// same whichever threads or shards ran the runs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace trafikey::sim {

// The lower bound of the bucket holding `value` (values <= 0: bucket 0).
std::int64_t bucket_of(std::int64_t value);
// The lower bound of the bucket after the one starting at `lower`.
std::int64_t next_bucket(std::int64_t lower);
// A bucket bound for an axis label: "0", "7", "150", "1.5k", "20k", "3M".
std::string bucket_label(std::int64_t lower);

// The longest-runs order: true when (calls_a, run_a) comes before (calls_b, run_b).
inline bool longer_run(std::int64_t calls_a, int run_a, std::int64_t calls_b, int run_b) {
  return calls_a != calls_b ? calls_a > calls_b : run_a < run_b;
}
// The sample order: the runs with the smallest keys are the sample.
std::uint64_t sample_key(int run);
inline bool sampled_before(int run_a, int run_b) {
  const std::uint64_t a = sample_key(run_a), b = sample_key(run_b);
  return a != b ? a < b : run_a < run_b;
}

// Keeps `kept` the first `limit` items in `before` order as items are offered one by one
// (an item is copied only when it makes the cut).
template <class T, class Before>
void keep_first(std::vector<T>& kept, const T& item, std::size_t limit, Before before) {
  auto at = std::upper_bound(kept.begin(), kept.end(), item, before);
  if (static_cast<std::size_t>(at - kept.begin()) >= limit) return;
  kept.insert(at, item);
  if (kept.size() > limit) kept.pop_back();
}

}  // namespace trafikey::sim
