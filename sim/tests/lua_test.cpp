// Scripting on the simulated server (sim/lua.h): EVAL/EVALSHA/SCRIPT over the embedded
// Lua 5.1, the reply conversions both ways, the per-process script cache, the sandbox, and
// the benchmarks' scripted executor (bench/scripts/*.lua, run as the very same files)
// leaving the same rows and replies as the native verbs, apart from lease_epoch.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "core/reply.h"
#include "core/text.h"
#include "sim/executor_scripts.h"
#include "sim/keyspace.h"
#include "sim/lua.h"
#include "sim/server.h"
#include "sim/tests/replies.h"

namespace trafikey::sim {
namespace {

using namespace test_replies;

struct ScriptServer {
  ScriptServer() { server.start(std::string(40, 'a')); }
  Reply call(const std::vector<std::string>& argv) {
    std::vector<std::string_view> v(argv.begin(), argv.end());
    return server.call(v);
  }
  Reply eval(const std::string& body, const std::vector<std::string>& keys = {},
             const std::vector<std::string>& args = {}) {
    std::vector<std::string> argv{"EVAL", body, std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return call(argv);
  }
  Keyspace data;
  SimServer server{data};
};

TEST(Lua, script_values_become_replies_as_on_a_server) {
  ScriptServer s;
  EXPECT_EQ(s.eval("return 7"), Int(7));
  EXPECT_EQ(s.eval("return 3.9"), Int(3)) << "numbers are truncated to integers";
  EXPECT_EQ(s.eval("return -3.9"), Int(-3));
  EXPECT_EQ(s.eval("return 'a b'"), Bulk("a b"));
  EXPECT_EQ(s.eval("return true"), Int(1));
  EXPECT_EQ(s.eval("return false"), Reply::nil());
  EXPECT_EQ(s.eval("return nil"), Reply::nil());
  EXPECT_EQ(s.eval("return {1, 'b', {2}, nil, 5}"), Arr({Int(1), Bulk("b"), Arr({Int(2)})}))
      << "an array stops at its first nil";
  EXPECT_EQ(s.eval("return redis.error_reply('ERR EMQ bad job id')"), Err("ERR EMQ bad job id"));
  EXPECT_EQ(s.eval("return redis.status_reply('FINE')"), Reply::simple("FINE"));
  EXPECT_EQ(s.eval("return {KEYS[1], ARGV[2], #KEYS, #ARGV}", {"k"}, {"a", "b"}),
            Arr({Bulk("k"), Bulk("b"), Int(1), Int(2)}));
}

TEST(Lua, redis_call_reaches_the_keyspace_and_converts_replies) {
  ScriptServer s;
  EXPECT_EQ(s.eval("return redis.call('HSET', KEYS[1], 'f', ARGV[1])", {"h"}, {"v"}), Int(1));
  EXPECT_EQ(s.call({"HGET", "h", "f"}), Bulk("v")) << "the write went through the server";
  EXPECT_EQ(s.eval("return redis.call('TYPE', KEYS[1])['ok']", {"h"}), Bulk("hash"));
  EXPECT_EQ(s.eval("return redis.call('HGET', KEYS[1], 'nope') == false", {"h"}), Int(1))
      << "a nil bulk is false in Lua";
  EXPECT_EQ(s.eval("redis.call('ZADD', KEYS[1], 2, 'b') redis.call('ZADD', KEYS[1], 1, 'a') "
                   "return redis.call('ZRANGE', KEYS[1], 0, -1)",
                   {"z"}),
            Arr({Bulk("a"), Bulk("b")}));
  EXPECT_EQ(s.eval("return redis.call('ZRANGE', KEYS[1], 1, 1.0 + 0)", {"z"}), Arr({Bulk("b")}))
      << "numbers are sent as Lua prints them";
  s.server.set_now_ms(12345);
  EXPECT_EQ(s.eval("return redis.call('TIME')"), Arr({Bulk("12"), Bulk("345000")}));
}

TEST(Lua, an_error_reply_ends_the_script_and_pcall_catches_it) {
  ScriptServer s;
  EXPECT_EQ(s.eval("redis.call('HSET', KEYS[1], 'f', 'v') redis.call('INCR', KEYS[1]) return 1", {"h"}),
            Err("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(s.call({"HGET", "h", "f"}), Bulk("v")) << "writes before the error stay";
  EXPECT_EQ(s.eval("local r = redis.pcall('INCR', KEYS[1]) return r['err']", {"h"}),
            Bulk("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(s.eval("return redis.call('FLUSHALL')"),
            Err("ERR Unknown Redis command called from script"));
  const Reply runtime = s.eval("return nosuch.field");
  ASSERT_TRUE(runtime.is_error());
  EXPECT_EQ(runtime.text().rfind("ERR ", 0), 0u) << runtime.text();
  const Reply compile = s.eval("return (");
  ASSERT_TRUE(compile.is_error());
  EXPECT_EQ(compile.text().rfind("ERR Error compiling script", 0), 0u) << compile.text();
}

TEST(Lua, eval_refuses_bad_key_counts) {
  ScriptServer s;
  EXPECT_EQ(s.call({"EVAL", "return 1", "x"}), Err("ERR value is not an integer or out of range"));
  EXPECT_EQ(s.call({"EVAL", "return 1", "-1"}), Err("ERR Number of keys can't be negative"));
  EXPECT_EQ(s.call({"EVAL", "return 1", "2", "k"}),
            Err("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(s.call({"EVAL", "return 1"}), Err("ERR wrong number of arguments for 'eval' command"));
}

TEST(Lua, the_script_cache_belongs_to_the_process) {
  ScriptServer s;
  const std::string body = "return ARGV[1]";
  const std::string sha = Scripting::sha1_hex(body);
  EXPECT_EQ(sha.size(), 40u);
  EXPECT_EQ(Scripting::sha1_hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(s.call({"EVALSHA", sha, "0", "x"}), Err("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(s.call({"SCRIPT", "LOAD", body}), Bulk(sha));
  EXPECT_EQ(s.call({"EVALSHA", sha, "0", "x"}), Bulk("x"));
  EXPECT_EQ(s.call({"EVALSHA", upper(sha), "0", "y"}), Bulk("y")) << "digests in any case";
  EXPECT_EQ(s.call({"SCRIPT", "EXISTS", sha, std::string(40, '0')}), Arr({Int(1), Int(0)}));
  s.server.start(std::string(40, 'b'));  // a restart: a new process
  EXPECT_EQ(s.call({"EVALSHA", sha, "0", "x"}), Err("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(s.eval(body, {}, {"z"}), Bulk("z"));
  EXPECT_EQ(s.call({"EVALSHA", sha, "0", "x"}), Bulk("x")) << "EVAL caches what it ran";
  EXPECT_EQ(s.call({"SCRIPT", "FLUSH"}), Reply::simple("OK"));
  EXPECT_EQ(s.call({"SCRIPT", "EXISTS", sha}), Arr({Int(0)}));
  EXPECT_TRUE(s.call({"SCRIPT", "LOAD", "return ("}).is_error());
}

TEST(Lua, the_sandbox_has_no_io_os_or_random) {
  ScriptServer s;
  EXPECT_EQ(s.eval("return type(os) .. type(io) .. type(math.random) .. type(loadstring)"),
            Bulk("nilnilnilnil"));
  EXPECT_EQ(s.eval("return string.format('%d', 2^53 - 1)"), Bulk("9007199254740991"));
  EXPECT_EQ(s.eval("x = 1 return x"), Int(1));
  EXPECT_EQ(s.eval("return x"), Reply::nil()) << "each call starts from a fresh state";
}

// ---- the benchmarks' scripted executor, as the very same files

std::string script(const std::string& name) {
  const auto text = read_file(std::string(TRAFIKEY_SCRIPTS_DIR) + "/" + name);
  if (!text) ADD_FAILURE() << "cannot read " << name;
  return text.value_or("");
}

// Generated runs' scripted workers run the copies embedded at build time: byte for byte
// the files, known by the digest SCRIPT LOAD answers.
TEST(Lua, the_embedded_executor_scripts_are_the_files) {
  const std::pair<ExecutorScript, const char*> scripts[] = {
      {ExecutorScript::claim, "claim.lua"}, {ExecutorScript::extend, "extend.lua"},
      {ExecutorScript::complete, "complete.lua"}};
  for (const auto& [which, name] : scripts) {
    const std::string body = script(name);
    EXPECT_EQ(executor_script_body(which), body) << name;
    EXPECT_EQ(executor_script_sha(which), Scripting::sha1_hex(body)) << name;
    EXPECT_EQ(executor_script_of_sha(Scripting::sha1_hex(body)), which) << name;
    EXPECT_EQ(executor_script_of_body(body), which) << name;
  }
  EXPECT_EQ(executor_script_of_sha(Scripting::sha1_hex("return 1")), ExecutorScript::none);
}

// The row without lease_epoch and lease (the scripts write neither: the seed says so of the
// stamp, EMQ §8 of the grant id).
Reply row_without_stamp(ScriptServer& s, const std::string& id) {
  const Reply all = s.call({"HGETALL", "emq:{q}:job:" + id});
  Reply out = Arr();
  for (std::size_t i = 0; i + 1 < all.items().size(); i += 2) {
    if (all.items()[i].text() == "lease_epoch" || all.items()[i].text() == "lease") continue;
    out.items().push_back(all.items()[i]);
    out.items().push_back(all.items()[i + 1]);
  }
  return out;
}

Reply set_with_scores(ScriptServer& s, const std::string& set) {
  return s.call({"ZRANGE", "emq:{q}:" + set, "0", "-1", "WITHSCORES"});
}

TEST(Lua, the_scripted_executor_leaves_what_the_native_verbs_leave) {
  ScriptServer native, scripted;
  for (ScriptServer* s : {&native, &scripted}) {
    s->server.set_now_ms(1000);
    for (const char* id : {"j1", "j2", "j3"}) {
      ASSERT_EQ(s->call({"EMQ.ADD", "q", id, std::string("p-") + id}), Int(1));
    }
    ASSERT_EQ(s->call({"DEL", "emq:{q}:job:j2"}), Int(1));  // j2 becomes a ghost
  }
  const std::string claim = script("claim.lua"), extend = script("extend.lua"),
                    complete = script("complete.lua");

  // CLAIM COUNT 2: the ghost is removed, not counted.
  const Reply want_claim = native.call({"EMQ.CLAIM", "q", "500", "COUNT", "2"});
  EXPECT_EQ(want_claim, Arr({Arr({Bulk("j1"), Int(1), Bulk("p-j1")}), Arr({Bulk("j3"), Int(1), Bulk("p-j3")})}));
  EXPECT_EQ(scripted.eval(claim, {"emq:{q}:pending", "emq:{q}:active"}, {"500", "2"}), want_claim);

  for (ScriptServer* s : {&native, &scripted}) s->server.set_now_ms(1400);
  EXPECT_EQ(native.call({"EMQ.EXTEND", "q", "j1", "1", "700"}), Int(1));
  EXPECT_EQ(scripted.eval(extend, {"emq:{q}:active", "emq:{q}:job:j1"}, {"j1", "1", "700"}), Int(1));
  EXPECT_EQ(native.call({"EMQ.EXTEND", "q", "j3", "2", "700"}), Int(0)) << "a stale token";
  EXPECT_EQ(scripted.eval(extend, {"emq:{q}:active", "emq:{q}:job:j3"}, {"j3", "2", "700"}), Int(0));

  for (ScriptServer* s : {&native, &scripted}) s->server.set_now_ms(1500);
  EXPECT_EQ(native.call({"EMQ.COMPLETE", "q", "j1", "1", "ok"}), Int(1));
  EXPECT_EQ(scripted.eval(complete, {"emq:{q}:active", "emq:{q}:done", "emq:{q}:job:j1"}, {"j1", "1", "ok"}),
            Int(1));
  // at its very deadline (1500) a lease is live (EMQ §3) for either executor: to 1501
  EXPECT_EQ(native.call({"EMQ.EXTEND", "q", "j3", "1", "1"}), Int(1));
  EXPECT_EQ(scripted.eval(extend, {"emq:{q}:active", "emq:{q}:job:j3"}, {"j3", "1", "1"}), Int(1))
      << "a lease at its deadline";
  for (ScriptServer* s : {&native, &scripted}) s->server.set_now_ms(1502);  // j3's deadline was 1501
  EXPECT_EQ(native.call({"EMQ.COMPLETE", "q", "j3", "1"}), Int(0)) << "an expired lease";
  EXPECT_EQ(scripted.eval(complete, {"emq:{q}:active", "emq:{q}:done", "emq:{q}:job:j3"}, {"j3", "1"}),
            Int(0));

  for (const char* id : {"j1", "j2", "j3"}) {
    EXPECT_EQ(row_without_stamp(scripted, id), row_without_stamp(native, id)) << id;
  }
  for (const char* set : {"pending", "active", "done", "dead"}) {
    EXPECT_EQ(set_with_scores(scripted, set), set_with_scores(native, set)) << set;
  }
  EXPECT_EQ(scripted.call({"HGET", "emq:{q}:job:j3", "lease_epoch"}), Reply::nil())
      << "the scripted executor writes no stamp";
  EXPECT_EQ(native.call({"HGET", "emq:{q}:job:j3", "lease_epoch"}), Bulk(std::string(40, 'a')));
  EXPECT_EQ(scripted.call({"HGET", "emq:{q}:job:j3", "lease"}), Reply::nil()) << "nor a grant id";
  EXPECT_EQ(native.call({"HGET", "emq:{q}:job:j3", "lease"}).text().rfind(std::string(40, 'a') + "-", 0), 0u);

  // The scripts' own refusals match the verbs' texts.
  EXPECT_EQ(scripted.eval(claim, {"emq:{q}:pending", "emq:{q}:active"}, {"0", "1"}),
            native.call({"EMQ.CLAIM", "q", "0"}));
  EXPECT_EQ(scripted.eval(extend, {"emq:{q}:active", "emq:{q}:job:j1"}, {"", "1", "5"}),
            native.call({"EMQ.EXTEND", "q", "", "1", "5"}));
}

}  // namespace
}  // namespace trafikey::sim
