// Loading and registration: one module named trafikey per server, every verb of the core's
// table registered with its flags and key positions, and a server without the module
// knowing no EMQ verb.
#include <algorithm>

#include "core/commands.h"
#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

TEST(ModuleLoad, a_second_load_under_the_same_name_is_refused) {
  RealServer server(with_module({"--enable-module-command", "local"}));
  auto c = server.connect();
  const std::string epoch = epoch_of(c);
  const Reply again = c.call({"MODULE", "LOAD", TRAFIKEY_MODULE_PATH});
  EXPECT_TRUE(again.is_error() && again.text().starts_with("ERR")) << show(again);
  const std::string modules = show(c.call({"MODULE", "LIST"}));
  EXPECT_NE(modules.find("\"trafikey\""), std::string::npos) << modules;
  EXPECT_EQ(modules.find("\"trafikey\""), modules.rfind("\"trafikey\"")) << modules;
  EXPECT_EQ(epoch_of(c), epoch) << "the loaded instance is untouched";
  EXPECT_EQ(show(c.call({"EMQ.ADD", "q", "a", "p"})), "1");
  EXPECT_NE(server.log().find("a module named trafikey is already loaded"), std::string::npos);
}

TEST(ModuleLoad, a_server_without_the_module_answers_unknown_command) {
  RealServer server;
  auto c = server.connect();
  for (const CommandSpec& spec : command_table()) {
    const std::string name(spec.name);
    const Reply reply = c.call({name, "q", "a", "1", "1"});
    EXPECT_TRUE(reply.is_error() && reply.text().starts_with("ERR unknown command '" + name + "'"))
        << show(reply);
  }
  EXPECT_EQ(digest(c), std::string(40, '0'));
}

TEST(ModuleLoad, every_verb_is_registered_with_its_flags_and_key_positions) {
  RealServer server(with_module());
  auto c = server.connect();
  for (const CommandSpec& spec : command_table()) {
    const std::string name(spec.name);
    SCOPED_TRACE(name);
    const Reply info = c.call({"COMMAND", "INFO", name});
    ASSERT_EQ(info.kind(), Reply::Kind::array);
    ASSERT_EQ(info.items().size(), 1u);
    const auto& fields = info.items()[0].items();
    ASSERT_GE(fields.size(), 9u) << show(info);
    std::vector<std::string> flags;
    for (const Reply& flag : fields[2].items()) flags.push_back(flag.text());
    std::sort(flags.begin(), flags.end());
    const std::vector<std::string> want = spec.writes
                                              ? std::vector<std::string>{"denyoom", "module", "write"}
                                              : std::vector<std::string>{"fast", "module", "readonly"};
    EXPECT_EQ(flags, want);
    EXPECT_EQ(fields[3].as_integer(), spec.first_key);
    EXPECT_EQ(fields[4].as_integer(), spec.last_key);
    EXPECT_EQ(fields[5].as_integer(), spec.key_step);
    // The queue name is a key for routing only (see module.cpp).
    const std::string key_specs = show(fields[8]);
    EXPECT_EQ(key_specs.find("not_key") != std::string::npos, spec.first_key != 0) << key_specs;
  }
}

TEST(ModuleLoad, the_queue_name_routes_the_call_to_its_slot_in_a_cluster) {
  RealServer server(with_module({"--cluster-enabled", "yes", "--cluster-config-file",
                                 "nodes.conf", "--cluster-require-full-coverage", "no"}));
  auto c = server.connect();
  const Reply slot = c.call({"CLUSTER", "KEYSLOT", "q"});
  ASSERT_EQ(slot.kind(), Reply::Kind::integer);
  // q's keys carry the tag {q}, so the literal name hashes to their slot
  ASSERT_EQ(show(c.call({"CLUSTER", "KEYSLOT", "emq:{q}:pending"})), show(slot));
  ASSERT_NE(show(c.call({"CLUSTER", "KEYSLOT", "other"})), show(slot));

  const std::string not_served = show(Reply::error("CLUSTERDOWN Hash slot not served"));
  EXPECT_EQ(show(c.call({"EMQ.STATS", "q"})), not_served);
  EXPECT_EQ(c.call({"EMQ.EPOCH"}).kind(), Reply::Kind::bulk) << "no key: served anywhere";

  ASSERT_EQ(show(c.call({"CLUSTER", "ADDSLOTS", std::to_string(slot.as_integer())})), "+OK");
  // A lone primary turns its cluster state ok a moment after start.
  Reply added = Reply::nil();
  ASSERT_TRUE(wait_until([&] {
    added = c.call({"EMQ.ADD", "q", "a", "p"});
    return !added.is_error();
  }))
      << show(added);
  EXPECT_EQ(show(added), "1");
  EXPECT_EQ(show(c.call({"EMQ.STATS", "other"})), not_served);
}

}  // namespace
}  // namespace trafikey::real::test
