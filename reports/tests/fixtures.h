// Histories the report tests render: one written step by step on a World (the seed's
// "one lease across a restart"), and generated runs (sim/run.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report.h"
#include "sim/plan.h"

namespace trafikey::reports::testing {

// Two jobs claimed under incarnation 1, then a restart. j1's worker extends after the
// restart (the stamp moves to incarnation 2) and dies: its expiry is counted and, at
// max_stalled 1, dead-letters it; its late COMPLETE gets 0. j2 is never extended: its
// expiry crossed the restart and goes back uncounted (exempt), is claimed again and done.
std::string crossed_restart_then_extended();

// j1 claimed with WIRE 2 (EMQ §8), extended and completed with its wire 2 token, then
// completed again with it (answered 0); j2 claimed on wire 1 and completed. `token`: the
// wire 2 token the CLAIM handed out, as its reply says.
struct Wire2Run {
  std::string history, token;
};
Wire2Run claimed_on_wire_2();

// A generated run (persistence always) with the given fault kinds.
std::string generated_run(std::uint64_t seed, const std::vector<sim::FaultKind>& faults);

// A generated run (restarts and worker deaths) whose history has a restart, a lease
// grant and a sweep verdict.
std::string generated_run_with_restart();

ReportInput input(const std::string& name, const std::string& history);

// Lines of `text` (no trailing empty line).
std::vector<std::string> lines_of(const std::string& text);

// How often `needle` occurs in `haystack`.
std::size_t occurrences(const std::string& haystack, const std::string& needle);

// Independent of the reports library: lease grants (CLAIM reply entries) in a history.
std::size_t claim_grants(const std::string& history);

// A test that needs an external tool (chromium, Graphviz's dot) and did not find it fails:
// dev.sh installs both, and a test that skipped would count as passed in CI without having
// run. It skips only where the developer's environment says so: TRAFIKEY_ALLOW_MISSING_TOOLS
// lists the tool (comma-separated, e.g. "chromium,dot").
bool missing_tool_allowed(std::string_view tool);
std::string missing_tool_message(std::string_view tool, std::string_view install);

}  // namespace trafikey::reports::testing

// In a test body: when `found` is false, skips if TRAFIKEY_ALLOW_MISSING_TOOLS lists
// `tool`, else fails, saying how to install it or to allow its absence.
#define TRAFIKEY_REQUIRE_TOOL(found, tool, install)                                                     \
  do {                                                                                                \
    if (found) break;                                                                                 \
    if (::trafikey::reports::testing::missing_tool_allowed(tool)) {                                   \
      GTEST_SKIP() << tool << " is not installed; skipped: TRAFIKEY_ALLOW_MISSING_TOOLS lists it";    \
    }                                                                                                 \
    FAIL() << ::trafikey::reports::testing::missing_tool_message(tool, install);                      \
  } while (0)

namespace trafikey::reports::testing {

}  // namespace trafikey::reports::testing
