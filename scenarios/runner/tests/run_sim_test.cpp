// The scenario runner on the simulated server (run_sim.h), the differential check's
// normalisation (differential.h), and replay files (properties/scenario_export.h): a
// generated run exported as a scenario replays with every reply matching.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "properties/scenario_export.h"
#include "sim/plan.h"
#include "sim/run.h"
#include "scenarios/runner/differential.h"
#include "scenarios/runner/run_real.h"
#include "sim/scenario/parse.h"
#include "scenarios/runner/run_sim.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {
namespace {

Scenario parse(const std::string& text) {
  auto parsed = parse_scenario(text, "test.scn");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : to_string(parsed.error()));
  return parsed.ok() ? parsed.value() : Scenario{};
}

RunResult run(const std::string& text, std::vector<properties::Violation>* violations = nullptr) {
  return run_on_sim(parse(text), {"test.scn", true}, violations);
}

constexpr const char* header = "scenario \"t\"\noption seed 1\n";

TEST(RunSim, passes_when_every_expectation_holds) {
  const RunResult r = run(std::string(header) +
                          "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                          "at 0 a: EMQ.CLAIM orders 1000 => [[j1 1 hello]]\n"
                          "at 0 check row orders j1 state=active stalled=-\n"
                          "at 0 check set orders active j1\n"
                          "at 0 check invariants\n");
  EXPECT_EQ(r.status, CheckStatus::passed);
  EXPECT_FALSE(r.failure);
  ASSERT_EQ(r.calls.size(), 2u);
  EXPECT_EQ(r.calls[1].line, 4);
  EXPECT_EQ(r.incarnations, 1);
  EXPECT_NE(r.history.find("\"kind\":\"scenario\""), std::string::npos);
  EXPECT_GT(r.judged.at("queue.conserve"), 0);
}

TEST(RunSim, the_first_failing_call_is_reported_with_line_expected_and_actual) {
  const RunResult r = run(std::string(header) +
                          "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                          "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                          "at 0 a: EMQ.ADD orders j2 hello => 0\n");
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->line, 4);
  EXPECT_EQ(r.failure->step, "at 0 a: EMQ.ADD orders j1 hello => 1");
  EXPECT_EQ(r.failure->expected, "1");
  EXPECT_EQ(r.failure->actual, "0");
  EXPECT_EQ(r.calls.size(), 2u) << "the run stops at the first failure";
  EXPECT_EQ(describe_failure("f.scn", *r.failure),
            "f.scn:4: failed: at 0 a: EMQ.ADD orders j1 hello => 1\n"
            "  expected: 1\n"
            "  actual:   0\n");
}

TEST(RunSim, a_row_check_names_every_field_it_checked) {
  const RunResult r = run(std::string(header) +
                          "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                          "at 0 check row orders j1 state=active stalled=- payload=hello\n");
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->expected, "state=active stalled=- payload=hello");
  EXPECT_EQ(r.failure->actual, "state=pending stalled=- payload=hello");

  const RunResult absent = run(std::string(header) + "at 0 check row orders j1 state=pending\n");
  EXPECT_EQ(absent.failure->actual, "no row: no such key");
  const RunResult all_absent = run(std::string(header) + "at 0 check row orders j1 state=-\n");
  EXPECT_EQ(all_absent.status, CheckStatus::passed);
}

TEST(RunSim, a_set_check_compares_members_in_order) {
  const RunResult r = run(std::string(header) +
                          "at 0 a: EMQ.ADD orders j2 x => 1\n"
                          "at 0 a: EMQ.ADD orders j1 x => 1\n"
                          "at 0 check set orders pending j2 j1\n"
                          "at 0 check set orders pending j1 j2\n");
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->line, 6);
  EXPECT_EQ(r.failure->expected, "[j1 j2]");
  EXPECT_EQ(r.failure->actual, "[j2 j1]");
}

