// Reading a history back: leases, verdicts, rows and edges as the replies imply them.
#include <gtest/gtest.h>

#include "reports/history_model.h"
#include "reports/tests/fixtures.h"
#include "sim/executor_scripts.h"
#include "sim/world.h"

namespace trafikey::reports {
namespace {

using testing::crossed_restart_then_extended;

RunModel parse(const std::string& text) {
  std::string error;
  auto m = parse_history(text, &error);
  EXPECT_TRUE(m) << error;
  return m ? std::move(*m) : RunModel{};
}

TEST(HistoryModel, a_lease_extended_after_a_restart_is_restamped_by_the_new_incarnation) {
  const RunModel m = parse(crossed_restart_then_extended());
  ASSERT_EQ(m.leases.size(), 3u);
  const Lease& j1 = m.leases[0];
  EXPECT_EQ(j1.job.id, "j1");
  ASSERT_EQ(j1.segments.size(), 2u);
  EXPECT_EQ(j1.segments[0].at.inc, 1);
  EXPECT_EQ(j1.segments[1].at.inc, 2) << "the extension re-stamps under incarnation 2";
  EXPECT_EQ(j1.end, LeaseEnd::swept);
  EXPECT_EQ(j1.end_verdict, "counted-dead");
  const Lease& j2 = m.leases[1];
  EXPECT_EQ(j2.end_verdict, "exempt");
  EXPECT_EQ(m.leases[2].end, LeaseEnd::completed);
}

TEST(HistoryModel, verdicts_name_the_stamping_and_the_sweeping_incarnation) {
  const RunModel m = parse(crossed_restart_then_extended());
  ASSERT_EQ(m.verdicts.size(), 2u);
  EXPECT_EQ(m.verdicts[0].kind, "exempt");
  EXPECT_EQ(m.verdicts[0].job.id, "j2");
  EXPECT_EQ(m.verdicts[0].job.queue, "q") << "the queue comes from the sweep call";
  EXPECT_EQ(m.verdicts[0].stamp_inc, 1);
  EXPECT_EQ(m.verdicts[0].at.inc, 2);
  EXPECT_EQ(m.verdicts[1].kind, "counted-dead");
  EXPECT_EQ(m.verdicts[1].stamp_inc, 2);
}

TEST(HistoryModel, final_rows_follow_the_replies) {
  const RunModel m = parse(crossed_restart_then_extended());
  const RowState j1 = m.final_rows.at({"q", "j1"});
  EXPECT_EQ(j1.state, "dead");
  EXPECT_EQ(j1.stalled, 1);
  const RowState j2 = m.final_rows.at({"q", "j2"});
  EXPECT_EQ(j2.state, "done");
  EXPECT_EQ(j2.attempts, 2);
  EXPECT_EQ(j2.stalled, 0) << "an exempt recovery charges no budget";
  ASSERT_EQ(m.refusals.size(), 1u) << "the late COMPLETE of j1";
  EXPECT_EQ(m.refusals[0].verb, "EMQ.COMPLETE");
}

// The scripted executor's calls (bench/scripts/*.lua by EVAL body or EVALSHA digest) are
// leases like the verbs they stand for, each step named after its script.
TEST(HistoryModel, the_scripted_executors_calls_are_leases_named_after_their_scripts) {
  sim::WorldOptions options;
  options.seed = 7;
  sim::World w(options);
  w.begin("scenario", R"({"title":"the scripted executor"})");
  w.call("p", {"EMQ.ADD", "q", "j1", "a"});
  w.call("p", {"EMQ.ADD", "q", "j2", "b"});
  const std::string claim_body(sim::executor_script_body(sim::ExecutorScript::claim));
  const std::string extend_sha(sim::executor_script_sha(sim::ExecutorScript::extend));
  const std::string complete_sha(sim::executor_script_sha(sim::ExecutorScript::complete));
  w.advance_to(10);
  ASSERT_EQ(w.call("w1", {"EVAL", claim_body, "2", "emq:{q}:pending", "emq:{q}:active", "1000", "2"})
                .reply.items()
                .size(),
            2u);
  w.call("w1", {"SCRIPT", "LOAD", std::string(sim::executor_script_body(sim::ExecutorScript::extend))});
  w.call("w1", {"SCRIPT", "LOAD", std::string(sim::executor_script_body(sim::ExecutorScript::complete))});
  w.advance_to(500);
  EXPECT_EQ(w.call("w1", {"EVALSHA", extend_sha, "2", "emq:{q}:active", "emq:{q}:job:j1", "j1", "1", "1000"}).reply,
            Reply::integer(1));
  w.advance_to(600);
  EXPECT_EQ(w.call("w1", {"EVALSHA", complete_sha, "3", "emq:{q}:active", "emq:{q}:done", "emq:{q}:job:j1", "j1",
                          "1", "ok"})
                .reply,
            Reply::integer(1));
  EXPECT_EQ(w.call("w1", {"EVALSHA", complete_sha, "3", "emq:{q}:active", "emq:{q}:done", "emq:{q}:job:j2", "j2",
                          "7", "ok"})
                .reply,
            Reply::integer(0));
  w.end("stopped", R"("active":1,"done":1)");
  const RunModel m = parse(w.history().text());
  ASSERT_EQ(m.leases.size(), 2u);
  const Lease& j1 = m.leases[0];
  EXPECT_EQ(j1.job.id, "j1");
  ASSERT_EQ(j1.segments.size(), 2u);
  EXPECT_EQ(j1.segments[0].verb, "claim.lua");
  EXPECT_EQ(j1.segments[1].verb, "extend.lua");
  EXPECT_EQ(j1.segments[1].deadline_server_ms, 1500);
  EXPECT_EQ(j1.end, LeaseEnd::completed);
  EXPECT_EQ(m.leases[1].end, LeaseEnd::open);
  EXPECT_EQ(m.final_rows.at({"q", "j1"}).state, "done");
  EXPECT_EQ(m.final_rows.at({"q", "j2"}).state, "active");
  ASSERT_EQ(m.refusals.size(), 1u) << "complete.lua of j2 with a stale token";
  EXPECT_EQ(m.refusals[0].verb, "complete.lua");
  EXPECT_EQ(m.edges.at({"pending", "active"}).by_cause.at("claim.lua"), 2);
  EXPECT_EQ(m.edges.at({"active", "done"}).by_cause.at("complete.lua 1"), 1);
}

TEST(HistoryModel, a_clock_step_moves_where_a_deadline_falls_in_true_time) {
  for (const auto& [step_ms, reached_ms] : {std::pair{500, 500}, std::pair{-50, 1050}}) {
    sim::World w({});
    w.begin("test", "{}");
    w.call("p", {"EMQ.ADD", "q", "j1", "x"});
    w.call("w", {"EMQ.CLAIM", "q", "1000"});  // deadline st 1000
    w.advance_to(100);
    w.step_clock(step_ms);
    w.advance_to(3000);
    w.call("s", {"EMQ.STALLED.CHECK", "q", "5"});
    const RunModel m = parse(w.history().text());
    ASSERT_EQ(m.leases.size(), 1u);
    EXPECT_EQ(m.leases[0].segments[0].deadline_server_ms, 1000);
    EXPECT_EQ(m.leases[0].segments[0].deadline_true_ms, reached_ms) << "step " << step_ms;
  }
}

TEST(HistoryModel, persistence_loss_rolls_rows_and_leases_back) {
  sim::WorldOptions o;
  o.persistence = sim::Persistence::everysec;
  sim::World w(o);
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.advance_to(1000);  // synced: the ADD survives
  w.advance_to(1500);
  w.call("w", {"EMQ.CLAIM", "q", "1000"});
  w.restart();  // loses the CLAIM
  const RunModel m = parse(w.history().text());
  ASSERT_EQ(m.leases.size(), 1u);
  EXPECT_EQ(m.leases[0].end, LeaseEnd::rolled_back);
  EXPECT_TRUE(m.leases[0].segments[0].rolled_back);
  EXPECT_EQ(m.final_rows.at({"q", "j1"}).state, "pending");
  EXPECT_EQ(m.final_rows.at({"q", "j1"}).attempts, 0);
  EXPECT_EQ((m.edges.at({"pending", "active"}).count), 1) << "the server made the change";
}

TEST(HistoryModel, a_bad_line_is_named_by_its_number) {
  const std::string good = crossed_restart_then_extended();
  const auto lines = testing::lines_of(good);
  std::string error;
  EXPECT_FALSE(parse_history(lines[0] + "\n" + lines[1] + "\n{not json\n", &error));
  EXPECT_EQ(error, "line 3: not valid JSON");
  EXPECT_FALSE(parse_history(lines[0] + "\n{\"st\":0,\"inc\":1,\"actor\":\"a\",\"phase\":\"x\"}\n", &error));
  EXPECT_EQ(error, "line 2: field \"t\" (true time) must be an integer");
  EXPECT_FALSE(parse_history("{\"hello\":1}\n", &error));
  EXPECT_EQ(error.rfind("line 1: not a trafikey history", 0), 0u) << error;
  EXPECT_FALSE(parse_history("", &error));
  EXPECT_EQ(error.rfind("line 1:", 0), 0u) << error;
}

TEST(HistoryModel, a_verdict_the_world_never_writes_is_refused_naming_the_ones_it_does) {
  const std::string good = crossed_restart_then_extended();
  auto lines = testing::lines_of(good);
  std::size_t at = 0;
  for (std::size_t i = 0; i < lines.size() && !at; ++i) {
    if (lines[i].find("\"verdict\":\"exempt\"") != std::string::npos) at = i;
  }
  ASSERT_GT(at, 0u) << "the fixture has an exempt verdict";
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    if (i == at) line.replace(line.find("\"exempt\""), 8, "\"excused\"");
    text += line + "\n";
  }
  std::string error;
  EXPECT_FALSE(parse_history(text, &error));
  EXPECT_EQ(error, "line " + std::to_string(at + 1) + ": unknown verdict \"excused\" (one of ghost, lane, exempt, "
                   "counted-recovered, counted-dead)");
}

// The adversarial client's probes set a lease up by hand (HSET of an active row, ZADD of
// its deadline): the ledger adopts it when a verb or the sweep meets it, and the report
// shows it as a lease from the HSET, its deadline the ZADD's, ended by the sweep. (It
// showed the job's row empty: the report and the ledger disagreed about what happened.)
TEST(HistoryModel, a_lease_set_up_by_hand_is_drawn_from_its_hset_to_the_verdict_that_ends_it) {
  sim::World w({});
  w.begin("test", "{}");
  w.advance_to(10);
  w.call("op", {"HSET", "emq:{q}:job:c", "state", "active", "payload", "p", "attempts", "2", "failures", "0",
                "max_failures", "3"});
  w.call("op", {"ZADD", "emq:{q}:active", "100", "c"});
  w.advance_to(200);
  w.call("s", {"EMQ.STALLED.CHECK", "q", "10"});
  const RunModel m = parse(w.history().text());
  ASSERT_EQ(m.leases.size(), 1u);
  const Lease& l = m.leases[0];
  EXPECT_EQ(l.job, (JobKey{"q", "c"}));
  EXPECT_EQ(l.token, 2);
  ASSERT_EQ(l.segments.size(), 1u);
  EXPECT_EQ(l.segments[0].verb, "HSET");
  EXPECT_EQ(l.segments[0].actor, "op");
  EXPECT_EQ(l.segments[0].at.true_ms, 10);
  EXPECT_EQ(l.segments[0].deadline_server_ms, 100);
  EXPECT_EQ(l.end, LeaseEnd::swept);
  EXPECT_EQ(l.end_verdict, "exempt") << "no lease_epoch: the sweep puts it back uncounted";
  EXPECT_EQ(m.final_rows.at({"q", "c"}).state, "pending");
  ASSERT_EQ(m.row_edits.size(), 1u);
  EXPECT_EQ(m.row_edits[0].what, "row written by op (HSET state active): set up by hand");
}

// A lease on wire 2 (EMQ §8) keeps the token CLAIM handed out, and each lease verb call
// the token it carried; a wire 1 lease beside it has none.
TEST(HistoryModel, wire_2_tokens_are_kept_with_the_grant_the_extension_and_the_refusal) {
  const testing::Wire2Run run = testing::claimed_on_wire_2();
  const RunModel m = parse(run.history);
  ASSERT_EQ(m.leases.size(), 2u);
  const Lease& j1 = m.leases[0];
  EXPECT_EQ(j1.job.id, "j1");
  ASSERT_EQ(j1.segments.size(), 2u);
  EXPECT_EQ(j1.segments[0].wire2_token, run.token) << "handed out by the CLAIM";
  EXPECT_EQ(j1.segments[1].wire2_token, run.token) << "carried by the EXTEND";
  EXPECT_EQ(j1.token, 1);
  EXPECT_EQ(j1.end, LeaseEnd::completed) << "the COMPLETE with the wire 2 token ends the lease";
  const Lease& j2 = m.leases[1];
  EXPECT_EQ(j2.job.id, "j2");
  EXPECT_TRUE(j2.segments[0].wire2_token.empty()) << "a wire 1 grant";
  ASSERT_EQ(m.refusals.size(), 1u) << "the second COMPLETE of j1";
  EXPECT_EQ(m.refusals[0].wire2_token, run.token);
  EXPECT_EQ(m.refusals[0].token, 1) << "the wire 2 token's attempts";
  ASSERT_EQ(m.wire2_uses.size(), 4u) << "the wire 1 CLAIM and COMPLETE of j2 are not listed";
  const char* answers[] = {"granted", "extended", "completed", "refused"};
  const char* verbs[] = {"EMQ.CLAIM", "EMQ.EXTEND", "EMQ.COMPLETE", "EMQ.COMPLETE"};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(m.wire2_uses[i].answer, answers[i]) << i;
    EXPECT_EQ(m.wire2_uses[i].verb, verbs[i]) << i;
    EXPECT_EQ(m.wire2_uses[i].token, run.token) << i;
    EXPECT_EQ(m.wire2_uses[i].job, (JobKey{"q", "j1"})) << i;
  }
}

TEST(HistoryModel, fingerprint_is_the_sha256_the_history_writer_computes) {
  sim::World w({});
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  EXPECT_EQ(parse(w.history().text()).fingerprint, w.history().fingerprint());
}

}  // namespace
}  // namespace trafikey::reports
