// The differential check (shared spec INVARIANTS sim.differential): one scenario run on
// the simulated server and on a real server with the module must give the same replies
// and the same final keyspace, once run_id values are mapped.
//
// What is normalised, and nothing else:
//   - run_id values. Each server process has its own run_id (the sim draws them from the
//     seed, a real server makes its own). The real runner rewrites every reply and every
//     row value equal to the run_id of its incarnation N into the sim's run_id of
//     incarnation N (`RunIdMap`), so EMQ.EPOCH replies, `lease_epoch` in EMQ.JOB/HGETALL
//     replies and in rows compare byte for byte, incarnation by incarnation.
//   - Scores that are server times, only when the two clocks do not agree: the scores of
//     `emq:{q}:active` (lease deadlines), `:done` (completion ms) and `:dead` (death ms).
//     A server the runner starts (--server-bin) runs on the sim's clock (run_real.h: its
//     wall clock is held at the sim's server time at every step), so they compare exactly.
//     A running server's clock (--server) is Unix time in ms and the sim's starts at 0:
//     then those three sets are compared as member sets (sorted by member bytes) without
//     scores, and a plain ZSCORE or ZRANGE ... WITHSCORES reply on them has its scores
//     replaced by "<server time>" (ZRANGE's pairs then sorted by member). `pending` scores
//     (INCR seq order, or 0 for a recovered job) and every other zset are compared with
//     scores, in order.
// Everything else compares exactly: every reply (kind, bytes, integers, array order), and
// every string, hash (fields sorted by name) and zset of the scenario's keys.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/host.h"
#include "core/reply.h"
#include "scenarios/runner/run_result.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

// The keys whose final values are compared: every key of each queue an EMQ call names
// (prefix "emq:{q}:") and every key a plain command names.
struct ScenarioKeys {
  std::set<std::string> queues;
  std::set<std::string> plain_keys;

  // Both servers' clocks read the same server time at every step (RunResult::clocks_agree):
  // then time-scored sets compare with their scores too.
  bool clocks_agree = false;

  bool wanted(std::string_view key) const;
  // True for `emq:{q}:active`, `:done` and `:dead` of a scenario queue.
  bool time_scored(std::string_view key) const;
  // A time-scored key whose scores are not compared: the clocks do not agree.
  bool scores_hidden(std::string_view key) const { return !clocks_agree && time_scored(key); }
};
ScenarioKeys scenario_keys(const Scenario& scenario);

// One line per key, e.g. `hash attempts="1" state="active"` or `zset "j1":1 "j2":2` or,
// for a time-scored set, `zset (server-time scores) "j1" "j2"`. Off the sim's clock a row's
// `lease` (EMQ §8: `<run_id>-<n>`, n above the server's time at the module's load) shows
// `<run_id>-(server-time number)`, as replies that carry a grant id or a wire 2 token do.
std::string normalised_key_text(std::string_view key, const KeyValue& value,
                                const ScenarioKeys& keys);

// A call's reply with the scores of time-scored sets replaced when the clocks do not
// agree (see the header comment).
Reply normalised_reply(const CallTrace& call, const ScenarioKeys& keys);

// Real run_id of incarnation N -> the sim's run_id of incarnation N.
class RunIdMap {
 public:
  void add(std::string real_run_id, std::string sim_run_id);
  std::string map(const std::string& value) const;
  // The other way, for what a client sends: a sim run_id that is a whole argument (a stamp
  // written by hand), or in a grant id or a wire 2 token (EMQ §8, between dashes), as the
  // real server's of the same incarnation.
  std::string to_real(const std::string& value) const;
  Reply map(const Reply& reply) const;

 private:
  std::vector<std::pair<std::string, std::string>> pairs_;
};

// A real server's reply with the error texts in which the servers differ for the same
// refusal given in the sim's words (Redis 7.0's), so one expectation and the differential
// check hold on either: today only EVALSHA's NOSCRIPT, which Valkey 8 answers without
// Redis' "Please use EVAL." (sim::noscript_error). Only whole error texts listed here
// change, at any depth of an array; everything else, and every EMQ error, is as sent.
Reply in_sim_wording(const Reply& reply);

// Where the two runs of one scenario first differ: a call's reply (by the call's source
// line) or, once every reply agreed, a key of the final keyspace (normalised_key_text).
struct Difference {
  int line = 0;      // the call's source line; 0 for the final keyspace
  std::string what;  // "the reply" or "final key \"emq:{q}:job:j1\""
  std::string sim;   // the sim's side, in scenario notation or normalised key text
  std::string real;  // the real server's side ("(none)" when it has no such call or key)
};
std::optional<Difference> first_difference(const RunResult& sim, const RunResult& real,
                                           const ScenarioKeys& keys);

}  // namespace trafikey::scenario
