// What a crash loses, made exact: the harness cuts a stopped server's append-only file back
// to a length it recorded, so the restarted process holds exactly the writes made before
// it (the scenario runner's restart under everysec and snapshot, RealSession::restart_keeping).
#include "module/tests/test_support.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace trafikey::real::test {
namespace {

TEST(RealServerAof, a_cut_file_restarts_with_exactly_the_writes_before_the_cut) {
  RealServer server(ServerConfig{{}, {"--appendfsync", "always", "--auto-aof-rewrite-percentage", "0"}, {}, {}});
  auto c = server.connect();
  ASSERT_EQ(show(c.call({"SET", "kept", "1"})), "+OK");
  const std::uintmax_t after_kept = server.aof_length();
  ASSERT_GT(after_kept, 0u);
  ASSERT_EQ(show(c.call({"SET", "lost", "2"})), "+OK");
  ASSERT_EQ(show(c.call({"HSET", "row", "state", "active"})), "1");
  EXPECT_GT(server.aof_length(), after_kept) << "every write is in the file as soon as it is answered";
  EXPECT_THROW(server.cut_aof(after_kept), std::runtime_error) << "never under a running server";

  server.kill();
  server.cut_aof(after_kept);
  server.start();
  auto again = server.connect();
  EXPECT_EQ(show(again.call({"GET", "kept"})), "\"1\"");
  EXPECT_EQ(show(again.call({"EXISTS", "lost", "row"})), "0");
  EXPECT_EQ(server.aof_length(), after_kept) << "the new process appends after the cut";
  EXPECT_THROW(
      {
        server.kill();
        server.cut_aof(after_kept + 1);
      },
      std::runtime_error)
      << "a file cannot be cut longer than it is";
}

// The first of valkey-server and redis-server on PATH (dev.sh installs redis-server).
std::string server_name_on_path() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::vector<std::string> list;
  for (std::string dir; std::getline(dirs, dir, ':');) list.push_back(dir);
  for (const char* name : {"valkey-server", "redis-server"}) {
    for (const std::string& dir : list) {
      if (!dir.empty() && ::access((std::filesystem::path(dir) / name).c_str(), X_OK) == 0) return name;
    }
  }
  return {};
}

TEST(RealServerAof, a_bare_server_name_is_found_on_path_or_named_as_missing) {
  const std::string name = server_name_on_path();
  ASSERT_FALSE(name.empty()) << "neither valkey-server nor redis-server is on PATH (dev.sh deps installs redis-server)";
  RealServer found(ServerConfig{{}, {}, name, {}});
  EXPECT_EQ(show(found.connect().call({"PING"})), "+PONG");
  try {
    RealServer missing(ServerConfig{{}, {}, "no-such-server-binary", {}});
    ADD_FAILURE() << "a server that does not exist started";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "real_server: no-such-server-binary is not on PATH");
  }
}

}  // namespace
}  // namespace trafikey::real::test
