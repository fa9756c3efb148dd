// Writes replicate as effects (shared spec EMQ §4): after a run of every verb, a replica
// and an AOF reload hold the primary's keyspace byte for byte (DEBUG DIGEST), although the
// verbs read the primary's clock and run_id. The AOF holds the concrete commands only,
// never an EMQ verb.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

std::string lowercase_aof_text(const std::filesystem::path& dir) {
  std::string all;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename().string().find(".aof") ==
                                        std::string::npos) {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    all += text.str();
  }
  std::transform(all.begin(), all.end(), all.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return all;
}

// Every verb, every sweep verdict (ghost, lane, exempt, counted recovered, counted dead).
void run_every_verb(ServerConnection& c) {
  auto expect = [&c](std::vector<std::string> call, std::string_view reply) {
    EXPECT_EQ(show(c.call(call)), reply) << call[0];
  };
  expect({"EMQ.ADD", "q", "a", "pa"}, "1");
  expect({"EMQ.ADD", "q", "b", "pb", "MAXFAILURES", "1"}, "1");
  expect({"EMQ.ADD", "q", "c", "pc"}, "1");
  expect({"EMQ.ADD", "q", "d", "pd"}, "1");
  expect({"EMQ.ADD", "q", "a", "again"}, "0");
  expect({"EMQ.CLAIM", "q", "60000", "COUNT", "2"}, R"([["a" 1 "pa"] ["b" 1 "pb"]])");
  expect({"EMQ.EXTEND", "q", "a", "1", "60000"}, "1");
  expect({"EMQ.EXTENDS", "q", "60000", "a", "1", "b", "1", "c", "1"}, "[1 1 0]");
  expect({"EMQ.COMPLETE", "q", "a", "1", "result"}, "1");
  expect({"EMQ.FAIL", "q", "b", "1", "boom"}, "2");
  expect({"EMQ.CLAIM", "q", "60000"}, R"([["c" 1 "pc"]])");
  expect({"EMQ.FAIL", "q", "c", "1", "oops"}, "1");
  // pending is now d (seq 4), c (seq 5): claim both with a lease that runs out at once
  expect({"EMQ.CLAIM", "q", "1", "COUNT", "2"}, R"([["d" 1 "pd"] ["c" 2 "pc"]])");
  // a ghost, a lane row and an unstamped lease in active, all long expired
  expect({"ZADD", "emq:{q}:active", "1", "ghost", "1", "lane", "1", "old"}, "3");
  expect({"HSET", "emq:{q}:job:lane", "state", "active", "group", "g"}, "2");
  expect({"HSET", "emq:{q}:job:old", "state", "active", "attempts", "1"}, "2");
  std::this_thread::sleep_for(20ms);
  expect({"EMQ.STALLED.CHECK", "q", "2"}, sweep({"old", "c", "d"}, {}, {"ghost"}, {"lane"}));
  expect({"EMQ.CLAIM", "q", "1"}, R"([["c" 3 "pc"]])");
  std::this_thread::sleep_for(20ms);
  expect({"EMQ.STALLED.CHECK", "q", "2", "LIMIT", "10"}, sweep({}, {"c"}, {}, {"lane"}));
  expect({"EMQ.STATS", "q"}, R"(["pending" 2 "active" 1 "done" 1 "dead" 2])");
  EXPECT_EQ(c.call({"EMQ.JOB", "q", "a"}).kind(), Reply::Kind::array);
  EXPECT_EQ(show(c.call({"EMQ.JOB", "q", "nope"})), "nil");
}

TEST(ModuleReplication, a_replica_and_an_aof_reload_hold_the_primary_bytes) {
  // no wait before the initial (diskless) sync: the default delays it 5 s
  RealServer primary(with_module({"--repl-diskless-sync-delay", "0"}));
  RealServer replica(with_module());
  auto p = primary.connect();
  auto r = replica.connect();
  ASSERT_EQ(show(r.call({"REPLICAOF", "127.0.0.1", std::to_string(primary.port())})), "+OK");
  ASSERT_TRUE(wait_until([&] { return info_field(r, "replication", "master_link_status") == "up"; }))
      << replica.log();

  run_every_verb(p);
  ASSERT_EQ(show(p.call({"WAIT", "1", "5000"})), "1");
  const std::string primary_digest = digest(p);
  ASSERT_NE(primary_digest, std::string(40, '0'));
  EXPECT_EQ(digest(r), primary_digest);
  // The replica holds the primary's stamp, not its own run_id.
  EXPECT_EQ(show(r.call({"HGET", "emq:{q}:job:d", "lease_epoch"})), show(Reply::bulk(epoch_of(p))));
  EXPECT_NE(epoch_of(r), epoch_of(p));

  // The AOF: concrete commands, never a verb; a reload and a restart rebuild the same bytes.
  const std::string aof = lowercase_aof_text(primary.dir());
  EXPECT_NE(aof.find("hset"), std::string::npos);
  EXPECT_EQ(aof.find("emq."), std::string::npos) << "an EMQ verb reached the AOF";
  EXPECT_EQ(show(p.call({"DEBUG", "LOADAOF"})), "+OK");
  EXPECT_EQ(digest(p), primary_digest);
  primary.restart();
  auto p2 = primary.connect();
  EXPECT_EQ(digest(p2), primary_digest);
}

}  // namespace
}  // namespace trafikey::real::test