TEST(RunSim, check_invariants_fails_naming_the_invariant_and_its_facts) {
  // A plain HSET corrupts the row behind the queue's back: pending, but says done.
  std::vector<properties::Violation> violations;
  const RunResult r = run(std::string(header) +
                              "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                              "at 0 op: HSET \"emq:{orders}:job:j1\" state done => 0\n"
                              "at 10 check invariants\n",
                          &violations);
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->line, 5);
  EXPECT_EQ(r.failure->invariant, "queue.conserve");
  EXPECT_EQ(r.failure->expected, "every invariant holds");
  EXPECT_NE(r.failure->actual.find("j1 is in pending but its row says state done"), std::string::npos)
      << r.failure->actual;
  ASSERT_FALSE(violations.empty());
  EXPECT_EQ(violations.front().invariant, "queue.conserve");
  ASSERT_FALSE(r.violations.empty());
  EXPECT_EQ(r.violations.front().invariant, "queue.conserve");
}

TEST(RunSim, a_lost_reply_is_matched_against_what_the_server_answered) {
  const RunResult r = run(std::string(header) +
                          "at 0 lose a\n"
                          "at 0 a: EMQ.ADD orders j1 hello => 0\n");
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->actual, "1 (the server's reply; a lost it and saw a timeout)");
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_TRUE(r.calls[0].lost);
}

TEST(RunSim, faults_are_world_steps) {
  // drift 2: a 400 ms lease runs out in 200 ms of true time; the restart is a new epoch.
  const RunResult r = run(std::string(header) +
                          "at 0 a: EMQ.ADD q j1 x => 1\n"
                          "at 0 drift 2\n"
                          "at 0 w: EMQ.CLAIM q 400 => [[j1 1 x]]\n"
                          "at 250 s: EMQ.STALLED.CHECK q 1 => [recovered [] dead [j1] ghosts [] lanes []]\n"
                          "at 250 clock -10000\n"
                          "at 250 restart\n"
                          "at 250 epoch malformed\n"
                          "at 250 failover\n"
                          "at 250 s: EMQ.EPOCH => _\n");
  EXPECT_EQ(r.status, CheckStatus::passed) << (r.failure ? describe_failure("", *r.failure) : "");
  EXPECT_EQ(r.incarnations, 3);
  ASSERT_EQ(r.calls.size(), 4u);
  EXPECT_EQ(r.calls[3].reply.kind(), Reply::Kind::error) << "no module after a malformed run_id";
  EXPECT_NE(r.history.find("\"fault\":\"clock_rate\",\"rate_per_mille\":2000"), std::string::npos);
}

// On the sim a step makes the server a replica or denies writes to a key (both sim-only:
// a real target skips the file); writing verbs meet the fence or the ACL, and writes
// nothing until `primary` / `allow`.
TEST(RunSim, replica_and_deny_steps_refuse_writes_on_the_sim) {
  const RunResult r = run(std::string(header) +
                          "at 0 replica\n"
                          "at 0 a: EMQ.ADD q j1 x => error \"READONLY EMQ not a writable primary\"\n"
                          "at 0 primary\n"
                          "at 0 deny \"emq:{q}:pending\"\n"
                          "at 0 a: EMQ.ADD q j1 x => error \"NOPERM EMQ no write access to emq:{q}:pending\"\n"
                          "at 0 check set q pending\n"
                          "at 0 allow\n"
                          "at 0 a: EMQ.ADD q j1 x => 1\n"
                          "at 0 check set q pending j1\n"
                          "at 0 check invariants\n");
  EXPECT_EQ(r.status, CheckStatus::passed) << (r.failure ? describe_failure("", *r.failure) : "");
  EXPECT_EQ(r.calls.size(), 3u);
}

