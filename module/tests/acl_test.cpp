// Access (shared spec EMQ §6): before its first write a verb asks the server's ACL whether
// the calling user may write every key it will write. A user allowed only to read the
// queue's keys gets NOPERM from every writer, with nothing written, and can still use the
// readers: the queue name is declared as a NOT_KEY key (module.cpp), so the server's own
// key check does not ask for access to the literal name.
#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

std::string noperm(std::string_view key) {
  return show(Reply::error("NOPERM EMQ no write access to " + std::string(key)));
}

TEST(ModuleAcl, a_read_only_user_gets_noperm_from_every_writer_and_nothing_changes) {
  RealServer server(with_module());
  auto admin = server.connect();
  // Work for every writer: pending jobs, two live leases, one expired lease.
  for (std::string_view id : {"a", "b", "c", "d"}) {
    ASSERT_EQ(show(admin.call({"EMQ.ADD", "q", id, "p"})), "1");
  }
  ASSERT_EQ(show(admin.call({"EMQ.CLAIM", "q", "60000", "COUNT", "2"})),
            R"([["a" 1 "p"] ["b" 1 "p"]])");
  ASSERT_EQ(show(admin.call({"EMQ.CLAIM", "q", "1"})), R"([["c" 1 "p"]])");
  std::this_thread::sleep_for(20ms);
  ASSERT_EQ(show(admin.call({"ACL", "SETUSER", "reader", "on", ">pw", "resetkeys",
                             "%R~emq:{q}:*", "+@all"})),
            "+OK");
  ASSERT_EQ(show(admin.call({"ACL", "SETUSER", "writer", "on", ">pw", "resetkeys",
                             "~emq:{q}:*", "+@all"})),
            "+OK");
  const std::string before = digest(admin);

  auto reader = server.connect();
  ASSERT_EQ(show(reader.call({"AUTH", "reader", "pw"})), "+OK");
  const std::vector<std::pair<std::vector<std::string>, std::string>> writers = {
      {{"EMQ.ADD", "q", "z", "p"}, "emq:{q}:job:z"},
      {{"EMQ.CLAIM", "q", "1000"}, "emq:{q}:pending"},
      {{"EMQ.EXTEND", "q", "a", "1", "1000"}, "emq:{q}:active"},
      {{"EMQ.EXTENDS", "q", "1000", "a", "1", "b", "1"}, "emq:{q}:active"},
      {{"EMQ.COMPLETE", "q", "a", "1"}, "emq:{q}:active"},
      {{"EMQ.FAIL", "q", "a", "1", "boom"}, "emq:{q}:active"},
      {{"EMQ.STALLED.CHECK", "q", "3"}, "emq:{q}:active"},
  };
  for (const auto& [call, key] : writers) {
    SCOPED_TRACE(call[0]);
    EXPECT_EQ(show(reader.call(call)), noperm(key));
    EXPECT_EQ(digest(admin), before);
  }

  // The readers need no access to a key named "q".
  EXPECT_EQ(show(reader.call({"EMQ.STATS", "q"})),
            R"(["pending" 1 "active" 3 "done" 0 "dead" 0])");
  EXPECT_EQ(reader.call({"EMQ.JOB", "q", "d"}).kind(), Reply::Kind::array);
  EXPECT_EQ(reader.call({"EMQ.EPOCH"}).kind(), Reply::Kind::bulk);

  // A user who may write the queue's keys (and still not a key named "q") writes.
  auto writer = server.connect();
  ASSERT_EQ(show(writer.call({"AUTH", "writer", "pw"})), "+OK");
  EXPECT_EQ(show(writer.call({"EMQ.ADD", "q", "z", "p"})), "1");
  EXPECT_NE(digest(admin), before);
}

// The ACL the scenario runner's `deny KEY` sets (real_server.h acl_rules_writing_all_but):
// the server's own matcher lets the user write every key but KEY, the ones that share a
// prefix with it, extend it or hold glob's special characters included, and read them all.
TEST(ModuleAcl, the_rules_writing_all_but_one_key_deny_that_key_alone) {
  RealServer server(with_module());
  auto admin = server.connect();
  for (const std::string denied : {"emq:{q}:job:j1", "a*b?[c]\\^-d", "x", "q long\tqueue\x80\xff"}) {
    SCOPED_TRACE(denied);
    std::vector<std::string> setuser{"ACL", "SETUSER", "one", "reset", "on", "nopass", "+@all"};
    for (std::string& rule : acl_rules_writing_all_but(denied)) setuser.push_back(std::move(rule));
    ASSERT_EQ(show(admin.call(setuser)), "+OK");
    auto may = [&](const std::string& command, const std::string& key) {
      const std::vector<std::string> args = command == "SET" ? std::vector<std::string>{"SET", key, "v"}
                                                             : std::vector<std::string>{"GET", key};
      std::vector<std::string> dryrun{"ACL", "DRYRUN", "one"};
      dryrun.insert(dryrun.end(), args.begin(), args.end());
      return show(admin.call(dryrun)) == "+OK";
    };
    EXPECT_FALSE(may("SET", denied));
    EXPECT_TRUE(may("GET", denied));
    const std::vector<std::string> others{denied.substr(0, denied.size() - 1),
                                          denied.substr(0, 1),
                                          denied + "1",
                                          denied + denied,
                                          "z" + denied,
                                          denied.substr(0, denied.size() - 1) + "?",
                                          "emq:{q}:job:j2",
                                          "emq:{q}:active"};
    for (const std::string& other : others) {
      if (other == denied || other.empty()) continue;
      EXPECT_TRUE(may("SET", other)) << other;
    }
  }
}

}  // namespace
}  // namespace trafikey::real::test
