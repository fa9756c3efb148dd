// A mutant's self-test: run the campaign (the same generators and checker as the
// properties) against a deliberately wrong core and require that it is caught within the
// budget, by the invariant it targets, and shrunk to a short history. "Caught by" means:
// the declared invariant breaks at the call where the run first breaks anything (two
// invariants may judge the same wrong reply; one that breaks only later, or not at all,
// says the suite found the mutant by luck, or that the declared target is wrong). Built
// once per mutant by mutants/CMakeLists.txt.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "properties/campaign.h"
#include "properties/checked_run.h"

#if !defined(TRAFIKEY_MUTANT) || !defined(TRAFIKEY_MUTANT_INVARIANT)
#error "build through properties/mutants/CMakeLists.txt"
#endif

int main(int argc, char** argv) {
  int runs = 300;
  long long calls_max = 40;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    else if (flag == "--calls-max") calls_max = std::atoll(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: %s [--runs N] [--calls-max C]\n", argv[0]);
      return 2;
    }
  }
  trafikey::properties::CampaignOptions options;
  options.runs = runs;
  options.seed = 20261129;  // the properties' CI seed
  options.determinism_every = 0;
  const auto result = trafikey::properties::run_campaign(options, {});
  if (!result.failure) {
    std::printf("mutant %s: NOT CAUGHT in %d runs\n", TRAFIKEY_MUTANT, result.passed);
    return 1;
  }
  const auto& f = *result.failure;
  const auto rerun = trafikey::properties::run_checked(f.shrunk, true);
  long long lines = 0;
  for (char c : rerun.summary.history) lines += c == '\n';
  std::printf("mutant %s: caught by %s in run %d (%d runs needed)\n  %s\n"
              "  shrunk in %d steps (%d candidates): %lld -> %lld calls, %zu -> %zu faults, "
              "%d -> %d jobs, %lld history lines\n",
              TRAFIKEY_MUTANT, f.invariant.c_str(), f.run, f.run + 1,
              f.violations.front().describe().c_str(), f.shrink_steps, f.shrink_tries,
              static_cast<long long>(f.original_calls), static_cast<long long>(f.shrunk_calls),
              f.original.faults.size(), f.shrunk.faults.size(), f.original.jobs, f.shrunk.jobs, lines);
  // The declared invariant must break at the first failing call of the shrunk run.
  const auto& broken = rerun.violations;
  const std::int64_t first_call = broken.empty() ? -1 : broken.front().call;
  const auto it = std::find_if(broken.begin(), broken.end(), [&](const auto& v) {
    return v.call == first_call && v.invariant == TRAFIKEY_MUTANT_INVARIANT;
  });
  if (it == broken.end()) {
    std::printf("  caught by %s, but it targets %s, which does not break at that call "
                "(properties/mutants/CMakeLists.txt)\n",
                f.invariant.c_str(), TRAFIKEY_MUTANT_INVARIANT);
    return 1;
  }
  if (f.invariant != TRAFIKEY_MUTANT_INVARIANT) {
    std::printf("  and at the same call by %s\n", it->describe().c_str());
  }
  if (f.shrunk_calls > calls_max) {
    std::printf("  the shrunk history is longer than %lld calls\n", calls_max);
    return 1;
  }
  return 0;
}