TEST(RunSim, sim_run_ids_are_what_each_incarnation_answers) {
  const std::string steps = "at 0 a: EMQ.EPOCH\nat 1 restart\nat 1 a: EMQ.EPOCH\n";
  const std::vector<std::string> ids = sim_run_ids(parse(std::string(header) + steps));
  ASSERT_EQ(ids.size(), 3u);
  const RunResult r = run(std::string(header) + "at 0 a: EMQ.EPOCH => " + ids[1] + "\n"
                          "at 1 restart\n"
                          "at 1 a: EMQ.EPOCH => " + ids[2] + "\n");
  EXPECT_EQ(r.status, CheckStatus::passed);
  // a run_id the file gives is the one the sim's incarnation has
  const std::string given(40, 'e');
  const std::vector<std::string> pinned =
      sim_run_ids(parse(std::string(header) + "at 0 a: EMQ.EPOCH\nat 1 epoch " + given + "\nat 1 restart\n"));
  ASSERT_EQ(pinned.size(), 3u);
  EXPECT_EQ(pinned[1], ids[1]);
  EXPECT_EQ(pinned[2], given);
}

// ---- differential.h

TEST(Differential, keys_are_the_queues_and_the_plain_commands_keys) {
  const Scenario s = parse(std::string(header) +
                           "at 0 a: EMQ.ADD orders j1 x => 1\n"
                           "at 0 a: HSET plain f v\n"
                           "at 0 a: DEL k1 k2\n"
                           "at 0 check set other pending\n");
  const ScenarioKeys keys = scenario_keys(s);
  EXPECT_EQ(keys.queues, (std::set<std::string>{"orders", "other"}));
  EXPECT_EQ(keys.plain_keys, (std::set<std::string>{"plain", "k1", "k2"}));
  EXPECT_TRUE(keys.wanted("emq:{orders}:job:j1"));
  EXPECT_FALSE(keys.wanted("emq:{ord}:job:j1"));
  EXPECT_TRUE(keys.time_scored("emq:{orders}:active"));
  EXPECT_TRUE(keys.time_scored("emq:{orders}:done"));
  EXPECT_TRUE(keys.time_scored("emq:{orders}:dead"));
  EXPECT_FALSE(keys.time_scored("emq:{orders}:pending"));
}

TEST(Differential, time_scored_sets_compare_members_only_and_the_rest_exactly) {
  ScenarioKeys keys;
  keys.queues = {"q"};
  KeyValue active{KeyType::zset, {}, {{"j2", "1700000000100"}, {"j1", "1700000000200"}}};
  KeyValue sim_active{KeyType::zset, {}, {{"j1", "100"}, {"j2", "200"}}};
  EXPECT_EQ(normalised_key_text("emq:{q}:active", active, keys),
            normalised_key_text("emq:{q}:active", sim_active, keys));
  KeyValue pending{KeyType::zset, {}, {{"j1", "1"}, {"j2", "2"}}};
  KeyValue swapped{KeyType::zset, {}, {{"j2", "1"}, {"j1", "2"}}};
  EXPECT_NE(normalised_key_text("emq:{q}:pending", pending, keys),
            normalised_key_text("emq:{q}:pending", swapped, keys));
  KeyValue row{KeyType::hash, {}, {{"state", "active"}, {"attempts", "1"}}};
  EXPECT_EQ(normalised_key_text("emq:{q}:job:j1", row, keys), "hash attempts=\"1\" state=\"active\"");
}

TEST(Differential, when_the_clocks_agree_time_scored_sets_compare_with_their_scores) {
  ScenarioKeys keys;
  keys.queues = {"q"};
  keys.clocks_agree = true;
  KeyValue active{KeyType::zset, {}, {{"j1", "100"}, {"j2", "200"}}};
  KeyValue later{KeyType::zset, {}, {{"j1", "100"}, {"j2", "201"}}};
  EXPECT_EQ(normalised_key_text("emq:{q}:active", active, keys), "zset \"j1\":100 \"j2\":200");
  EXPECT_NE(normalised_key_text("emq:{q}:active", active, keys),
            normalised_key_text("emq:{q}:active", later, keys));
  const CallTrace zscore{3, "a", {"ZSCORE", "emq:{q}:done", "j1"}, Reply::bulk("150"), false};
  EXPECT_EQ(normalised_reply(zscore, keys), Reply::bulk("150"));
}

