// The scenario runner on a real server (run_real.h): a running server (--server) and one
// the runner starts (--server-bin); what it skips and why; what `check invariants`
// observes there; and the differential check against the sim.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "scenarios/runner/run_real.h"
#include "module/harness/fake_clock.h"
#include "module/harness/real_server.h"
#include "sim/scenario/parse.h"

namespace trafikey::scenario {
namespace {

Scenario parse(const std::string& text) {
  auto parsed = parse_scenario(text, "test.scn");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : to_string(parsed.error()));
  return parsed.ok() ? parsed.value() : Scenario{};
}

RealTarget server_bin() {
  RealTarget target;
  target.server_bin = real::find_server_binary();
  target.module_path = TRAFIKEY_MODULE_PATH;
  return target;
}

std::string why(const RunResult& r) {
  return r.failure ? describe_failure("test.scn", *r.failure) : r.skip_reason;
}

constexpr const char* header = "scenario \"t\"\noption seed 1\n";

TEST(RunReal, a_running_server_runs_the_file_and_loses_only_the_scenarios_keys) {
  real::RealServer server(real::ServerConfig{TRAFIKEY_MODULE_PATH, {}, {}, {}});
  real::ServerConnection c = server.connect();
  c.call({"SET", "keep:me", "1"});
  c.call({"HSET", "emq:{orders}:job:j1", "state", "done"});  // left by an earlier run
  c.call({"SET", "scratch", "old"});
  RealTarget target;
  target.host = "127.0.0.1";
  target.port = server.port();
  const Scenario s = parse(std::string(header) +
                           "at 0 a: EMQ.ADD orders j1 x => 1\n"
                           "at 0 a: TYPE scratch => none\n"
                           "at 0 a: EMQ.EPOCH => 5c017cf0d6fa2f3baec463746955b3584154a280\n"
                           "at 0 check invariants\n");
  const RunResult r = run_on_real(s, target);
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  EXPECT_EQ(c.call({"GET", "keep:me"}), Reply::bulk("1"));
  EXPECT_EQ(r.incarnations, 1);
}

TEST(RunReal, restart_needs_a_server_the_runner_started) {
  RealTarget target;
  target.host = "127.0.0.1";
  target.port = 1;
  const Scenario s = parse(std::string(header) + "at 0 a: EMQ.ADD q j x\nat 5 restart\n");
  EXPECT_EQ(real_skip_reason(s, target),
            "restart at line 4: the runner cannot restart a server it did not start (use --server-bin)");
  EXPECT_EQ(run_on_real(s, target).status, CheckStatus::skipped);
  EXPECT_EQ(real_skip_reason(s, server_bin()), "");
}

TEST(RunReal, sim_only_steps_are_skipped_naming_the_line_and_lossy_restarts_run) {
  EXPECT_EQ(real_skip_reason(parse(std::string(header) + "at 0 a: EMQ.ADD q j x\nat 5 epoch fail\n"), server_bin()),
            "sim-only step at line 4: epoch fail");
  for (const char* p : {"everysec", "snapshot", "none"}) {
    const std::string file = "scenario \"t\"\noption persistence " + std::string(p) + "\nat 5 restart\n";
    EXPECT_EQ(real_skip_reason(parse(file), server_bin()), "") << p;
  }
}

TEST(RunReal, run_ids_are_mapped_to_the_sims_by_incarnation) {
  const Scenario s = parse(std::string(header) +
                           "at 0 p: EMQ.ADD q j1 x => 1\n"
                           "at 0 w: EMQ.CLAIM q 100 => [[j1 1 x]]\n"
                           "at 0 check row q j1 lease_epoch=5c017cf0d6fa2f3baec463746955b3584154a280\n"
                           "at 20 restart\n"
                           "at 20 a: EMQ.EPOCH => 7a3a662cb7c1e246376332a92e84a72b227adff6\n"
                           "at 200 s: EMQ.STALLED.CHECK q 1 => [recovered [j1] dead [] ghosts [] lanes []]\n"
                           "at 200 w: EMQ.CLAIM q 100 => [[j1 2 x]]\n"
                           "at 200 a: EMQ.JOB q j1 => [attempts \"2\" failures \"0\" lease "
                           "7a3a662cb7c1e246376332a92e84a72b227adff6-21000 lease_epoch "
                           "7a3a662cb7c1e246376332a92e84a72b227adff6 max_failures \"3\" payload x state active]\n"
                           "at 200 check invariants\n");
  const RunResult r = run_on_real(s, server_bin());
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  EXPECT_EQ(r.incarnations, 2);
  // What the real runner observed of the invariants.
  for (const char* id : {"queue.conserve", "queue.budget", "epoch.stamp", "epoch.load", "epoch.exempt",
                         "epoch.counted", "verb.atomic"}) {
    EXPECT_GT(r.judged.count(id) ? r.judged.at(id) : 0, 0) << id;
  }
  EXPECT_TRUE(r.violations.empty());
}

TEST(RunReal, check_invariants_reports_what_the_server_shows) {
  const Scenario s = parse(std::string(header) +
                           "at 0 a: EMQ.ADD q j1 x => 1\n"
                           "at 0 a: EMQ.ADD q j2 x => 1\n"
                           "at 0 op: HSET \"emq:{q}:job:j1\" state done\n"
                           "at 0 op: ZREM \"emq:{q}:pending\" j2\n"
                           "at 1 check invariants\n");
  const RunResult r = run_on_real(s, server_bin());
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_EQ(r.failure->line, 7);
  EXPECT_EQ(r.failure->invariant, "queue.conserve");
  EXPECT_NE(r.failure->actual.find("j1 is in pending but its row says state done"), std::string::npos)
      << r.failure->actual;
  ASSERT_EQ(r.violations.size(), 2u);
  EXPECT_NE(r.violations[1].facts.find("the row of j2 says state pending but the id is in no set"),
            std::string::npos)
      << r.violations[1].facts;
}

TEST(RunReal, a_lost_reply_runs_the_call_and_drops_the_clients_connection) {
  const Scenario s = parse(std::string(header) +
                           "at 0 lose p\n"
                           "at 0 p: EMQ.ADD q j1 x => 1\n"
                           "at 0 p: EMQ.ADD q j1 x => 0\n"
                           "at 0 check invariants\n");
  EXPECT_EQ(real_skip_reason(s, server_bin()), "");
  const RunResult r = run_differential(s, server_bin());
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  ASSERT_EQ(r.calls.size(), 2u);
  EXPECT_TRUE(r.calls[0].lost);
  EXPECT_EQ(r.calls[0].reply, Reply::integer(1));  // what the server answered
  EXPECT_FALSE(r.calls[1].lost);
}

TEST(RunReal, a_failover_promotes_the_copy_taken_at_the_sims_last_replica_sync) {
  // lag 100: the replica syncs at the step at 100 (before it runs) and after the restart at
  // 250; the add at 300 is after that copy and is lost; the add at 150 survives.
  const Scenario s = parse("scenario \"t\"\noption seed 1\noption replication_lag_ms 100\n"
                           "at 0 p: EMQ.ADD q j1 x => 1\n"
                           "at 100 p: EMQ.ADD q j2 x => 1\n"
                           "at 150 p: EMQ.ADD q j3 x => 1\n"
                           "at 250 restart\n"
                           "at 300 p: EMQ.ADD q j4 x => 1\n"
                           "at 320 failover\n"
                           "at 320 check set q pending j1 j2 j3\n"
                           "at 320 a: EMQ.EPOCH => _\n"
                           "at 320 check invariants\n");
  const RunResult r = run_differential(s, server_bin());
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  EXPECT_EQ(r.incarnations, 3);
}

TEST(RunReal, clock_steps_need_a_server_the_runner_starts) {
  RealTarget target;
  target.host = "127.0.0.1";
  target.port = 1;
  EXPECT_EQ(real_skip_reason(parse(std::string(header) + "at 5 clock +10\n"), target),
            "clock +10 at line 3: the runner can do it only to servers it starts (use --server-bin)");
  EXPECT_EQ(real_skip_reason(parse(std::string(header) + "at 5 failover\n"), target),
            "failover at line 3: the runner can do it only to servers it starts (use --server-bin)");
  EXPECT_EQ(real_skip_reason(parse(std::string(header) + "at 5 failover\n"), server_bin()), "");
}

// A temporary directory, removed at the end of the test.
struct TempDir {
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "trafikey-clock-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path path;
};

std::string faked_date(const real::FakeClock& clock) {
  std::string command = "env";
  for (const std::string& e : clock.env()) command += " '" + e + "'";
  command += " date -u +%s";
  FILE* out = ::popen(command.c_str(), "r");
  if (out == nullptr) return "(popen failed)";
  char text[64] = {};
  const bool read = std::fgets(text, sizeof text, out) != nullptr;
  ::pclose(out);
  return read ? text : "(no output)";
}

TEST(RunReal, the_fake_clock_sets_the_wall_clock_of_a_process_started_on_it) {
  TempDir dir;
  real::FakeClock clock(dir.path, 86'400'000, 0.0);  // held at one day after the epoch
  EXPECT_EQ(faked_date(clock), "86400\n");
  clock.set(172'800'500, 0.0);
  EXPECT_EQ(faked_date(clock), "172800\n");
  // At rate 1 it runs with true time from the value set.
  clock.set(1'000'000'000'000, 1.0);
  const long long now = std::atoll(faked_date(clock).c_str());
  EXPECT_GE(now, 1'000'000'000LL);
  EXPECT_LE(now, 1'000'000'005LL);
}

// The server Debian 12 ships hung under libfaketime; under the shim it starts, and its
// TIME, the module's time and a restarted process all follow the clock page.
TEST(RunReal, a_real_server_runs_on_the_fake_clock_and_follows_each_change) {
  TempDir dir;
  real::FakeClock clock(dir.path, 5'000, 0.0);
  real::RealServer server(real::ServerConfig{TRAFIKEY_MODULE_PATH, {}, {}, clock.env()});
  real::ServerConnection c = server.connect();
  EXPECT_EQ(c.call({"TIME"}), Reply::array_of(Reply::bulk("5"), Reply::bulk("0")));
  clock.set(7'250, 0.0);
  EXPECT_EQ(c.call({"TIME"}), Reply::array_of(Reply::bulk("7"), Reply::bulk("250000")));
  c.call({"EMQ.ADD", "q", "j1", "x"});
  c.call({"EMQ.CLAIM", "q", "400"});
  EXPECT_EQ(c.call({"ZSCORE", "emq:{q}:active", "j1"}), Reply::bulk("7650")) << "the lease's deadline";
  server.restart();
  c = server.connect();
  EXPECT_EQ(c.call({"TIME"}), Reply::array_of(Reply::bulk("7"), Reply::bulk("250000")));
}

// The server's clock is the sim's: held at the sim's server time at each step, so time
// scores match the sim's exactly, a step and a drift included.
TEST(RunReal, the_server_clock_reads_the_sims_server_time_at_every_step) {
  const Scenario s = parse(std::string(header) +
                           "at 0 p: EMQ.ADD q j1 x => 1\n"
                           "at 0 p: EMQ.ADD q j2 x => 1\n"
                           "at 10 w: EMQ.CLAIM q 400 => _\n"
                           "at 20 clock +1000\n"
                           "at 30 drift 2\n"
                           "at 40 w: EMQ.CLAIM q 400 => _\n"
                           "at 40 a: ZRANGE \"emq:{q}:active\" 0 -1 WITHSCORES => [j1 \"410\" j2 \"1450\"]\n"
                           "at 50 w: EMQ.COMPLETE q j2 1 => 1\n"
                           "at 50 a: ZSCORE \"emq:{q}:done\" j2 => \"1070\"\n");
  const RunResult r = run_differential(s, server_bin());
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  EXPECT_TRUE(r.clocks_agree);
}

TEST(RunReal, a_server_that_does_not_start_fails_the_file_with_the_reason) {
  RealTarget target = server_bin();
  target.server_bin = "/bin/false";
  const RunResult r = run_on_real(parse(std::string(header) + "at 0 a: EMQ.ADD q j1 x => 1\n"), target);
  ASSERT_EQ(r.status, CheckStatus::failed);
  EXPECT_NE(r.failure->actual.find("real_server"), std::string::npos) << r.failure->actual;
}

TEST(RunReal, the_differential_check_compares_replies_and_final_keys) {
  const Scenario same = parse(std::string(header) +
                              "at 0 p: EMQ.ADD q j1 x => 1\n"
                              "at 0 w: EMQ.CLAIM q 100 => _\n"
                              "at 0 w: EMQ.COMPLETE q j1 1 => _\n"
                              "at 0 a: ZRANGE \"emq:{q}:done\" 0 -1 WITHSCORES => _\n");
  const RunResult agree = run_differential(same, server_bin());
  EXPECT_EQ(agree.status, CheckStatus::passed) << why(agree);
  EXPECT_EQ(agree.judged.at("sim.differential"), 1);
  EXPECT_FALSE(agree.final_keys.empty());

  // The sim's plain ZADD takes no flags (sim/plain.h); a real server's does.
  const RunResult differ = run_differential(parse(std::string(header) + "at 0 a: ZADD z NX 1 m => _\n"), server_bin());
  ASSERT_EQ(differ.status, CheckStatus::failed);
  EXPECT_EQ(differ.failure->invariant, "sim.differential");
  EXPECT_EQ(differ.failure->line, 3);
}

// --cluster 3: each queue's calls go to its slot's owner (q and orders live on different
// nodes), sweeps are judged against that node's run_id, and the differential check holds.
TEST(RunReal, on_a_cluster_each_queue_is_served_by_its_slots_owner) {
  RealTarget target = server_bin();
  target.cluster_primaries = 3;
  const Scenario s = parse(std::string(header) +
                           "at 0 p: EMQ.ADD q j1 x => 1\n"
                           "at 0 p: EMQ.ADD orders o1 y => 1\n"
                           "at 0 w: EMQ.CLAIM q 1 => [[j1 1 x]]\n"
                           "at 0 w: EMQ.CLAIM orders 60000 => [[o1 1 y]]\n"
                           "at 20 reload\n"  // every node: both queues' rows and leases come back
                           "at 20 check set orders active o1\n"
                           "at 20 check row q j1 state=active attempts=1\n"
                           "at 1000 s: EMQ.STALLED.CHECK q 3 => [recovered [j1] dead [] ghosts [] lanes []]\n"
                           "at 1000 w: EMQ.COMPLETE orders o1 1 => 1\n"
                           "at 1000 a: HGET \"emq:{q}:job:j1\" stalled => \"1\"\n"
                           "at 1000 check invariants\n");
  const RunResult r = run_differential(s, target);
  EXPECT_EQ(r.status, CheckStatus::passed) << why(r);
  EXPECT_FALSE(r.clocks_agree) << "a cluster keeps true time";
  EXPECT_EQ(r.judged.at("epoch.counted"), 1);
  EXPECT_EQ(real_skip_reason(parse(std::string(header) + "at 5 restart\n"), target),
            "restart at line 3: not on a cluster (--cluster): the runner restarts, fails over and sets the clock "
            "of a lone server only (module.Cluster.* covers a cluster failover)");
}

}  // namespace
}  // namespace trafikey::scenario
