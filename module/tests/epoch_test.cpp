// The epoch at load (shared seed "One value per process"; shared spec EMQ §2): EMQ.EPOCH is
// INFO server's run_id, read once per process, and a restart changes both together.
#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

TEST(ModuleEpoch, equals_run_id_and_changes_with_it_across_a_restart) {
  RealServer server(with_module());
  auto c = server.connect();
  const std::string first = epoch_of(c);
  EXPECT_EQ(first.size(), 40u);
  EXPECT_EQ(first, info_field(c, "server", "run_id"));
  EXPECT_EQ(epoch_of(c), first) << "cached: the same value on every call";

  server.restart();  // a new process on the same data directory
  auto again = server.connect();
  const std::string second = epoch_of(again);
  EXPECT_EQ(second, info_field(again, "server", "run_id"));
  EXPECT_NE(second, first);
}

TEST(ModuleEpoch, a_runtime_module_load_reads_the_running_process_run_id) {
  RealServer server(ServerConfig{{}, {"--enable-module-command", "local"}, {}, {}});  // no module yet
  auto c = server.connect();
  ASSERT_EQ(show(c.call({"MODULE", "LOAD", TRAFIKEY_MODULE_PATH})), "+OK");
  EXPECT_EQ(epoch_of(c), info_field(c, "server", "run_id"));
}

}  // namespace
}  // namespace trafikey::real::test