TEST(Differential, replies_differ_at_the_first_call_and_times_are_normalised) {
  ScenarioKeys keys;
  keys.queues = {"q"};
  RunResult sim, real;
  sim.calls = {{3, "a", {"ZSCORE", "emq:{q}:done", "j1"}, Reply::bulk("150"), false},
               {4, "a", {"EMQ.STATS", "q"}, Reply::integer(1), false}};
  real.calls = {{3, "a", {"ZSCORE", "emq:{q}:done", "j1"}, Reply::bulk("1700000000150"), false},
                {4, "a", {"EMQ.STATS", "q"}, Reply::integer(2), false}};
  const auto d = first_difference(sim, real, keys);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->line, 4);
  EXPECT_EQ(d->sim, "1");
  EXPECT_EQ(d->real, "2");

  real.calls[1].reply = Reply::integer(1);
  EXPECT_FALSE(first_difference(sim, real, keys));
  real.final_keys["emq:{q}:seq"] = KeyValue{KeyType::string, "1", {}};
  const auto key = first_difference(sim, real, keys);
  ASSERT_TRUE(key);
  EXPECT_EQ(key->line, 0);
  EXPECT_EQ(key->sim, "(none)");
}

TEST(Differential, run_ids_map_by_incarnation) {
  RunIdMap ids;
  ids.add("real1", "sim1");
  ids.add("real2", "sim2");
  const Reply job = Reply::array({Reply::bulk("lease_epoch"), Reply::bulk("real2"), Reply::bulk("state")});
  EXPECT_EQ(ids.map(job), Reply::array({Reply::bulk("lease_epoch"), Reply::bulk("sim2"), Reply::bulk("state")}));
  EXPECT_EQ(ids.map(std::string("real1")), "sim1");
  EXPECT_EQ(ids.map(std::string("real12")), "real12");
}

TEST(Differential, another_servers_wording_of_a_refusal_reads_as_the_sims) {
  // Valkey 8's NOSCRIPT, alone and inside an array, reads as the sim's (Redis 7.0's).
  const Reply valkey = Reply::error("NOSCRIPT No matching script.");
  EXPECT_EQ(in_sim_wording(valkey), Reply::error("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(in_sim_wording(Reply::array({Reply::integer(1), valkey})),
            Reply::array({Reply::integer(1), Reply::error("NOSCRIPT No matching script. Please use EVAL.")}));
  // Anything else is as sent: the sim's own text, other errors, the same words as a string.
  for (const Reply& as_sent : {Reply::error("NOSCRIPT No matching script. Please use EVAL."),
                               Reply::error("NOSCRIPT No matching script"), Reply::error("ERR EMQ bad job id"),
                               Reply::bulk("NOSCRIPT No matching script."),
                               Reply::simple("NOSCRIPT No matching script.")}) {
    EXPECT_EQ(in_sim_wording(as_sent), as_sent) << debug_string(as_sent);
  }
}

// ---- replay files

std::vector<sim::FaultKind> every_fault_kind() {
  return *sim::parse_fault_list("restart,failover,clock,death,pause,lost-reply,epoch,ghost,lane");
}

// A generated run, exported, replays on the sim with every reply as the run had it. This
// is the determinism of the persistence grid (sim/world.h): syncs do not depend on which
// instants the driver visits. Any divergence here is a bug to report, not to tolerate.
TEST(Export, a_generated_run_with_every_fault_kind_replays_reply_for_reply) {
  int runs = 0;
  std::map<std::string, std::int64_t> faults_seen;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (auto mode : {sim::Persistence::always, sim::Persistence::everysec, sim::Persistence::snapshot,
                      sim::Persistence::none}) {
      sim::PlanChoices choices;
      choices.seed = seed;
      choices.persistence = mode;
      choices.safety_ms = 6000;
      choices.fault_kinds = every_fault_kind();
      const sim::RunPlan plan = sim::draw_plan(choices);
      const sim::RunSummary summary = sim::run_plan(plan);
      for (const auto& [kind, n] : summary.faults) faults_seen[kind] += n;
      const std::string text = properties::export_scenario(summary.history, {}).value().text;
      ASSERT_FALSE(text.empty()) << "seed " << seed;
      auto parsed = parse_scenario(text, "export.scn");
      ASSERT_TRUE(parsed.ok()) << to_string(parsed.error());
      const RunResult r = run_on_sim(parsed.value(), {"export.scn", false});
      ASSERT_EQ(r.status, CheckStatus::passed)
          << "seed " << seed << ", persistence " << sim::persistence_name(mode) << "\n"
          << describe_failure("export.scn", *r.failure);
      // every call of the history is a step with its reply spelled out
      std::size_t calls = 0;
      for (const Step& step : parsed.value().steps) {
        if (const auto* call = std::get_if<Call>(&step.action)) {
          ++calls;
          ASSERT_TRUE(call->expect);
          EXPECT_NE(call->expect->kind, ReplyPattern::Kind::any);
        }
      }
      EXPECT_EQ(static_cast<std::int64_t>(calls), summary.calls);
      ++runs;
    }
  }
  EXPECT_EQ(runs, 160);
  for (auto kind : every_fault_kind()) {
    EXPECT_GT(faults_seen[std::string(sim::fault_name(kind))], 0) << sim::fault_name(kind) << " never ran";
  }
}

