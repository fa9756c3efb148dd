// The simulated world: each fault kind does what it says, and runs are deterministic.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/run.h"
#include "sim/world.h"

namespace trafikey::sim {
namespace {

WorldOptions options(Persistence mode, std::uint64_t seed = 7) {
  WorldOptions o;
  o.seed = seed;
  o.persistence = mode;
  o.snapshot_interval_ms = 3000;
  return o;
}

std::string row_field(const World& w, std::string_view id, std::string_view field) {
  bool wrong = false;
  const auto* row = w.data().hash_at("emq:{q}:job:" + std::string(id), wrong);
  const std::string* v = row ? Keyspace::hash_field(*row, field) : nullptr;
  return v ? *v : "-";
}

bool job_exists(const World& w, std::string_view id) {
  return w.data().exists("emq:{q}:job:" + std::string(id));
}

TEST(World, restart_draws_a_new_run_id_and_the_epoch_follows_it) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  const std::string first = w.run_ids().at(1);
  EXPECT_TRUE(run_id_shape_ok(first));
  w.advance_to(100);
  w.restart();
  EXPECT_EQ(w.incarnation(), 2);
  const std::string second = w.run_ids().at(2);
  EXPECT_TRUE(run_id_shape_ok(second));
  EXPECT_NE(first, second);
  const std::string_view epoch[] = {"EMQ.EPOCH"};
  EXPECT_EQ(w.probe(epoch), Reply::bulk(second));
}

// Adversarial run_ids are one character off an earlier one, but never an earlier one
// itself: with every start drawing near, a character changed twice comes back to the
// first process's run_id unless the draw refuses it.
TEST(World, near_run_ids_are_one_character_off_and_never_an_earlier_processs) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    WorldOptions o = options(Persistence::always, seed);
    o.near_epoch_per_mille = 1000;
    World w(o);
    w.begin("test", "{}");
    for (int i = 0; i < 12; ++i) {
      w.advance_to(100 * (i + 1));
      if (i % 2 == 0) w.restart(); else w.failover();
    }
    const auto& ids = w.run_ids();
    ASSERT_EQ(ids.size(), 14u);
    for (std::size_t a = 1; a < ids.size(); ++a) {
      EXPECT_TRUE(run_id_shape_ok(ids[a])) << ids[a];
      for (std::size_t b = 1; b < a; ++b) EXPECT_NE(ids[a], ids[b]) << "seed " << seed << ": incarnations " << b << " and " << a;
    }
    int near = 0;
    for (std::size_t a = 2; a < ids.size(); ++a) {
      for (std::size_t b = 1; b < a; ++b) {
        int differ = 0;
        for (std::size_t k = 0; k < ids[a].size(); ++k) differ += ids[a][k] != ids[b][k];
        if (differ == 1) { ++near; break; }
      }
    }
    EXPECT_EQ(near, 12) << "seed " << seed << ": every later run_id is one character off an earlier one";
  }
}

TEST(World, reload_keeps_the_process_its_run_id_epoch_dataset_and_script_cache) {
  for (Persistence mode : {Persistence::always, Persistence::none}) {
    World w(options(mode));
    w.begin("test", "{}");
    w.call("p", {"EMQ.ADD", "q", "j1", "x"});
    w.call("w", {"EMQ.CLAIM", "q", "1000"});
    w.call("w", {"SCRIPT", "LOAD", "return 7"});
    w.advance_to(300);
    const std::string run_id = w.run_ids().at(1);
    w.reload();
    EXPECT_EQ(w.incarnation(), 1) << "the same process";
    EXPECT_EQ(w.run_ids().size(), 2u);
    const std::string_view epoch[] = {"EMQ.EPOCH"};
    EXPECT_EQ(w.probe(epoch), Reply::bulk(run_id));
    EXPECT_EQ(row_field(w, "j1", "lease_epoch"), run_id);
    EXPECT_EQ(row_field(w, "j1", "state"), "active");
    EXPECT_EQ(w.kept_calls(), 0) << "no start: nothing was lost or kept anew";
    const std::string sha = Scripting::sha1_hex("return 7");
    EXPECT_EQ(w.call("w", {"EVALSHA", sha, "0"}).reply, Reply::integer(7));
    // the lease granted before the reload is this process's: it counts
    w.advance_to(1500);
    w.call("s", {"EMQ.STALLED.CHECK", "q", "5"});
    EXPECT_EQ(row_field(w, "j1", "stalled"), "1");
    EXPECT_NE(w.history().text().find("\"fault\":\"reload\""), std::string::npos);
  }
}

