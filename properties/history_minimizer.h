// The history minimizer: a failing run as scenario steps (calls, faults, operator
// actions), cut down to a set of steps whose replay on the simulator still breaks the
// SAME invariant first, and from which no single step can be removed (1-minimal).
//
// Plan shrinking (RapidCheck's, the campaign's) makes the plan smaller; it cannot drop
// one call from the history a plan produced, so idle polls, extra workers and repeated
// faults survive it. This runs after it, on the steps themselves, in passes:
//   cut      everything after the step at which the invariant broke
//   idle     every CLAIM that got nothing, at once; every fault repeating the step before it
//   actors   each client's calls (and `lose`s) at once; then each client renamed to the first
//   ddmin    delta debugging (Zeller's ddmin: chunks and their complements)
//   single   one step at a time, to a fixpoint
//   times    each gap between steps closed, or rounded down to 1000/100/10 ms (the steps
//            after it move with it), then `single` again
//   pair     below 24 steps, two steps at a time (then `single` again), to a fixpoint: a
//            step that matters only through another (a CLAIM and the ADD it took) goes
// A candidate is kept when its replay breaks the invariant, and first (the checker's
// first violation, as a run stops at it), and at that call every other invariant the
// input's first failing call broke (`Minimized::required`): a step gone that keeps the
// invariant but loses the model's verdict has made another failure, not a smaller one. While steps go the replies of later steps
// change, so candidates are replayed without comparing replies; the result is then
// re-recorded: replayed once more and written with every reply spelled out, so the file
// replays with every reply matching and fails at its final `check invariants`.
//
// Deterministic: the same input gives the same file. Bounded by a number of replays
// (`replay_budget`), not by time; a result cut short by it says so (`one_minimal` false).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "properties/checker.h"
#include "properties/failure_file_names.h"
#include "properties/scenario_export.h"
#include "sim/scenario/scenario.h"

namespace trafikey::properties {

struct MinimizeOptions {
  std::string invariant;      // the one to keep; empty: the first the input breaks
  int replay_budget = 20000;  // candidate replays, at most
  // named in the minimal run's history header
  std::string file_name = failure_file_name(minimal_failure_name, FailureFile::scenario);
  // Called after every candidate replay (may be empty): replays so far, steps kept, pass.
  std::function<void(int, std::size_t, const char*)> progress;
};

struct Minimized {
  bool failing = false;       // the input breaks an invariant (`invariant`) on the sim
  std::string invariant;
  std::string error;          // when !failing, or the re-recording did not replay: why
  scenario::Scenario scenario;  // the minimal, re-recorded (replies exact, ends with check invariants)
  std::string text;             // it as a `.scn` file
  std::string history;          // its replay's history (what `trafikey-sim scenario` records)
  std::vector<Violation> violations;  // of the minimal replay
  std::vector<std::string> required;  // every invariant the input broke at its first failing call
  std::size_t steps_before = 0, steps_after = 0;  // action steps (checks not counted)
  std::int64_t calls_before = 0, calls_after = 0;
  int replays = 0;
  bool one_minimal = false;  // every pass ran to its end within the budget
};

// The invariant a scenario's steps break first on the sim, replies not compared and the
// file's own checks ignored (a final `check invariants` judges the whole keyspace once
// more); nullopt when none breaks. `steps_run` (optional): how many steps ran before it
// broke (the breaking step included).
std::optional<std::string> first_broken_invariant(const scenario::Scenario& scenario,
                                                  std::size_t* steps_run = nullptr);

// Whether a scenario's steps break `invariant` first and, at that call, every one of
// `required` (sorted): the minimizer's test of "still the same failure".
bool breaks_the_same(const scenario::Scenario& scenario, const std::string& invariant,
                     const std::vector<std::string>& required);

Minimized minimize_scenario(const scenario::Scenario& failing, const MinimizeOptions& options);

// A test of "still the same failure" for any failure: how many action steps of the
// candidate ran up to it, the failing one included (the rest is cut), or nullopt when the
// candidate does not fail so. The candidate's steps keep the lines they had in the input
// (steps built in code: 0), so a test may name the step it fails at by its line.
using SameFailure = std::function<std::optional<std::size_t>(const scenario::Scenario&)>;

struct MinimalSteps {
  bool failing = false;  // the input failed so to begin with
  std::string error;     // when !failing: why
  std::vector<scenario::Step> steps;  // the minimal action steps (check steps never kept)
  int replays = 0;       // tests made, the input's own included
  int accepted = 0;      // candidates kept
  bool one_minimal = false;  // every pass ran to its end within options.replay_budget
};

// The same passes as minimize_scenario with another test of the same failure: a
// divergence between the sim and a real server (scenarios/runner/minimize_divergence.h).
// `replies`: those of the input's calls, in order (for the pass that drops CLAIMs that got
// nothing; empty: no such pass). The steps are not re-recorded: record_scenario does that.
MinimalSteps minimize_steps(const scenario::Scenario& failing, const SameFailure& same, std::vector<Reply> replies,
                            const MinimizeOptions& options);

// `draft` replayed on the sim with its history kept, and written back as a scenario with
// every reply spelled out, cut after its first violation when it breaks one (what the
// minimizers write); `history` (may be null) gets the replay's history. nullopt and `why`
// when it does not write back.
std::optional<ExportedScenario> record_scenario(const scenario::Scenario& draft, const std::string& file_name,
                                                std::string* history, std::string* why);

// A history (a generated run's or a scenario run's, history.h) exported as a scenario
// (scenario_export.h), then minimized. !failing with `error` when it does not export.
Minimized minimize_history(const std::string& history_text, const MinimizeOptions& options);

}  // namespace trafikey::properties
