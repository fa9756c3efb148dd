// A mutant's self-test: run the campaign (the same generators and checker as the
// properties) against a deliberately wrong core and require that it is caught within the
// budget, by the invariant it targets, and shrunk to a short history: the plan shrunk (the
// campaign's shrinker), then its history minimized (history_minimizer.h) to at most
// --calls-max calls, 1-minimal (each single step removed, the replay no longer breaks the
// invariant first: checked here, one replay per step). "Caught by" means:
// the declared invariant breaks at the call where the run first breaks anything (two
// invariants may judge the same wrong reply; one that breaks only later, or not at all,
// says the suite found the mutant by luck, or that the declared target is wrong). Built
// into every mutant by mutants/CMakeLists.txt.
#include <algorithm>
#include <filesystem>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "core/args.h"
#include "properties/campaign.h"
#include "properties/checked_run.h"
#include "properties/failure_files.h"
#include "properties/history_minimizer.h"

// Which mutant this binary is, and the invariant that must catch it: defined in a
// one-line source that mutants/CMakeLists.txt writes per mutant, so that this file is
// compiled once for all of them.
extern const char* const trafikey_mutant_name;
extern const char* const trafikey_mutant_invariant;
#define TRAFIKEY_MUTANT trafikey_mutant_name
#define TRAFIKEY_MUTANT_INVARIANT trafikey_mutant_invariant

namespace {
const char* const usage =
    "usage: %s [--runs N] [--calls-max C] [--seed S] [--reach]\n"
    "  the self-test: a campaign of N runs (default 300) with seed S (default the properties'\n"
    "  CI seed, 20261129) must catch this mutant by its declared invariant at the first call\n"
    "  that breaks anything, shrink it, and minimize its history to at most C calls\n"
    "  (default 8), 1-minimal.\n"
    "  --reach: only the catch, neither shrunk nor minimized (reach.sh runs it over seeds):\n"
    "  exit 0 when caught, saying whether its first failing call broke the declared invariant\n";

// A decimal number within [lo, hi] (the core's own parser), or nullopt.
std::optional<long long> number(const char* text, long long lo, long long hi) {
  const auto n = text ? trafikey::parse_int64(text) : std::nullopt;
  if (!n || *n < lo || *n > hi) return std::nullopt;
  return *n;
}
}  // namespace