TEST(World, restart_under_always_keeps_every_write) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.advance_to(10);
  w.call("p", {"EMQ.ADD", "q", "j2", "x"});
  w.restart();
  EXPECT_TRUE(job_exists(w, "j1"));
  EXPECT_TRUE(job_exists(w, "j2"));
}

TEST(World, restart_under_everysec_loses_the_writes_since_the_last_sync) {
  World w(options(Persistence::everysec));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});  // t=0
  w.advance_to(1000);                         // a sync: j1 is on disk
  w.advance_to(1500);
  w.call("p", {"EMQ.ADD", "q", "j2", "x"});  // after the sync
  w.restart();                                // before the next one
  EXPECT_TRUE(job_exists(w, "j1"));
  EXPECT_FALSE(job_exists(w, "j2"));
  // the pending set and the counter went back together with the row: no half job
  const std::string_view pending[] = {"ZRANGE", "emq:{q}:pending", "0", "-1"};
  EXPECT_EQ(w.probe(pending), Reply::array({Reply::bulk("j1")}));
}

TEST(World, restart_under_snapshot_loses_the_writes_since_the_last_save) {
  World w(options(Persistence::snapshot));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.advance_to(2000);
  w.call("p", {"EMQ.ADD", "q", "j2", "x"});
  w.advance_to(3000);  // the save at 3000 ms holds j1 and j2
  w.advance_to(5000);
  w.call("p", {"EMQ.ADD", "q", "j3", "x"});
  w.restart();
  EXPECT_TRUE(job_exists(w, "j1"));
  EXPECT_TRUE(job_exists(w, "j2"));
  EXPECT_FALSE(job_exists(w, "j3"));
}

TEST(World, restart_under_none_starts_empty) {
  World w(options(Persistence::none));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.advance_to(5000);
  w.restart();
  EXPECT_EQ(w.data().size(), 0u);
}

TEST(World, failover_promotes_a_lagging_replica_with_its_own_run_id) {
  WorldOptions o = options(Persistence::always);
  o.replication_lag_ms = 250;
  World w(o);
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.advance_to(300);  // the replica copies j1
  w.call("p", {"EMQ.ADD", "q", "j2", "x"});
  w.advance_to(400);  // not yet replicated
  w.failover();
  EXPECT_EQ(w.incarnation(), 2);
  EXPECT_NE(w.run_ids().at(1), w.run_ids().at(2));
  EXPECT_TRUE(job_exists(w, "j1"));
  EXPECT_FALSE(job_exists(w, "j2"));
}

TEST(World, clock_step_moves_only_the_server_clock) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.advance_to(1000);
  w.step_clock(5000);
  EXPECT_EQ(w.true_ms(), 1000);
  EXPECT_EQ(w.server_ms(), 6000);
  w.step_clock(-3000);
  EXPECT_EQ(w.server_ms(), 3000);
  w.advance_to(1500);
  EXPECT_EQ(w.server_ms(), 3500);
  // the server's verbs see the stepped clock: a lease granted now ends at 3500 + lease
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.call("w", {"EMQ.CLAIM", "q", "1000"});
  const std::string_view score[] = {"ZSCORE", "emq:{q}:active", "j1"};
  EXPECT_EQ(w.probe(score), Reply::bulk("4500"));
}

TEST(World, clock_rate_changes_the_speed_without_a_jump) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.advance_to(1000);
  w.set_clock_rate(500);
  EXPECT_EQ(w.server_ms(), 1000);
  w.advance_to(3000);
  EXPECT_EQ(w.server_ms(), 2000);
}

