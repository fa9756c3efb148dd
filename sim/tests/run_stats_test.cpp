// The buckets, the longest-runs order and the sample the campaign dashboard draws with.
#include <gtest/gtest.h>

#include "sim/run_stats.h"

namespace trafikey::sim {
namespace {

TEST(RunStats, buckets_step_1_1_5_2_3_5_7_per_decade) {
  EXPECT_EQ(bucket_of(-3), 0);
  EXPECT_EQ(bucket_of(0), 0);
  EXPECT_EQ(bucket_of(1), 1);
  EXPECT_EQ(bucket_of(2), 2);
  EXPECT_EQ(bucket_of(4), 3);
  EXPECT_EQ(bucket_of(9), 7);
  EXPECT_EQ(bucket_of(10), 10);
  EXPECT_EQ(bucket_of(14), 10);
  EXPECT_EQ(bucket_of(15), 15);
  EXPECT_EQ(bucket_of(699), 500);
  EXPECT_EQ(bucket_of(1999), 1500);
  EXPECT_EQ(bucket_of(70000), 70000);
  // Every value lies in [its bucket, the next bucket).
  for (std::int64_t v = 0; v < 200000; v += 1 + v / 50) {
    const std::int64_t b = bucket_of(v);
    EXPECT_LE(b, v);
    EXPECT_GT(next_bucket(b), v) << v;
    EXPECT_EQ(bucket_of(next_bucket(b)), next_bucket(b));
  }
  EXPECT_EQ(bucket_label(1500), "1.5k");
  EXPECT_EQ(bucket_label(20000), "20k");
  EXPECT_EQ(bucket_label(3000000), "3M");
  EXPECT_EQ(bucket_label(700), "700");
}

TEST(RunStats, keep_first_keeps_the_longest_runs_and_a_sample_in_any_arrival_order) {
  std::vector<std::pair<std::int64_t, int>> forward, backward;  // (calls, run)
  std::vector<int> sample_forward, sample_backward;
  auto longer = [](const auto& a, const auto& b) { return longer_run(a.first, a.second, b.first, b.second); };
  for (int run = 0; run < 1000; ++run) {
    keep_first(forward, std::pair<std::int64_t, int>{run % 37, run}, 5, longer);
    keep_first(sample_forward, run, 8, sampled_before);
  }
  for (int run = 999; run >= 0; --run) {
    keep_first(backward, std::pair<std::int64_t, int>{run % 37, run}, 5, longer);
    keep_first(sample_backward, run, 8, sampled_before);
  }
  EXPECT_EQ(forward, backward);
  EXPECT_EQ(sample_forward, sample_backward);
  ASSERT_EQ(forward.size(), 5u);
  EXPECT_EQ(forward[0], (std::pair<std::int64_t, int>{36, 36})) << "most calls, then the lower run";
  EXPECT_EQ(forward[1], (std::pair<std::int64_t, int>{36, 73}));
  EXPECT_EQ(sample_forward.size(), 8u);
}

}  // namespace
}  // namespace trafikey::sim
