// campaign.json: what a campaign (or one shard of it) leaves behind, and the merge of
// shards back into the campaign.
//
// A summary is a fold of per-run coverage (campaign.h's RunCoverage) in run order up to
// the first failure, so the whole campaign and the merge of its shards are the same fold
// over the same runs and write the same bytes. A shard's file also records which campaign
// it belongs to (seed, runs, fault option, determinism_every), its place (shard I/N) and
// every run it finished, so that merge can check that the shards are one campaign, each
// present once, and cut the fold at the campaign's first failure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "properties/campaign.h"

namespace trafikey::properties {

struct FailureSummary {
  int run = 0;
  std::string invariant, facts;
  int shrink_steps = 0, shrink_tries = 0;
  std::int64_t original_calls = 0, shrunk_calls = 0;
};

inline constexpr std::size_t longest_runs_max = 10;
inline constexpr std::size_t sample_runs_max = 40;

struct CampaignSummary {
  // What the campaign is: two shards belong together when these are equal.
  std::uint64_t seed = 0;
  int runs = 0;
  std::string faults;  // the --faults option as given ("" : every kind)
  int determinism_every = 10;
  // A differential campaign's (cli/campaign_differential.h): the server binary each run
  // was compared with (--server-bin, as given); empty for a sim campaign, and then not
  // written. Shards with different ones (a sim campaign's among them) are not one campaign.
  std::string differential;
  std::optional<std::pair<int, int>> shard;  // (index, count) for a shard's file
  // The fold.
  int passed = 0, failed = 0, determinism_checked = 0;
  std::map<std::string, std::int64_t> faults_applied, verdicts, edges, outcomes, situations;
  std::vector<std::int64_t> calls_per_run;
  // For the dashboard (reports/campaign_page.h), bounded however many runs: jobs by final
  // state, invariant -> times judged, per coverage target ("fault restart") the passing
  // runs that reached it; histograms of calls and of simulated ms per run as (bucket lower
  // bound, runs), non-empty buckets ascending (sim/run_stats.h); the longest runs and a
  // sample (longest_runs_max and sample_runs_max of the passing runs, sim/run_stats.h).
  std::map<std::string, std::int64_t> final_states, judged, runs_reaching;
  std::vector<std::pair<std::int64_t, std::int64_t>> calls_histogram, sim_ms_histogram;
  std::vector<CampaignResult::RunCoverage> longest_runs, sample_runs;
  std::optional<FailureSummary> failure;
  std::vector<CampaignResult::RunCoverage> per_run;  // kept (and written) for shards only
};

// The summary of a finished campaign, or (as_shard) of shard options.shard_index/count.
// `faults` is the --faults option as given.
CampaignSummary summarize(const CampaignResult& result, const CampaignOptions& options,
                          const std::string& faults, bool as_shard);

// campaign.json's text (ends with a newline); per_run is written only for a shard.
std::string summary_json(const CampaignSummary& summary);

// Parses a campaign.json; nullopt and `error` set when it is not one.
std::optional<CampaignSummary> parse_summary(const std::string& text, std::string& error);

struct ShardInput {
  std::string dir;  // named in refusals
  CampaignSummary summary;
};

struct MergeResult {
  std::optional<CampaignSummary> merged;  // the whole campaign's summary (no shard, no per_run)
  std::string failure_dir;                // the shard directory holding the failure's files
  std::string error;                      // why the shards were refused (names a directory)
};

// Refuses shards of different campaigns, a shard given twice, a missing shard, a shard
// whose runs are not its own; else folds every run in run order up to the first failure.
MergeResult merge_shards(const std::vector<ShardInput>& shards);

}  // namespace trafikey::properties