TEST(World, lost_reply_runs_the_call_once_and_the_record_says_lost) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.lose_next_reply("w1");
  const CallRecord& lost = w.call("w1", {"EMQ.CLAIM", "q", "1000"});
  EXPECT_TRUE(lost.lost);
  EXPECT_EQ(row_field(w, "j1", "attempts"), "1") << "the call ran exactly once";
  const std::string_view active[] = {"ZRANGE", "emq:{q}:active", "0", "-1"};
  EXPECT_EQ(w.probe(active), Reply::array({Reply::bulk("j1")}));
  const CallRecord& next = w.call("w1", {"EMQ.CLAIM", "q", "1000"});
  EXPECT_FALSE(next.lost) << "only the next reply is lost";
  EXPECT_EQ(next.reply, Reply::array());
}

TEST(World, epoch_read_failure_leaves_a_server_without_emq_verbs_until_the_next_start) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.arm_epoch_fault(EpochFault::fail);
  w.restart();
  EXPECT_FALSE(w.module_loaded());
  const CallRecord& refused = w.call("w", {"EMQ.CLAIM", "q", "1000"});
  ASSERT_TRUE(refused.reply.is_error());
  EXPECT_EQ(refused.reply.text(),
            "ERR unknown command 'EMQ.CLAIM', with args beginning with: 'q' '1000' ");
  EXPECT_TRUE(job_exists(w, "j1")) << "the data is still served";
  w.restart();
  EXPECT_TRUE(w.module_loaded());
  EXPECT_EQ(w.call("w", {"EMQ.CLAIM", "q", "1000"}).reply.items().size(), 1u);
}

TEST(World, malformed_run_id_refuses_the_load) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.arm_epoch_fault(EpochFault::malformed);
  w.restart();
  EXPECT_FALSE(w.module_loaded());
  EXPECT_FALSE(run_id_shape_ok(w.run_ids().at(2)));
}

// One defect at a time, each kind drawn: a shape check too loose for any one of them is
// caught (a check that missed upper case, or compared only 40 characters, passed the one
// shape the world used to draw).
TEST(World, malformed_run_ids_come_in_every_shape_and_each_refuses_the_load) {
  std::set<std::string> shapes;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    WorldOptions o = options(Persistence::always);
    o.seed = seed;
    World w(o);
    w.begin("test", "{}");
    w.arm_epoch_fault(EpochFault::malformed);
    w.restart();
    const std::string& id = w.run_ids().at(2);
    EXPECT_FALSE(w.module_loaded()) << id;
    EXPECT_FALSE(run_id_shape_ok(id)) << id;
    const bool upper = std::any_of(id.begin(), id.end(), [](char c) { return c >= 'A' && c <= 'F'; });
    const bool outside = std::any_of(id.begin(), id.end(), [](char c) {
      return !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '\n');
    });
    const bool nul = id.find('\0') != std::string::npos;
    shapes.insert(id.empty()               ? "empty"
                  : id.ends_with("\r\n")   ? "crlf"
                  : id.ends_with('\n')     ? "newline"
                  : id.ends_with('\r')     ? "cr"
                  : nul                    ? "nul"
                  : upper                  ? "upper"
                  : outside                ? "outside"
                                           : std::to_string(id.size()));
  }
  EXPECT_EQ(shapes, (std::set<std::string>{"39", "41", "cr", "crlf", "empty", "newline", "nul", "outside", "upper"}));
}

// A scenario's `epoch malformed "TEXT"`: the start reads those bytes, and the PRNG draws as
// it would have, so the run_id after it is the same as without the text.
TEST(World, a_given_malformed_run_id_is_read_as_given_and_draws_nothing_more) {
  World a(options(Persistence::always)), b(options(Persistence::always));
  for (World* w : {&a, &b}) w->begin("test", "{}");
  a.arm_epoch_fault(EpochFault::malformed);
  b.arm_malformed_run_id("0123456789abcdef0123456789abcdef0123456");
  for (World* w : {&a, &b}) {
    w->restart();
    EXPECT_FALSE(w->module_loaded());
    w->restart();
  }
  EXPECT_EQ(b.run_ids().at(2), "0123456789abcdef0123456789abcdef0123456");
  EXPECT_EQ(a.run_ids().at(3), b.run_ids().at(3));
  EXPECT_TRUE(b.module_loaded());
}

