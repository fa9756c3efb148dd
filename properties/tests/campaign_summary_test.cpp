// The merge of campaign shards, on crafted shard results: the merged summary is the
// whole campaign's, byte for byte, the failure is the lowest-numbered one, and shards
// that do not make one campaign are refused with their directory named.
#include <gtest/gtest.h>

#include <set>

#include "properties/campaign_summary.h"
#include "properties/coverage.h"

namespace trafikey::properties {
namespace {

using Coverage = CampaignResult::RunCoverage;

Coverage passing(int run) {
  Coverage c;
  c.run = run;
  c.calls = 100 + run * 7;
  c.outcome = run % 3 == 0 ? "drained" : "stopped";
  c.determinism_checked = run % 10 == 0;
  c.faults = {{"restart", run % 2}, {"clock_step", run % 5}};
  c.verdicts = {{"ghost", run % 4}};
  c.edges = {{"pending->active", run + 1}, {"active->done", run}};
  c.sim_ms = 1000 + (run * 37) % 5000;
  c.final_states = {{"done", run % 6}, {"vanished", run % 2}};
  c.judged = {{"queue.fence", run}};
  return c;
}

Coverage failing(int run) {
  Coverage c;
  c.run = run;
  c.failed = true;
  return c;
}

CampaignFailure failure_at(int run) {
  CampaignFailure f;
  f.run = run;
  f.invariant = "lease.single_holder";
  f.violations = {Violation{"lease.single_holder", 3, 9, 0, "run " + std::to_string(run) + " <two holders>"}};
  f.shrink_steps = run;
  f.shrink_tries = 2 * run;
  f.original_calls = 500;
  f.shrunk_calls = 20;
  return f;
}

// What run_campaign leaves for this shard when the campaign's runs fail at `fails`
// (each shard stops at its own first failure).
CampaignResult shard_result(int index, int count, int runs, const std::set<int>& fails) {
  CampaignResult r;
  for (int i = index; i < runs; i += count) {
    if (fails.contains(i)) {
      r.coverage.push_back(failing(i));
      r.failure = failure_at(i);
      break;
    }
    r.coverage.push_back(passing(i));
  }
  return r;
}

CampaignOptions options_for(int index, int count, int runs) {
  CampaignOptions o;
  o.seed = 99;
  o.runs = runs;
  o.shard_index = index;
  o.shard_count = count;
  return o;
}

// Each shard's campaign.json, written and read back as merge reads it.
std::vector<ShardInput> shards(int count, int runs, const std::set<int>& fails) {
  std::vector<ShardInput> out;
  for (int i = 0; i < count; ++i) {
    const auto s = summarize(shard_result(i, count, runs, fails), options_for(i, count, runs), "", true);
    std::string error;
    auto parsed = parse_summary(summary_json(s), error);
    EXPECT_TRUE(parsed) << error;
    out.push_back({"dir" + std::to_string(i), *parsed});
  }
  return out;
}

std::string whole(int runs, const std::set<int>& fails) {
  return summary_json(summarize(shard_result(0, 1, runs, fails), options_for(0, 1, runs), "", false));
}

TEST(CampaignMerge, passing_shards_give_the_whole_campaign_byte_for_byte) {
  const auto merged = merge_shards(shards(4, 103, {}));
  ASSERT_TRUE(merged.merged) << merged.error;
  EXPECT_EQ(summary_json(*merged.merged), whole(103, {}));
  // the dashboard's aggregates are merged too: bounded lists, histograms, runs reaching
  const auto& m = *merged.merged;
  EXPECT_EQ(m.longest_runs.size(), longest_runs_max);
  EXPECT_EQ(m.longest_runs.front().run, 102) << "the most calls";
  EXPECT_EQ(m.sample_runs.size(), sample_runs_max);
  std::int64_t in_buckets = 0;
  for (const auto& [lower, n] : m.sim_ms_histogram) in_buckets += n;
  EXPECT_EQ(in_buckets, 103);
  EXPECT_EQ(m.runs_reaching.at("fault restart"), 51) << "the odd runs";
  EXPECT_TRUE(merged.failure_dir.empty());
}

TEST(CampaignMerge, the_failure_is_the_lowest_numbered_and_later_runs_are_cut) {
  // Shard 3 fails at run 7 and shard 2 at run 30; shard 1 fails at run 41. The campaign
  // stops at run 7: the runs of other shards after it do not count.
  const std::set<int> fails{7, 30, 41};
  const auto merged = merge_shards(shards(4, 60, fails));
  ASSERT_TRUE(merged.merged) << merged.error;
  ASSERT_TRUE(merged.merged->failure);
  EXPECT_EQ(merged.merged->failure->run, 7);
  EXPECT_EQ(merged.failure_dir, "dir3");
  EXPECT_EQ(merged.merged->passed, 7);
  EXPECT_EQ(merged.merged->failed, 1);
  EXPECT_EQ(summary_json(*merged.merged), whole(60, fails));
}

TEST(CampaignMerge, a_failure_in_shard_zero_at_run_zero) {
  const auto merged = merge_shards(shards(3, 30, {0, 1, 2}));
  ASSERT_TRUE(merged.merged) << merged.error;
  EXPECT_EQ(merged.merged->failure->run, 0);
  EXPECT_EQ(merged.failure_dir, "dir0");
  EXPECT_EQ(summary_json(*merged.merged), whole(30, {0, 1, 2}));
}

TEST(CampaignMerge, more_shards_than_runs) {
  const auto merged = merge_shards(shards(5, 3, {}));
  ASSERT_TRUE(merged.merged) << merged.error;
  EXPECT_EQ(summary_json(*merged.merged), whole(3, {}));
}

TEST(CampaignMerge, refuses_a_shard_of_another_campaign) {
  auto in = shards(2, 20, {});
  in[1].summary.seed = 100;
  EXPECT_NE(merge_shards(in).error.find("dir1: shard 1/2 of another campaign"), std::string::npos);
  in = shards(2, 20, {});
  in[1].summary.faults = "restart";
  EXPECT_NE(merge_shards(in).error.find("dir1:"), std::string::npos);
  in = shards(2, 20, {});
  in[0].summary.determinism_every = 0;
  EXPECT_NE(merge_shards(in).error.find("dir1:"), std::string::npos);
  in = shards(2, 20, {});
  auto three = shards(3, 20, {});
  in[1] = three[1];
  in[1].dir = "dir1";
  EXPECT_NE(merge_shards(in).error.find("dir1: shard 1/3 of another campaign"), std::string::npos);
}

TEST(CampaignMerge, refuses_a_doubled_or_missing_shard) {
  auto in = shards(3, 20, {});
  in[2] = in[1];
  in[2].dir = "again";
  const auto doubled = merge_shards(in).error;
  EXPECT_NE(doubled.find("again: shard 1/3 given twice (also dir1)"), std::string::npos) << doubled;
  in.pop_back();
  EXPECT_NE(merge_shards(in).error.find("shard 2/3 is missing"), std::string::npos);
}

TEST(CampaignMerge, refuses_a_shard_whose_runs_are_not_its_own_or_incomplete) {
  auto in = shards(2, 20, {});
  in[1].summary.per_run.pop_back();
  EXPECT_NE(merge_shards(in).error.find("dir1: shard 1/2 is incomplete"), std::string::npos);
  in = shards(2, 20, {});
  in[0].summary.per_run.erase(in[0].summary.per_run.begin() + 2);
  EXPECT_NE(merge_shards(in).error.find("dir0: shard 0/2 lists run 6 where run 4 belongs"),
            std::string::npos);
  in = shards(2, 20, {5});
  in[1].summary.failure.reset();
  EXPECT_NE(merge_shards(in).error.find("dir1: shard 1/2: its failure and its list of runs disagree"),
            std::string::npos);
  in = shards(2, 20, {});
  in[0].summary.shard.reset();
  EXPECT_NE(merge_shards(in).error.find("dir0: not a shard"), std::string::npos);
}

TEST(CampaignSummary, a_shard_file_reads_back_to_the_same_bytes) {
  const auto s = summarize(shard_result(1, 3, 40, {13}), options_for(1, 3, 40), "restart,clock", true);
  const std::string text = summary_json(s);
  std::string error;
  const auto parsed = parse_summary(text, error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(summary_json(*parsed), text);
  EXPECT_FALSE(parse_summary("{\"seed\": 1}", error));
  EXPECT_FALSE(error.empty());
}

// What a campaign's coverage counts as not drawn rather than never reached (coverage.h).
TEST(Coverage, only_a_large_run_is_outside_a_space_that_draws_none) {
  const CoverageTarget large{"situation", "large-run"};
  EXPECT_FALSE(drawn_in(full_space(), large)) << "the campaign's space draws no large run";
  PlanSpace all = full_space();
  all.large_per_mille = 50;
  EXPECT_TRUE(drawn_in(all, large)) << "the All property's does";
  for (const auto& t : coverage_targets()) {
    EXPECT_EQ(drawn_in(full_space(), t), t.name != "large-run") << t.family << " " << t.name;
  }
  CampaignResult none;
  const std::string table = coverage_table(none, full_space());
  EXPECT_NE(table.find("large-run                    0   (not drawn by these plans)"), std::string::npos) << table;
  EXPECT_NE(table.find("restart                      0   <- never reached"), std::string::npos) << table;
  EXPECT_NE(coverage_table(none, all).find("large-run                    0   <- never reached"), std::string::npos);
}

}  // namespace
}  // namespace trafikey::properties