// The same with several queues: calls of q, q2 and q3 interleave, faults name jobs of
// each (ghosts, lane rows), and the replay still matches reply for reply.
TEST(Export, a_generated_run_with_several_queues_replays_reply_for_reply) {
  std::map<std::string, std::int64_t> faults_seen;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    sim::PlanChoices choices;
    choices.seed = seed;
    choices.queues = 2 + static_cast<int>(seed % 2);
    choices.persistence = seed % 3 == 0 ? sim::Persistence::everysec : sim::Persistence::always;
    choices.safety_ms = 6000;
    choices.fault_kinds = every_fault_kind();
    const sim::RunSummary summary = sim::run_plan(sim::draw_plan(choices));
    for (const auto& [kind, n] : summary.faults) faults_seen[kind] += n;
    ASSERT_NE(summary.history.find("\"EMQ.STALLED.CHECK\",\"q2\""), std::string::npos) << "seed " << seed;
    const std::string text = properties::export_scenario(summary.history, {}).value().text;
    ASSERT_FALSE(text.empty()) << "seed " << seed;
    auto parsed = parse_scenario(text, "export.scn");
    ASSERT_TRUE(parsed.ok()) << to_string(parsed.error());
    const RunResult r = run_on_sim(parsed.value(), {"export.scn", false});
    ASSERT_EQ(r.status, CheckStatus::passed) << "seed " << seed << "\n" << describe_failure("export.scn", *r.failure);
  }
  EXPECT_GT(faults_seen["row_delete"], 0);
  EXPECT_GT(faults_seen["lane_mark"], 0);
}

// A run whose row a plain HSET corrupts (pending, but says done): queue.conserve breaks,
// with no expectation and no `check invariants` in the file.
RunResult row_said_done(std::vector<properties::Violation>& violations) {
  return run(std::string(header) +
                 "at 0 a: EMQ.ADD orders j1 hello => 1\n"
                 "at 5 op: HSET \"emq:{orders}:job:j1\" state done\n"
                 "at 9 a: EMQ.STATS orders\n",
             &violations);
}

TEST(Export, an_exported_failing_history_replays_the_failure) {
  std::vector<properties::Violation> violations;
  const RunResult failing = row_said_done(violations);
  ASSERT_EQ(failing.status, CheckStatus::passed) << "no expectation, no `check invariants`";
  ASSERT_FALSE(violations.empty());
  const auto exported = properties::export_scenario(failing.history, violations);
  ASSERT_TRUE(exported);
  const std::string& text = exported->text;
  EXPECT_NE(text.find("# broken: queue.conserve"), std::string::npos) << text;
  auto parsed = parse_scenario(text, "replay.scn");
  ASSERT_TRUE(parsed.ok()) << to_string(parsed.error()) << "\n" << text;
  EXPECT_EQ(parsed.value().title.rfind("replay: queue.conserve", 0), 0u) << parsed.value().title;
  EXPECT_TRUE(std::holds_alternative<CheckInvariants>(parsed.value().steps.back().action));
  const RunResult replay = run_on_sim(parsed.value(), {"replay.scn", false});
  ASSERT_EQ(replay.status, CheckStatus::failed);
  EXPECT_EQ(replay.failure->invariant, "queue.conserve");
  EXPECT_EQ(replay.calls.size(), failing.calls.size()) << "every call matched before the check";
}

