// RunResult: what running one scenario gave, whichever server ran it (the simulated one,
// scenarios/runner/run_sim.h, or a real one, scenarios/runner/run_real.h).
//
// A run walks the steps in order and stops at the first step whose expectation does not
// hold; that step is the failure, quoted with its source line, what the file expected and
// what the server gave. Besides its status a run keeps what the differential check
// (differential.h) compares: every call with its reply, and the final keyspace of the
// scenario's keys (run_id values in the sim's spelling, see there).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/host.h"
#include "core/invariants.h"
#include "core/reply.h"
#include "properties/checker.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/write.h"  // field_list, id_list: how both runners print a check

namespace trafikey::scenario {

struct StepFailure {
  int line = 0;           // 1-based source line of the step (0: not from a file)
  std::string step;       // the step as write_step prints it
  std::string expected;   // in scenario notation
  std::string actual;
  std::string invariant;  // `check invariants`: the id of the first broken invariant
};

// One call as the server answered it (the reply even when the client lost it).
struct CallTrace {
  int line = 0;
  std::string client;
  std::vector<std::string> argv;
  Reply reply = Reply::nil();
  bool lost = false;
};

// A key's value as a server holds it: what both runners read back at the end.
struct KeyValue {
  KeyType type = KeyType::none;
  std::string value;                                       // string
  std::vector<std::pair<std::string, std::string>> items;  // hash: field, value (any order);
                                                           // zset: member, score text, by rank
};

struct RunResult {
  CheckStatus status = CheckStatus::passed;        // passed, failed or skipped
  std::optional<StepFailure> failure;  // when failed
  std::string skip_reason;             // when skipped
  std::vector<CallTrace> calls;        // in order, up to the failure
  // Final keyspace of the scenario's keys, run_id values in the sim's spelling
  // (differential.h normalises the rest when it compares).
  std::map<std::string, KeyValue> final_keys;
  // The server's clock read the sim's server time at every step: always on the sim; on a
  // real server the runner started, whose clock it holds there (run_real.h).
  bool clocks_agree = false;
  // Every broken invariant seen, in order. On the sim, the checker's violations; on a real
  // server (no call index, no history) call and history_line are 0, true_ms is the step's
  // time and facts the whole line: "ID (line N, t=T, real server): what".
  std::vector<properties::Violation> violations;
  std::map<std::string, std::int64_t> judged;  // invariant id -> times judged
  // Parts of rules the server could not let the runner judge, by invariant id, as the
  // judge names them (a real server: no ledger of each job's history). Empty on the sim.
  std::map<std::string, std::vector<std::string>> unjudged;
  std::string history;                         // the sim's history (JSON Lines); real: empty
  int incarnations = 0;                        // server processes the run started
};

// "FILE:LINE: failed: STEP\n  expected: E\n  actual:   A\n" (and the invariant when set).
std::string describe_failure(std::string_view file, const StepFailure& failure);

}  // namespace trafikey::scenario