TEST(World, sweep_verdicts_say_what_the_server_did) {
  World w(options(Persistence::always));
  w.begin("test", "{}");
  w.call("p", {"EMQ.ADD", "q", "j1", "x"});
  w.call("p", {"EMQ.ADD", "q", "j2", "x"});
  w.call("w", {"EMQ.CLAIM", "q", "100"});  // j1 under incarnation 1
  w.restart();
  w.call("w", {"EMQ.CLAIM", "q", "100"});  // j2 under incarnation 2
  w.advance_to(500);
  w.call("s", {"EMQ.STALLED.CHECK", "q", "3"});
  EXPECT_EQ(w.verdict_counts().at("exempt"), 1);
  EXPECT_EQ(w.verdict_counts().at("counted-recovered"), 1);
  EXPECT_NE(w.history().text().find("\"verdict\":\"exempt\",\"job\":\"j1\",\"stamp_inc\":1"),
            std::string::npos);
  EXPECT_NE(w.history().text().find("\"verdict\":\"counted-recovered\",\"job\":\"j2\",\"stamp_inc\":2"),
            std::string::npos);
}

// ---- generated runs

RunPlan plan_with_everything(std::uint64_t seed) {
  PlanChoices c;
  c.seed = seed;
  c.fault_kinds = *parse_fault_list("restart,failover,clock,death,pause,lost_reply,epoch");
  return draw_plan(c);
}

TEST(Run, same_plan_same_bytes) {
  const RunPlan plan = plan_with_everything(42);
  const RunSummary a = run_plan(plan);
  const RunSummary b = run_plan(plan);
  EXPECT_EQ(a.history, b.history);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.fingerprint.size(), 64u);
}

// Three queues: job jN is added to queue (N-1) % 3, every sweep instant sweeps each
// queue, workers claim from each, every job drains, and the bytes are the same twice.
TEST(Run, several_queues_spread_the_jobs_and_each_is_swept) {
  PlanChoices c;
  c.seed = 7;
  c.jobs = 9;
  c.workers = 2;
  c.queues = 3;
  const RunPlan plan = draw_plan(c);
  const RunSummary s = run_plan(plan);
  EXPECT_EQ(s.outcome, "drained");
  EXPECT_EQ(s.jobs.at("vanished"), 0);
  EXPECT_EQ(s.situations.count("several-queues"), 1u);
  EXPECT_EQ(run_plan(plan).history, s.history);
  for (int job = 1; job <= 9; ++job) {
    const std::string add = "[\"EMQ.ADD\",\"" + plan.queue_name((job - 1) % 3) + "\",\"j" + std::to_string(job) + "\"";
    EXPECT_NE(s.history.find(add), std::string::npos) << add;
  }
  std::map<std::string, int> sweeps, claims;
  for (const std::string q : {"q", "q2", "q3"}) {
    for (std::size_t at = 0; (at = s.history.find("[\"EMQ.STALLED.CHECK\",\"" + q + "\"", at)) != std::string::npos; ++at) ++sweeps[q];
    for (std::size_t at = 0; (at = s.history.find("[\"EMQ.CLAIM\",\"" + q + "\"", at)) != std::string::npos; ++at) ++claims[q];
    EXPECT_GT(claims[q], 0) << q;
  }
  EXPECT_GT(sweeps["q"], 0);
  EXPECT_EQ(sweeps["q"], sweeps["q2"]);
  EXPECT_EQ(sweeps["q"], sweeps["q3"]);
  // one queue: no sweep or claim names another
  c.queues = 1;
  const RunSummary one = run_plan(draw_plan(c));
  EXPECT_EQ(one.history.find("\"q2\""), std::string::npos);
  EXPECT_EQ(one.situations.count("several-queues"), 0u);
}

TEST(Run, different_seeds_differ) {
  EXPECT_NE(run_plan(plan_with_everything(42)).fingerprint, run_plan(plan_with_everything(43)).fingerprint);
}

TEST(Run, fingerprint_does_not_depend_on_keeping_the_text) {
  const RunPlan plan = plan_with_everything(5);
  RunOptions hash_only;
  hash_only.keep_history_text = false;
  EXPECT_EQ(run_plan(plan).fingerprint, run_plan(plan, hash_only).fingerprint);
}

