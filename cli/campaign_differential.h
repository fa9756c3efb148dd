// `trafikey-sim campaign --differential --server-bin BIN` (issue 33): generated runs, each
// run on the sim and, as the same steps, on a real server with the module that the command
// starts for it; every reply and the final keyspace must agree (run_ids and grant ids
// mapped, as `scenario --differential` maps them), and the real run's own checks hold.
//
// Each run: its plan (the campaign's, properties/campaign.h campaign_plan), its history
// on the sim, that history exported as a scenario (properties/scenario_export.h: every call
// with its reply, every fault a step), and the scenario run by scenarios/runner's
// run_differential. What the real runner cannot do is left out of the plan space by name
// (the summary lists it), never dropped from a run: a run whose scenario the runner would
// skip is a failure.
//
// A failure is a failure like any other campaign's: the lowest failing run's divergence is
// shrunk (scenarios/runner/minimize_divergence.h: the sim and the server still disagree at
// the same step), written as OUT/failure.scn (the run as exported: failure.original.scn,
// its plan failure.plan.json, the minimal file's sim history failure.history.jsonl) with
// the `scenario --differential` command that reproduces it; OUT/campaign.json is the
// campaign's summary (properties/campaign_summary.h: shards merge), and --report and
// --junit write the dashboard and JUnit from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace trafikey::cli {

struct DifferentialCampaign {
  int runs = 100;
  std::uint64_t seed = 1;
  int parallel = 1;                              // runs at once, each on its own server
  std::optional<std::pair<int, int>> shard;      // I/N: the runs i with i % N == I
  std::string out;                               // OUT/differential.json, the failure's files
  std::string faults;                            // --faults, as the campaign takes it
  std::string server_bin;                        // valkey-server / redis-server
  std::string module_path;                       // trafikey.so (empty: the one built with this binary)
  int shrink_budget = 1000;                      // the divergence minimizer's tests (0: none)
  std::string report;                            // --report OUT.html (and OUT.md), may be empty
  std::string junit;                             // --junit FILE, may be empty
};

// Runs it, prints progress and a summary; the exit status (0 all agreed, 1 a run failed,
// 2 a bad argument, named).
int run_differential_campaign(const DifferentialCampaign& args);

}  // namespace trafikey::cli