TEST(Export, bytes_outside_ascii_come_back_as_the_same_bytes) {
  // History strings carry bytes 0x80-0xff as \u0080-\u00ff (sim/history.h); the exporter
  // must fold them back, or a UTF-8 looking pair (c3 a9) would change length.
  const RunResult original = run(std::string(header) +
                                 "at 0 a: EMQ.ADD \"q\\xff\" \"j\\xc3\\xa9\" \"\\x00\\x01\\x7f\\x80\"\n"
                                 "at 0 a: EMQ.CLAIM \"q\\xff\" 100\n");
  ASSERT_EQ(original.status, CheckStatus::passed);
  const std::string text = properties::export_scenario(original.history, {}).value().text;
  auto parsed = parse_scenario(text, "bytes.scn");
  ASSERT_TRUE(parsed.ok()) << to_string(parsed.error()) << "\n" << text;
  const auto& claim = std::get<Call>(parsed.value().steps[1].action);
  EXPECT_EQ(claim.argv[1], "q\xff");
  EXPECT_EQ(*claim.expect, exact_pattern(Reply::array({Reply::array(
                               {Reply::bulk("j\xc3\xa9"), Reply::integer(1), Reply::bulk(std::string("\x00\x01\x7f\x80", 4))})})));
  EXPECT_EQ(run_on_sim(parsed.value()).status, CheckStatus::passed);
}

// What a real target skips, step by step (the help of `scenario --server`, `--server-bin`
// and `--cluster` is built from this): on a running server only calls, lose and checks
// run; a server the runner starts does every fault but the sim-only ones, and a restart
// only when no write is lost to it; a cluster neither restarts, fails over nor sets a clock.
TEST(RealSkip, each_target_skips_the_steps_it_cannot_do) {
  using Words = std::vector<std::string>;
  RealTarget running, started, cluster;
  running.host = "localhost";
  running.port = 6379;
  started.server_bin = cluster.server_bin = "valkey-server";
  cluster.cluster_primaries = 3;
  const Words sim_only{"epoch"};
  EXPECT_EQ(skipped_steps(running, Persistence::always),
            (Words{"restart", "failover", "failback", "reload", "replica", "primary", "deny", "allow", "clock", "drift", "epoch"}));
  EXPECT_EQ(skipped_steps(started, Persistence::always), sim_only);
  EXPECT_EQ(skipped_steps(started, Persistence::none), sim_only);
  for (auto lossy : {Persistence::everysec, Persistence::snapshot}) {
    EXPECT_EQ(skipped_steps(started, lossy), sim_only) << "a restart that loses writes loses the sim's on a real server";
  }
  EXPECT_EQ(skipped_steps(cluster, Persistence::always),
            (Words{"restart", "failover", "failback", "replica", "primary", "deny", "allow", "clock", "drift", "epoch"}));
}

// The lines of a history after its header (which names the scenario that ran).
std::string body_of(const std::string& history) { return history.substr(history.find('\n') + 1); }

