// The seed's four histories of one lease ("One lease across a restart"), each ending in
// the same sweep, on a real server with real restarts and real waits. Each history runs on
// two queues of the same server at once, one swept with max_stalled 1 and one with 3.
//
//   counted     claimed and expired under the live server: counted (1 -> dead, 3 -> stalled 1)
//   restart     claimed, the server restarts, the lease expires: exempt at both settings
//   re-stamped  claimed, restart, EXTEND stamps the new process, expires: counted
//   no stamp    a row written before the stamp existed (plain HSET/ZADD): exempt
#include "module/tests/test_support.h"

#include <map>

#include "core/args.h"

namespace trafikey::real::test {
namespace {

constexpr std::string_view short_lease_ms = "200";
constexpr auto past_short_lease = 300ms;

struct Lane {
  std::string queue;
  std::string max_stalled;
};
const Lane lanes[] = {{"m1", "1"}, {"m3", "3"}};

void add_and_claim(ServerConnection& c, const std::string& q, std::string_view lease_ms) {
  ASSERT_EQ(show(c.call({"EMQ.ADD", q, "job", "work"})), "1");
  ASSERT_EQ(show(c.call({"EMQ.CLAIM", q, lease_ms})), R"([["job" 1 "work"]])");
}

// The grant id the CLAIM wrote (EMQ §8): the granting process's run_id, '-', a number
// above the server's time in microseconds at the module's load (which came after
// `loaded_after_us`, the test's wall clock before the server started).
std::string grant_of(ServerConnection& c, const std::string& q, const std::string& epoch,
                     std::int64_t loaded_after_us) {
  const Reply lease = c.call({"HGET", "emq:{" + q + "}:job:job", "lease"});
  const std::string& text = lease.text();
  EXPECT_EQ(text.rfind(epoch + "-", 0), 0u) << text;
  const auto n = parse_int64(std::string_view(text).substr(std::min(text.size(), epoch.size() + 1)));
  EXPECT_TRUE(n && *n > loaded_after_us) << text << " after " << loaded_after_us;
  return text;
}

std::int64_t wall_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(ModuleLeaseAcrossRestart, expired_under_a_live_server_is_counted) {
  const std::int64_t started_us = wall_us() - 1000;  // a millisecond's slack: Milliseconds() truncates
  RealServer server(with_module());
  auto c = server.connect();
  const std::string epoch = epoch_of(c);
  for (const auto& l : lanes) add_and_claim(c, l.queue, short_lease_ms);
  const std::string grant1 = grant_of(c, "m1", epoch, started_us), grant3 = grant_of(c, "m3", epoch, started_us);
  EXPECT_NE(grant1, grant3) << "no two grants of a process share an id";
  std::this_thread::sleep_for(past_short_lease);

  EXPECT_EQ(show(c.call({"EMQ.STALLED.CHECK", "m1", "1"})), sweep({}, {"job"}));
  EXPECT_EQ(show(c.call({"EMQ.JOB", "m1", "job"})),
            row({{"attempts", "1"}, {"dead_reason", "stalled"}, {"failures", "0"}, {"lease", grant1},
                 {"lease_epoch", epoch}, {"max_failures", "3"}, {"payload", "work"},
                 {"stalled", "1"}, {"state", "dead"}}));
  EXPECT_EQ(show(c.call({"EMQ.STALLED.CHECK", "m3", "3"})), sweep({"job"}, {}));
  EXPECT_EQ(show(c.call({"EMQ.JOB", "m3", "job"})),
            row({{"attempts", "1"}, {"failures", "0"}, {"lease", grant3}, {"lease_epoch", epoch},
                 {"max_failures", "3"}, {"payload", "work"}, {"stalled", "1"},
                 {"state", "pending"}}));
}

TEST(ModuleLeaseAcrossRestart, expired_across_a_restart_is_exempt) {
  const std::int64_t started_us = wall_us() - 1000;
  RealServer server(with_module());
  auto c = server.connect();
  const std::string before = epoch_of(c);
  const auto claimed_at = std::chrono::steady_clock::now();
  std::map<std::string, std::string> grants;
  for (const auto& l : lanes) {
    add_and_claim(c, l.queue, short_lease_ms);
    grants[l.queue] = grant_of(c, l.queue, before, started_us);
  }

  server.restart();
  auto after = server.connect();
  ASSERT_NE(epoch_of(after), before);
  std::this_thread::sleep_until(claimed_at + past_short_lease);

  for (const auto& l : lanes) {
    SCOPED_TRACE(l.queue);
    // the server went away, not the worker: back to pending, stalled not written
    EXPECT_EQ(show(after.call({"EMQ.STALLED.CHECK", l.queue, l.max_stalled})),
              sweep({"job"}, {}));
    EXPECT_EQ(show(after.call({"EMQ.JOB", l.queue, "job"})),
              row({{"attempts", "1"}, {"failures", "0"}, {"lease", grants[l.queue]}, {"lease_epoch", before},
                   {"max_failures", "3"}, {"payload", "work"}, {"state", "pending"}}));
  }
}

TEST(ModuleLeaseAcrossRestart, extended_after_a_restart_is_restamped_then_counted) {
  const std::int64_t started_us = wall_us() - 1000;
  RealServer server(with_module());
  auto c = server.connect();
  const std::string before = epoch_of(c);
  // long enough to outlive the restart, so the EXTEND finds the lease live
  std::map<std::string, std::string> grants;
  for (const auto& l : lanes) {
    add_and_claim(c, l.queue, "30000");
    grants[l.queue] = grant_of(c, l.queue, before, started_us);
  }

  server.restart();
  auto after = server.connect();
  const std::string now_epoch = epoch_of(after);
  ASSERT_NE(now_epoch, before);
  for (const auto& l : lanes) {
    ASSERT_EQ(show(after.call({"EMQ.EXTEND", l.queue, "job", "1", short_lease_ms})), "1");
    EXPECT_EQ(show(after.call({"HGET", "emq:{" + l.queue + "}:job:job", "lease_epoch"})),
              show(Reply::bulk(now_epoch)));
  }
  std::this_thread::sleep_for(past_short_lease);

  EXPECT_EQ(show(after.call({"EMQ.STALLED.CHECK", "m1", "1"})), sweep({}, {"job"}));
  EXPECT_EQ(show(after.call({"EMQ.JOB", "m1", "job"})),
            row({{"attempts", "1"}, {"dead_reason", "stalled"}, {"failures", "0"}, {"lease", grants["m1"]},
                 {"lease_epoch", now_epoch}, {"max_failures", "3"}, {"payload", "work"},
                 {"stalled", "1"}, {"state", "dead"}}));
  EXPECT_EQ(show(after.call({"EMQ.STALLED.CHECK", "m3", "3"})), sweep({"job"}, {}));
  EXPECT_EQ(show(after.call({"EMQ.JOB", "m3", "job"})),
            row({{"attempts", "1"}, {"failures", "0"}, {"lease", grants["m3"]}, {"lease_epoch", now_epoch},
                 {"max_failures", "3"}, {"payload", "work"}, {"stalled", "1"},
                 {"state", "pending"}}));
}

TEST(ModuleLeaseAcrossRestart, a_lease_without_stamp_is_exempt) {
  RealServer server(with_module());
  auto c = server.connect();
  for (const auto& l : lanes) {
    // an active lease as written before the stamp existed: no lease_epoch field
    const std::string row_key = "emq:{" + l.queue + "}:job:job";
    ASSERT_EQ(show(c.call({"HSET", row_key, "state", "active", "payload", "work", "attempts", "1",
                           "failures", "0", "max_failures", "3"})),
              "5");
    ASSERT_EQ(show(c.call({"ZADD", "emq:{" + l.queue + "}:active", "1", "job"})), "1");
  }
  for (const auto& l : lanes) {
    SCOPED_TRACE(l.queue);
    EXPECT_EQ(show(c.call({"EMQ.STALLED.CHECK", l.queue, l.max_stalled})), sweep({"job"}, {}));
    EXPECT_EQ(show(c.call({"EMQ.JOB", l.queue, "job"})),
              row({{"attempts", "1"}, {"failures", "0"}, {"max_failures", "3"},
                   {"payload", "work"}, {"state", "pending"}}));
  }
}

}  // namespace
}  // namespace trafikey::real::test