TEST(Run, a_run_without_faults_drains_every_job_to_done_or_dead) {
  PlanChoices c;
  c.seed = 3;
  c.jobs = 20;
  const RunSummary s = run_plan(draw_plan(c));
  EXPECT_EQ(s.outcome, "drained");
  EXPECT_EQ(s.jobs.count("pending"), 0u);
  EXPECT_EQ(s.jobs.count("active"), 0u);
  EXPECT_EQ(s.jobs.at("vanished"), 0);
  std::int64_t finished = 0;
  for (const auto& [state, n] : s.jobs) finished += state == "done" || state == "dead" ? n : 0;
  EXPECT_EQ(finished, 20);
}

TEST(Run, a_paused_workers_late_complete_gets_zero) {
  // One worker, one job, a pause longer than the lease: the sweep recovers the job and the
  // worker's late COMPLETE with its old token must get 0.
  RunPlan plan;
  plan.seed = 11;
  plan.jobs = 1;
  plan.add_spread_ms = 1;
  plan.workers = {WorkerClock{}};
  plan.claim_count = 1;
  plan.lease_ms = 500;
  plan.extend_at_per_mille = 1000;  // the finish (at 300 ms of work) falls due first
  plan.work_min_ms = plan.work_max_ms = 300;
  plan.fail_per_mille = 0;
  plan.sweep_interval_ms = 100;
  plan.max_stalled = 5;
  plan.safety_ms = 10000;
  plan.faults = {Fault{100, fault::WorkerPause{0, 3000}}};
  const RunSummary s = run_plan(plan);
  const std::string& h = s.history;
  const auto complete = h.find("\"call\":[\"EMQ.COMPLETE\",\"q\",\"j1\",\"1\"");
  ASSERT_NE(complete, std::string::npos) << h;
  EXPECT_EQ(h.substr(h.find("\"reply\":", complete), 10), "\"reply\":0,") << h.substr(complete, 120);
  EXPECT_NE(h.find("\"fault\":\"worker_pause\""), std::string::npos);
  EXPECT_EQ(s.outcome, "drained") << "the worker drops the job, claims it again and finishes";
}

TEST(Run, a_dead_worker_never_calls_again) {
  RunPlan plan;
  plan.seed = 12;
  plan.jobs = 2;
  plan.workers = {WorkerClock{}, WorkerClock{}};
  plan.safety_ms = 5000;
  plan.faults = {Fault{1000, fault::WorkerDeath{0}}};
  const RunSummary s = run_plan(plan);
  const auto death = s.history.find("\"fault\":\"worker_death\"");
  ASSERT_NE(death, std::string::npos);
  EXPECT_EQ(s.history.find("\"actor\":\"w0\"", death), std::string::npos);
  EXPECT_EQ(s.outcome, "drained");
}

TEST(Run, summary_counts_the_jobs_the_server_holds_by_state) {
  for (std::uint64_t seed : {3, 9, 21}) {
    std::map<std::string, std::int64_t> jobs;
    RunOptions options;
    options.before_end = [&](const World& world, const std::string&) {
      // read back as a client would: each set's members, those whose row exists
      for (const std::string state : {"pending", "active", "done", "dead"}) {
        const std::string key = "emq:{q}:" + state;
        const std::string_view range[] = {"ZRANGE", key, "0", "-1"};
        const Reply members = world.probe(range);
        for (const Reply& id : members.items()) {
          const std::string row = "emq:{q}:job:" + id.text();
          const std::string_view exists[] = {"EXISTS", row};
          if (world.probe(exists) == Reply::integer(1)) ++jobs[state];
        }
      }
    };
    const RunPlan plan = plan_with_everything(seed);
    const RunSummary s = run_plan(plan, options);
    std::int64_t known = 0;
    for (const auto& [state, n] : jobs) known += n;
    jobs["vanished"] = plan.jobs - known;
    EXPECT_EQ(s.jobs, jobs) << seed;
    EXPECT_GT(known, 0) << seed;
  }
}

TEST(Plan, json_round_trips) {
  const RunPlan plan = plan_with_everything(9);
  std::string error;
  auto back = parse_plan(plan_json(plan), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, plan);
}

TEST(Plan, parse_names_the_missing_field) {
  std::string error;
  EXPECT_FALSE(parse_plan("{\"seed\":1}", &error));
  EXPECT_EQ(error, "plan: missing field 'queue'");
}

}  // namespace
}  // namespace trafikey::sim