// An empty run_id read, at a reload and at a restart, exports as `epoch malformed ""`, which
// replays the same empty read (a bare `epoch malformed` draws a shape, here not an empty
// one), so the replay's history is the original's line for line.
TEST(Export, an_empty_run_id_read_replays_as_the_same_empty_read) {
  const std::string steps =
      "at 0  a: EMQ.ADD q j1 hello\n"
      "at 10 epoch malformed{}\n"
      "at 10 reload\n"
      "at 20 a: EMQ.ADD q j2 x\n"
      "at 30 epoch malformed{}\n"
      "at 30 restart\n"
      "at 40 a: EMQ.ADD q j3 y\n";
  const auto with = [&](const std::string& text) {
    std::string out = "scenario \"t\"\noption seed 2\n" + steps;
    for (std::size_t at; (at = out.find("{}")) != std::string::npos;) out.replace(at, 2, text);
    return out;
  };
  const RunResult original = run(with(" \"\""));
  ASSERT_EQ(original.status, CheckStatus::passed);
  ASSERT_NE(original.history.find("\"read_faulted\":true,\"module\":false,\"read\":\"\""), std::string::npos)
      << original.history;
  ASSERT_NE(original.history.find("\"fault\":\"restart\",\"run_id\":\"\",\"module\":false"), std::string::npos)
      << original.history;
  const RunResult drawn = run(with(""));
  EXPECT_EQ(drawn.history.find("\"read\":\"\""), std::string::npos) << "seed 2 draws a shape that is not empty";

  const std::string text = properties::export_scenario(original.history, {}).value().text;
  auto parsed = parse_scenario(text, "export.scn");
  ASSERT_TRUE(parsed.ok()) << to_string(parsed.error()) << "\n" << text;
  std::size_t empty_reads = 0;
  for (const Step& step : parsed.value().steps) {
    if (step.action == Action(EpochFault{EpochFault::Kind::malformed_text, ""})) ++empty_reads;
  }
  EXPECT_EQ(empty_reads, 2u) << text;
  const RunResult replay = run_on_sim(parsed.value(), {"export.scn", true});
  ASSERT_EQ(replay.status, CheckStatus::passed) << describe_failure("export.scn", *replay.failure);
  EXPECT_EQ(body_of(replay.history), body_of(original.history));
}

TEST(Export, a_history_that_is_not_one_exports_nothing_and_says_which_line) {
  std::string error;
  EXPECT_FALSE(properties::export_scenario("", {}, &error));
  EXPECT_EQ(error, "line 1: empty file: expected a history header line");
  EXPECT_FALSE(properties::export_scenario("{\"trafikey\":\"other\"}\n", {}, &error));
  EXPECT_EQ(error.rfind("line 1: not a trafikey history", 0), 0u) << error;
  const std::string header_line = "{\"trafikey\":\"history\",\"version\":1,\"kind\":\"scenario\","
                                  "\"options\":{\"persistence\":\"always\",\"seed\":1}}\n";
  EXPECT_FALSE(properties::export_scenario(header_line + "{\"t\":0,\"st\":0,\"inc\":1,\"actor\":\"a\",\"call\":[\"PING\"]}\n", {}, &error));
  EXPECT_EQ(error, "line 2: a call line needs a \"reply\"");
}

// The value the exporter gives is the file it writes: parsing the text gives the same
// scenario, and each step carries the line it has in the text (a runner's message names
// the file's line), with violations' comments counted.
TEST(Export, the_exported_value_is_its_file_line_for_line) {
  std::vector<properties::Violation> violations;
  const RunResult failing = row_said_done(violations);
  ASSERT_FALSE(violations.empty());
  for (const auto& given : {std::vector<properties::Violation>{}, violations}) {
    const auto exported = properties::export_scenario(failing.history, given);
    ASSERT_TRUE(exported);
    auto parsed = parse_scenario(exported->text, "export.scn");
    ASSERT_TRUE(parsed.ok()) << to_string(parsed.error());
    EXPECT_EQ(parsed.value(), exported->scenario);
    ASSERT_EQ(parsed.value().steps.size(), exported->scenario.steps.size());
    for (std::size_t i = 0; i < parsed.value().steps.size(); ++i) {
      EXPECT_EQ(exported->scenario.steps[i].line, parsed.value().steps[i].line) << "step " << i + 1;
    }
  }
  auto noted = properties::export_scenario(failing.history, {}).value();
  ASSERT_TRUE(properties::note_violations(noted, violations));
  EXPECT_EQ(noted.text, properties::export_scenario(failing.history, violations).value().text);
  properties::prepend_comment(noted, "# one more\n");
  auto parsed = parse_scenario(noted.text, "export.scn");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(noted.scenario.steps.back().line, parsed.value().steps.back().line);
}

}  // namespace
}  // namespace trafikey::scenario