int main(int argc, char** argv) {
  int runs = 300;
  long long calls_max = 8;
  std::uint64_t seed = 20261129;  // the properties' CI seed
  bool reach = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::printf(usage, argv[0]);
      return 0;
    }
    if (flag == "--reach") {
      reach = true;
      continue;
    }
    long long hi = 0;
    if (flag == "--runs") hi = 100000000;
    else if (flag == "--calls-max") hi = 1000000;
    else if (flag == "--seed") hi = std::numeric_limits<long long>::max();
    else {
      std::fprintf(stderr, "%s: unknown argument '%s'\n", argv[0], flag.c_str());
      std::fprintf(stderr, usage, argv[0]);
      return 2;
    }
    const char* value = i + 1 < argc ? argv[++i] : nullptr;
    const auto n = number(value, flag == "--seed" ? 0 : 1, hi);
    if (!n) {
      std::fprintf(stderr, "%s: %s needs a whole number from %d to %lld, got '%s'\n", argv[0], flag.c_str(),
                   flag == "--seed" ? 0 : 1, hi, value ? value : "(nothing)");
      return 2;
    }
    if (flag == "--runs") runs = static_cast<int>(*n);
    else if (flag == "--calls-max") calls_max = *n;
    else seed = static_cast<std::uint64_t>(*n);
  }
  trafikey::properties::CampaignOptions options;
  options.runs = runs;
  options.seed = seed;
  options.determinism_every = 0;
  if (reach) options.shrink_budget = 0;
  const auto result = trafikey::properties::run_campaign(options, {});
  if (!result.failure) {
    std::printf("mutant %s: NOT CAUGHT in %d runs\n", TRAFIKEY_MUTANT, result.passed);
    return 1;
  }
  if (reach) {
    // the run as generated: the declared invariant among what its first failing call broke
    const auto& f = *result.failure;
    const auto& v = f.violations;
    const bool declared = std::any_of(v.begin(), v.end(), [&](const auto& x) {
      return x.call == v.front().call && x.invariant == TRAFIKEY_MUTANT_INVARIANT;
    });
    std::printf("mutant %s: seed %llu: caught by %s in run %d (%d runs needed)%s\n", TRAFIKEY_MUTANT,
                static_cast<unsigned long long>(seed), f.invariant.c_str(), f.run, f.run + 1,
                declared ? "" : ", which is not the declared invariant at that call");
    return 0;
  }
  const auto& f = *result.failure;
  const auto rerun = trafikey::properties::run_checked(f.shrunk, true);
  long long lines = 0;
  for (char c : rerun.summary.history) lines += c == '\n';
  std::printf("mutant %s: caught by %s in run %d (%d runs needed)\n  %s\n"
              "  shrunk in %d steps (%d candidates): %lld -> %lld calls, %zu -> %zu faults, "
              "%d -> %d jobs, %lld history lines\n",
              TRAFIKEY_MUTANT, f.invariant.c_str(), f.run, f.run + 1,
              f.violations.front().describe_line().c_str(), f.shrink_steps, f.shrink_tries,
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
    std::printf("  and at the same call by %s\n", it->describe_line().c_str());
  }
  // The checker judges after a call what it touched, at a later start what the rollback
  // took back, and every job only at the first start and the end: the same run judged whole
  // at every start and phase boundary must break first at the same call, the same way.
  trafikey::properties::Checker whole(true, true);
  const auto scanned = trafikey::properties::run_checked(f.shrunk, true, whole);
  if (scanned.violations.empty() || scanned.violations.front().call != first_call ||
      scanned.violations.front().invariant != broken.front().invariant) {
    std::printf("  judged whole at every start and phase, the shrunk run breaks otherwise: %s\n",
                scanned.violations.empty() ? "nothing" : scanned.violations.front().describe_line().c_str());
    return 1;
  }
  // The history minimized after the plan's shrinking, and proved 1-minimal.
  // Through the failure files, as a property or a campaign writes them (failures/NAME.*
  // in the working directory, or $TRAFIKEY_FAILURES).
  const auto files = trafikey::properties::write_failure(f.shrunk, trafikey::properties::failure_dir(),
                                                         TRAFIKEY_MUTANT, f.violations);
  const auto& minimal = files.minimized;
  const double seconds = files.minimize_seconds;
  if (!files.minimize_error.empty() || !files.error.empty()) {
    std::printf("  the history does not minimize: %s%s\n", files.minimize_error.c_str(), files.error.c_str());
    return 1;
  }
  for (const auto& path : {files.scenario_path, files.history_path, files.original_history_path, files.plan_path}) {
    if (!std::filesystem::exists(path)) {
      std::printf("  failure file missing: %s\n", path.c_str());
      return 1;
    }
  }
  std::printf("  calls %lld -> %lld (plan shrink) -> %lld (history minimized: %zu -> %zu steps, "
              "%d replays, %.2f s)\n%s",
              static_cast<long long>(f.original_calls), static_cast<long long>(f.shrunk_calls),
              static_cast<long long>(minimal.calls_after), minimal.steps_before, minimal.steps_after,
              minimal.replays, seconds, minimal.text.c_str());
  const auto& mv = minimal.violations;
  const bool declared_first = std::any_of(mv.begin(), mv.end(), [&](const auto& v) {
    return v.call == mv.front().call && v.invariant == TRAFIKEY_MUTANT_INVARIANT;
  });
  if (!declared_first) {
    std::printf("  the minimal history breaks %s first, not %s\n", mv.front().invariant.c_str(),
                TRAFIKEY_MUTANT_INVARIANT);
    return 1;
  }
  if (!minimal.one_minimal) {
    std::printf("  the replay budget ran out before the history was 1-minimal\n");
    return 1;
  }
  // 1-minimal, by test: each single action step removed, the failure is gone.
  const auto& steps = minimal.scenario.steps;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (std::holds_alternative<trafikey::scenario::CheckInvariants>(steps[i].action)) continue;
    auto fewer = minimal.scenario;
    fewer.steps.erase(fewer.steps.begin() + static_cast<std::ptrdiff_t>(i));
    if (trafikey::properties::breaks_the_same(fewer, f.invariant, minimal.required)) {
      std::printf("  not 1-minimal: without step %zu (line %d) it still breaks %s\n", i + 1, steps[i].line,
                  f.invariant.c_str());
      return 1;
    }
  }
  if (minimal.calls_after > calls_max) {
    std::printf("  the minimal history is longer than %lld calls\n", calls_max);
    return 1;
  }
  return 0;
}
