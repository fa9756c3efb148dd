// The scripted executor (bench/scripts/*.lua) run as the very same files on the simulated
// server (its embedded Lua 5.1, sim/lua.h) and on a real one: the differential check
// requires the same replies and the same final keyspace, call by call. This is what lets
// generated runs mix scripted and native workers on the sim and trust the result.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "core/text.h"
#include "module/harness/real_server.h"
#include "scenarios/runner/run_real.h"

namespace trafikey {
inline void PrintTo(const Reply& reply, std::ostream* os) { *os << debug_string(reply); }
}  // namespace trafikey

namespace trafikey::scenario {
namespace {

std::string script(const std::string& name) {
  const auto text = read_file(std::string(TRAFIKEY_SCRIPTS_DIR) + "/" + name);
  if (!text) ADD_FAILURE() << "cannot read " << name;
  return text.value_or("");
}

Step call(std::string client, std::vector<std::string> argv) {
  return Step{0, 0, Call{std::move(client), std::move(argv), std::nullopt}};
}

TEST(ScriptsReal, the_bench_scripts_agree_with_the_real_server_call_by_call) {
  const std::string claim = script("claim.lua"), extend = script("extend.lua"),
                    complete = script("complete.lua");
  const std::string pending = "emq:{q}:pending", active = "emq:{q}:active", done = "emq:{q}:done";
  Scenario s;
  s.title = "the scripted executor on both servers";
  for (const char* id : {"j1", "j2", "j3", "j4"}) {
    s.steps.push_back(call("p", {"EMQ.ADD", "q", id, std::string("payload ") + id}));
  }
  s.steps.push_back(call("op", {"DEL", "emq:{q}:job:j2"}));  // a ghost in pending
  s.steps.push_back(call("w", {"EVAL", claim, "2", pending, active, "60000", "2"}));
  s.steps.push_back(call("w", {"EVAL", claim, "2", pending, active, "60000", "0"}));  // refused
  s.steps.push_back(call("w", {"EVAL", extend, "2", active, "emq:{q}:job:j1", "j1", "1", "60000"}));
  s.steps.push_back(call("w", {"EVAL", extend, "2", active, "emq:{q}:job:j3", "j3", "7", "60000"}));
  s.steps.push_back(call("w", {"EVAL", complete, "3", active, done, "emq:{q}:job:j1", "j1", "1", "ok"}));
  s.steps.push_back(call("w", {"EVAL", complete, "3", active, done, "emq:{q}:job:j1", "j1", "1"}));
  s.steps.push_back(call("n", {"EMQ.CLAIM", "q", "60000"}));  // native beside scripted: j4
  s.steps.push_back(call("w", {"EVAL", complete, "3", active, done, "emq:{q}:job:j4", "j4", "1"}));
  s.steps.push_back(call("w", {"EVAL", complete, "3", active, done, "emq:{q}:job:j9", "", "1"}));

  RealTarget target;
  target.server_bin = real::find_server_binary();
  target.module_path = TRAFIKEY_MODULE_PATH;
  ASSERT_FALSE(target.server_bin.empty());
  const RunResult r = run_differential(s, target);
  EXPECT_EQ(r.status, CheckStatus::passed)
      << (r.failure ? describe_failure("scripts", *r.failure) : r.skip_reason);
  ASSERT_EQ(r.calls.size(), s.steps.size());
  // The replies the scripts gave, as the sim saw them (the real server agreed above).
  EXPECT_EQ(debug_string(r.calls[5].reply), debug_string(Reply::array_of(
      Reply::array_of(Reply::bulk("j1"), Reply::integer(1), Reply::bulk("payload j1")),
      Reply::array_of(Reply::bulk("j3"), Reply::integer(1), Reply::bulk("payload j3")))));
  EXPECT_EQ(r.calls[6].reply, Reply::error("ERR EMQ count must be an integer in 1..1000"));
  EXPECT_EQ(r.calls[7].reply, Reply::integer(1));
  EXPECT_EQ(r.calls[8].reply, Reply::integer(0));
  EXPECT_EQ(r.calls[9].reply, Reply::integer(1));
  EXPECT_EQ(r.calls[10].reply, Reply::integer(0));
  EXPECT_EQ(r.calls[12].reply, Reply::integer(1)) << "j4's lease is native, token 1: live";
  EXPECT_EQ(r.calls[13].reply, Reply::error("ERR EMQ bad job id"));
}

}  // namespace
}  // namespace trafikey::scenario
