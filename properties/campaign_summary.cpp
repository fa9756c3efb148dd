#include "properties/campaign_summary.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/run_stats.h"

namespace trafikey::properties {

namespace {

using Json = nlohmann::ordered_json;
using Coverage = CampaignResult::RunCoverage;

using Histogram = std::vector<std::pair<std::int64_t, std::int64_t>>;

Histogram histogram(const std::map<std::int64_t, std::int64_t>& buckets) {
  return {buckets.begin(), buckets.end()};
}

// The fold: runs in run order, every one up to and including the first failure.
void fold(CampaignSummary& s, const std::vector<Coverage>& runs) {
  s.passed = s.failed = s.determinism_checked = 0;
  s.faults_applied.clear();
  s.verdicts.clear();
  s.edges.clear();
  s.outcomes.clear();
  s.situations.clear();
  s.calls_per_run.clear();
  s.final_states.clear();
  s.judged.clear();
  s.runs_reaching.clear();
  s.longest_runs.clear();
  s.sample_runs.clear();
  std::map<std::int64_t, std::int64_t> calls_buckets, sim_ms_buckets;
  auto reach = [&](const char* family, const std::map<std::string, std::int64_t>& counts) {
    for (const auto& [k, n] : counts) {
      if (n > 0) ++s.runs_reaching[std::string(family) + " " + k];
    }
  };
  for (const auto& r : runs) {
    if (r.failed) {
      ++s.failed;
      break;
    }
    ++s.passed;
    if (r.determinism_checked) ++s.determinism_checked;
    for (const auto& [k, n] : r.faults) s.faults_applied[k] += n;
    for (const auto& [k, n] : r.verdicts) s.verdicts[k] += n;
    for (const auto& [k, n] : r.edges) s.edges[k] += n;
    for (const auto& [k, n] : r.situations) s.situations[k] += n;
    ++s.outcomes[r.outcome];
    s.calls_per_run.push_back(r.calls);
    for (const auto& [k, n] : r.final_states) s.final_states[k] += n;
    for (const auto& [k, n] : r.judged) s.judged[k] += n;
    reach("fault", r.faults);
    reach("verdict", r.verdicts);
    reach("edge", r.edges);
    reach("situation", r.situations);
    ++calls_buckets[sim::bucket_of(r.calls)];
    ++sim_ms_buckets[sim::bucket_of(r.sim_ms)];
    sim::keep_first(s.longest_runs, r, longest_runs_max, [](const Coverage& a, const Coverage& b) {
      return sim::longer_run(a.calls, a.run, b.calls, b.run);
    });
    sim::keep_first(s.sample_runs, r, sample_runs_max,
                    [](const Coverage& a, const Coverage& b) { return sim::sampled_before(a.run, b.run); });
  }
  s.calls_histogram = histogram(calls_buckets);
  s.sim_ms_histogram = histogram(sim_ms_buckets);
}

Json coverage_json(const Coverage& r) {
  Json j;
  j["run"] = r.run;
  if (r.failed) {
    j["failed"] = true;
    return j;
  }
  j["calls"] = r.calls;
  j["sim_ms"] = r.sim_ms;
  j["outcome"] = r.outcome;
  j["twice"] = r.determinism_checked;
  j["faults"] = r.faults;
  j["verdicts"] = r.verdicts;
  j["edges"] = r.edges;
  j["situations"] = r.situations;
  j["final_states"] = r.final_states;
  j["judged"] = r.judged;
  return j;
}

Coverage parse_coverage(const Json& j) {
  Coverage r;
  r.run = j.at("run").get<int>();
  r.failed = j.value("failed", false);
  if (r.failed) return r;
  r.calls = j.at("calls").get<std::int64_t>();
  r.sim_ms = j.at("sim_ms").get<std::int64_t>();
  r.outcome = j.at("outcome").get<std::string>();
  r.determinism_checked = j.at("twice").get<bool>();
  r.faults = j.at("faults").get<std::map<std::string, std::int64_t>>();
  r.verdicts = j.at("verdicts").get<std::map<std::string, std::int64_t>>();
  r.edges = j.at("edges").get<std::map<std::string, std::int64_t>>();
  r.situations = j.at("situations").get<std::map<std::string, std::int64_t>>();
  r.final_states = j.at("final_states").get<std::map<std::string, std::int64_t>>();
  r.judged = j.at("judged").get<std::map<std::string, std::int64_t>>();
  return r;
}

std::string shard_name(int index, int count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

}  // namespace

CampaignSummary summarize(const CampaignResult& result, const CampaignOptions& options,
                          const std::string& faults, bool as_shard) {
  CampaignSummary s;
  s.seed = options.seed;
  s.runs = options.runs;
  s.faults = faults;
  s.determinism_every = options.determinism_every;
  if (as_shard) {
    s.shard = std::pair{options.shard_index, options.shard_count};
  }
  fold(s, result.coverage);
  if (result.failure) {
    const auto& f = *result.failure;
    s.failure = FailureSummary{f.run,
                               f.invariant,
                               f.violations.empty() ? "" : f.violations.front().describe(),
                               f.shrink_steps,
                               f.shrink_tries,
                               f.original_calls,
                               f.shrunk_calls};
  }
  if (s.shard) s.per_run = result.coverage;
  return s;
}

std::string summary_json(const CampaignSummary& s) {
  Json j;
  j["seed"] = s.seed;
  j["runs"] = s.runs;
  j["fault_option"] = s.faults;
  j["determinism_every"] = s.determinism_every;
  if (!s.differential.empty()) j["differential"] = s.differential;
  if (s.shard) j["shard"] = {{"index", s.shard->first}, {"count", s.shard->second}};
  j["passed"] = s.passed;
  j["failed"] = s.failed;
  j["determinism_checked"] = s.determinism_checked;
  j["faults"] = s.faults_applied;
  j["verdicts"] = s.verdicts;
  j["edges"] = s.edges;
  j["situations"] = s.situations;
  j["outcomes"] = s.outcomes;
  j["calls_per_run"] = s.calls_per_run;
  j["final_states"] = s.final_states;
  j["judged"] = s.judged;
  j["runs_reaching"] = s.runs_reaching;
  j["calls_histogram"] = s.calls_histogram;
  j["sim_ms_histogram"] = s.sim_ms_histogram;
  auto rows = [](const std::vector<Coverage>& runs) {
    Json a = Json::array();
    for (const auto& r : runs) a.push_back(coverage_json(r));
    return a;
  };
  j["longest_runs"] = rows(s.longest_runs);
  j["sample_runs"] = rows(s.sample_runs);
  if (s.failure) {
    const auto& f = *s.failure;
    j["failure"] = {{"run", f.run},
                    {"invariant", f.invariant},
                    {"facts", f.facts},
                    {"shrink_steps", f.shrink_steps},
                    {"shrink_tries", f.shrink_tries},
                    {"original_calls", f.original_calls},
                    {"shrunk_calls", f.shrunk_calls}};
  }
  if (s.shard) j["per_run"] = rows(s.per_run);
  // facts quote the calls' bytes, which need not be UTF-8 (a binary payload or id): an
  // invalid byte is written as U+FFFD rather than throwing, so a failure is still reported
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::optional<CampaignSummary> parse_summary(const std::string& text, std::string& error) {
  try {
    const Json j = Json::parse(text);
    CampaignSummary s;
    s.seed = j.at("seed").get<std::uint64_t>();
    s.runs = j.at("runs").get<int>();
    s.faults = j.at("fault_option").get<std::string>();
    s.determinism_every = j.at("determinism_every").get<int>();
    s.differential = j.value("differential", std::string());
    if (j.contains("shard")) {
      s.shard = std::pair{j["shard"].at("index").get<int>(), j["shard"].at("count").get<int>()};
    }
    s.passed = j.at("passed").get<int>();
    s.failed = j.at("failed").get<int>();
    s.determinism_checked = j.at("determinism_checked").get<int>();
    s.faults_applied = j.at("faults").get<std::map<std::string, std::int64_t>>();
    s.verdicts = j.at("verdicts").get<std::map<std::string, std::int64_t>>();
    s.edges = j.at("edges").get<std::map<std::string, std::int64_t>>();
    s.situations = j.at("situations").get<std::map<std::string, std::int64_t>>();
    s.outcomes = j.at("outcomes").get<std::map<std::string, std::int64_t>>();
    s.calls_per_run = j.at("calls_per_run").get<std::vector<std::int64_t>>();
    s.final_states = j.at("final_states").get<std::map<std::string, std::int64_t>>();
    s.judged = j.at("judged").get<std::map<std::string, std::int64_t>>();
    s.runs_reaching = j.at("runs_reaching").get<std::map<std::string, std::int64_t>>();
    s.calls_histogram = j.at("calls_histogram").get<Histogram>();
    s.sim_ms_histogram = j.at("sim_ms_histogram").get<Histogram>();
    for (const auto& r : j.at("longest_runs")) s.longest_runs.push_back(parse_coverage(r));
    for (const auto& r : j.at("sample_runs")) s.sample_runs.push_back(parse_coverage(r));
    if (j.contains("failure")) {
      const auto& f = j["failure"];
      s.failure = FailureSummary{f.at("run").get<int>(),
                                 f.at("invariant").get<std::string>(),
                                 f.at("facts").get<std::string>(),
                                 f.at("shrink_steps").get<int>(),
                                 f.at("shrink_tries").get<int>(),
                                 f.at("original_calls").get<std::int64_t>(),
                                 f.at("shrunk_calls").get<std::int64_t>()};
    }
    if (j.contains("per_run")) {
      for (const auto& r : j["per_run"]) s.per_run.push_back(parse_coverage(r));
    }
    return s;
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

MergeResult merge_shards(const std::vector<ShardInput>& shards) {
  MergeResult out;
  if (shards.empty()) {
    out.error = "no shard directories given";
    return out;
  }
  for (const auto& in : shards) {
    if (!in.summary.shard) {
      out.error = in.dir + ": not a shard (campaign.json has no \"shard\"; run campaign with --shard I/N)";
      return out;
    }
  }
  const CampaignSummary& first = shards.front().summary;
  const int count = first.shard->second;
  std::vector<const ShardInput*> by_index(static_cast<std::size_t>(std::max(count, 0)), nullptr);
  for (const auto& in : shards) {
    const auto& s = in.summary;
    if (s.seed != first.seed || s.runs != first.runs || s.faults != first.faults ||
        s.determinism_every != first.determinism_every || s.differential != first.differential ||
        s.shard->second != count) {
      auto kind = [](const CampaignSummary& c) {
        return c.differential.empty() ? std::string() : "differential on " + c.differential + ", ";
      };
      out.error = in.dir + ": shard " + shard_name(s.shard->first, s.shard->second) +
                  " of another campaign (" + kind(s) + "seed " + std::to_string(s.seed) + ", " +
                  std::to_string(s.runs) + " runs) than " + shards.front().dir + " (" + kind(first) + "seed " +
                  std::to_string(first.seed) + ", " + std::to_string(first.runs) + " runs, shard " +
                  shard_name(first.shard->first, count) + ")";
      return out;
    }
    const int index = s.shard->first;
    if (index < 0 || index >= count) {
      out.error = in.dir + ": shard " + shard_name(index, count) + " is out of range";
      return out;
    }
    auto& slot = by_index[static_cast<std::size_t>(index)];
    if (slot != nullptr) {
      out.error = in.dir + ": shard " + shard_name(index, count) + " given twice (also " + slot->dir + ")";
      return out;
    }
    slot = &in;
  }
  for (int index = 0; index < count; ++index) {
    if (by_index[static_cast<std::size_t>(index)] == nullptr) {
      out.error = "shard " + shard_name(index, count) + " is missing (the directories given: " +
                  std::to_string(shards.size()) + " of " + std::to_string(count) + ")";
      return out;
    }
  }
  // Each shard's runs must be exactly its own, in order, up to its failure or the end.
  std::vector<Coverage> all;
  int stop = first.runs;  // the campaign's first failing run
  const ShardInput* failing = nullptr;
  for (const ShardInput* in : by_index) {
    const auto& s = in->summary;
    const int index = s.shard->first;
    int expect = index;
    for (const auto& r : s.per_run) {
      if (r.run != expect || r.run >= s.runs) {
        out.error = in->dir + ": shard " + shard_name(index, count) + " lists run " + std::to_string(r.run) +
                    " where run " + std::to_string(expect) + " belongs";
        return out;
      }
      expect += count;
      all.push_back(r);
      if (r.failed) break;
    }
    const bool ends_failed = !s.per_run.empty() && s.per_run.back().failed;
    if (ends_failed != s.failure.has_value() ||
        (s.failure && s.failure->run != s.per_run.back().run)) {
      out.error = in->dir + ": shard " + shard_name(index, count) +
                  ": its failure and its list of runs disagree";
      return out;
    }
    if (!ends_failed && expect < s.runs) {
      out.error = in->dir + ": shard " + shard_name(index, count) + " is incomplete: it stops before run " +
                  std::to_string(expect) + " of " + std::to_string(s.runs);
      return out;
    }
    if (s.failure && s.failure->run < stop) {
      stop = s.failure->run;
      failing = in;
    }
  }
  std::sort(all.begin(), all.end(), [](const Coverage& a, const Coverage& b) { return a.run < b.run; });
  std::vector<Coverage> kept;
  for (const auto& r : all) {
    if (r.run > stop) break;
    kept.push_back(r);
  }
  CampaignSummary merged;
  merged.seed = first.seed;
  merged.runs = first.runs;
  merged.faults = first.faults;
  merged.determinism_every = first.determinism_every;
  merged.differential = first.differential;
  fold(merged, kept);
  if (failing != nullptr) {
    merged.failure = failing->summary.failure;
    out.failure_dir = failing->dir;
  }
  out.merged = std::move(merged);
  return out;
}

}  // namespace trafikey::properties
