// RedisModule_OnLoad against a fake server API (no server): the epoch read refuses the load
// with the seed's warning when the run_id cannot be read or is malformed, a busy name is
// refused before anything is created, and a good load registers every verb of the core's
// table with its flags and a NOT_KEY key spec on the queue name. The real-server tests
// cover the same load on a real process; these cover the refusals a healthy server never
// shows.
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "core/commands.h"
#include "module/abi.h"

extern "C" int RedisModule_OnLoad(trafikey::abi::Ctx* ctx, trafikey::abi::String** argv,
                                  int argc);

namespace trafikey::abi {
namespace {

constexpr const char* good_run_id = "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812";

struct Created {
  std::string name;
  std::string flags;
  int first_key, last_key, key_step;
  CmdFunc fn;
};

struct KeySpecSeen {
  std::string command;
  std::uint64_t flags;
  int pos, lastkey, keystep;
  bool terminated;
  bool sizes_match;
};

// What the fake server is told to answer, and what it saw.
struct FakeServer {
  const char* run_id = good_run_id;  // nullptr: the field is missing
  bool info_missing = false;
  bool name_busy = false;
  std::vector<std::string> events;  // in call order: "attribs", "create NAME", "info NAME"
  std::vector<std::string> logs;    // "level message"
  std::vector<Created> created;
  std::vector<KeySpecSeen> key_specs;
  std::deque<std::string> command_names;  // GetCommand handles point in here
  std::vector<std::string> replies;        // what a command answered, one token per reply call
};
FakeServer fake;

int fake_is_busy(const char*) { return fake.name_busy ? 1 : 0; }
void fake_attribs(Ctx*, const char*, int, int) { fake.events.push_back("attribs"); }
int fake_create(Ctx*, const char* name, CmdFunc fn, const char* flags, int first, int last,
                int step) {
  fake.events.push_back(std::string("create ") + name);
  fake.created.push_back({name, flags, first, last, step, fn});
  return ok;
}
Command* fake_get_command(Ctx*, const char* name) {
  fake.command_names.emplace_back(name);
  return reinterpret_cast<Command*>(&fake.command_names.back());
}
int fake_set_info(Command* command, const CommandInfo* info) {
  const auto& name = *reinterpret_cast<std::string*>(command);
  fake.events.push_back("info " + name);
  const CommandKeySpec& spec = info->key_specs[0];
  fake.key_specs.push_back({name, spec.flags, spec.bs.index.pos, spec.fk.range.lastkey,
                            spec.fk.range.keystep, info->key_specs[1].begin_search_type == 0,
                            info->version->sizeof_keyspec == sizeof(CommandKeySpec)});
  return ok;
}
void fake_log(Ctx*, const char* level, const char* fmt, ...) {
  char buffer[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, ap);
  va_end(ap);
  fake.logs.push_back(std::string(level) + " " + buffer);
}
int info_handle;  // GetServerInfo's handle points here
ServerInfo* fake_get_info(Ctx*, const char* section) {
  if (fake.info_missing || std::string(section) != "server") return nullptr;
  return reinterpret_cast<ServerInfo*>(&info_handle);
}
const char* fake_field(ServerInfo*, const char* field) {
  return std::string(field) == "run_id" ? fake.run_id : nullptr;
}
void fake_free_info(Ctx*, ServerInfo*) {}
const char* fake_string_ptr(const String* s, std::size_t* len) {
  const auto* str = reinterpret_cast<const std::string*>(s);
  *len = str->size();
  return str->data();
}
int fake_reply_bulk(Ctx*, const char* buf, std::size_t len) {
  fake.replies.push_back("bulk " + std::string(buf, len));
  return ok;
}
int fake_reply_error(Ctx*, const char* text) {
  fake.replies.push_back(std::string("error ") + text);
  return ok;
}
int fake_reply_integer(Ctx*, long long value) {
  fake.replies.push_back("integer " + std::to_string(value));
  return ok;
}
int fake_unused() { return err; }  // stands in for every function a load never calls

const std::map<std::string, void*>& api_table() {
  static const std::map<std::string, void*> table = {
      {"RedisModule_IsModuleNameBusy", reinterpret_cast<void*>(&fake_is_busy)},
      {"RedisModule_SetModuleAttribs", reinterpret_cast<void*>(&fake_attribs)},
      {"RedisModule_CreateCommand", reinterpret_cast<void*>(&fake_create)},
      {"RedisModule_GetCommand", reinterpret_cast<void*>(&fake_get_command)},
      {"RedisModule_SetCommandInfo", reinterpret_cast<void*>(&fake_set_info)},
      {"RedisModule_Log", reinterpret_cast<void*>(&fake_log)},
      {"RedisModule_GetServerInfo", reinterpret_cast<void*>(&fake_get_info)},
      {"RedisModule_ServerInfoGetFieldC", reinterpret_cast<void*>(&fake_field)},
      {"RedisModule_FreeServerInfo", reinterpret_cast<void*>(&fake_free_info)},
      {"RedisModule_StringPtrLen", reinterpret_cast<void*>(&fake_string_ptr)},
      {"RedisModule_ReplyWithStringBuffer", reinterpret_cast<void*>(&fake_reply_bulk)},
      {"RedisModule_ReplyWithError", reinterpret_cast<void*>(&fake_reply_error)},
      {"RedisModule_ReplyWithLongLong", reinterpret_cast<void*>(&fake_reply_integer)},
  };
  return table;
}

int fake_get_api(const char* name, void* out) {
  const auto& table = api_table();
  const auto it = table.find(name);
  void* fn = it != table.end() ? it->second : reinterpret_cast<void*>(&fake_unused);
  *static_cast<void**>(out) = fn;
  return ok;
}

struct FakeCtx {
  void* get_api = reinterpret_cast<void*>(&fake_get_api);
};

int load(FakeServer setup) {
  fake = std::move(setup);
  FakeCtx ctx;
  return RedisModule_OnLoad(reinterpret_cast<Ctx*>(&ctx), nullptr, 0);
}

const std::string refused_log = "warning trafikey: emq epoch not loaded: ERR EMQ host call failed";

TEST(ModuleLoadUnit, a_malformed_run_id_refuses_the_load_with_the_warning) {
  for (const char* bad : {"", "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f7081",
                          "3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812",
                          "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f7081g",
                          "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f708123"}) {
    SCOPED_TRACE(bad);
    FakeServer setup;
    setup.run_id = bad;
    EXPECT_EQ(load(std::move(setup)), err);
    EXPECT_EQ(fake.logs, std::vector<std::string>{refused_log});
    EXPECT_TRUE(fake.created.empty()) << "no command of a refused load";
  }
}

TEST(ModuleLoadUnit, a_failed_run_id_read_refuses_the_load_with_the_warning) {
  FakeServer missing_field;
  missing_field.run_id = nullptr;
  EXPECT_EQ(load(std::move(missing_field)), err);
  EXPECT_EQ(fake.logs, std::vector<std::string>{refused_log});
  EXPECT_TRUE(fake.created.empty());

  FakeServer missing_section;
  missing_section.info_missing = true;
  EXPECT_EQ(load(std::move(missing_section)), err);
  EXPECT_EQ(fake.logs, std::vector<std::string>{refused_log});
  EXPECT_TRUE(fake.created.empty());
}

TEST(ModuleLoadUnit, a_busy_name_is_refused_before_anything_is_created) {
  FakeServer busy;
  busy.name_busy = true;
  EXPECT_EQ(load(std::move(busy)), err);
  EXPECT_TRUE(fake.events.empty()) << "not even the module record";
  ASSERT_EQ(fake.logs.size(), 1u);
  EXPECT_EQ(fake.logs[0], "warning trafikey: a module named trafikey is already loaded");
}

TEST(ModuleLoadUnit, a_good_load_registers_every_verb_with_flags_and_a_not_key_queue) {
  ASSERT_EQ(load(FakeServer{}), ok);
  EXPECT_TRUE(fake.logs.empty());
  ASSERT_FALSE(fake.events.empty());
  EXPECT_EQ(fake.events[0], "attribs") << "the module record comes first";

  const auto table = command_table();
  ASSERT_EQ(fake.created.size(), table.size());
  std::size_t keyed = 0;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const CommandSpec& spec = table[i];
    const Created& c = fake.created[i];
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.name, spec.name);
    EXPECT_EQ(c.flags, spec.flags);
    EXPECT_EQ(c.flags, spec.writes ? "write deny-oom" : "readonly fast");
    EXPECT_EQ(c.first_key, spec.first_key);
    EXPECT_EQ(c.last_key, spec.last_key);
    EXPECT_EQ(c.key_step, spec.key_step);
    if (spec.first_key == 0) continue;
    ASSERT_LT(keyed, fake.key_specs.size());
    const KeySpecSeen& k = fake.key_specs[keyed++];
    EXPECT_EQ(k.command, spec.name);
    EXPECT_TRUE(k.flags & key_not_key);
    EXPECT_EQ(k.flags & (key_ro | key_rw), spec.writes ? key_rw : key_ro);
    EXPECT_EQ(k.pos, 1);
    EXPECT_EQ(k.lastkey, 0);
    EXPECT_EQ(k.keystep, 1);
    EXPECT_TRUE(k.terminated);
    EXPECT_TRUE(k.sizes_match);
  }
  EXPECT_EQ(keyed, fake.key_specs.size());
}

// Runs one registered verb through the module's entry point with the fake's strings.
std::vector<std::string> run(std::vector<std::string> argv) {
  fake.replies.clear();
  std::vector<String*> args;
  for (auto& a : argv) args.push_back(reinterpret_cast<String*>(&a));
  FakeCtx ctx;
  fake.created.front().fn(reinterpret_cast<Ctx*>(&ctx), args.data(),
                          static_cast<int>(args.size()));
  return fake.replies;
}

TEST(ModuleLoadUnit, the_epoch_is_read_once_per_process_and_a_second_load_keeps_it) {
  ASSERT_EQ(load(FakeServer{}), ok);
  EXPECT_EQ(run({"EMQ.EPOCH"}), std::vector<std::string>{std::string("bulk ") + good_run_id});

  FakeServer other;
  other.run_id = "0000000000000000000000000000000000000000";
  ASSERT_EQ(load(std::move(other)), ok);
  EXPECT_EQ(run({"emq.epoch"}), std::vector<std::string>{std::string("bulk ") + good_run_id})
      << "one process, one run_id";
  EXPECT_EQ(run({"EMQ.EPOCH", "x"}),
            std::vector<std::string>{"error ERR EMQ wrong number of arguments"});
}

}  // namespace
}  // namespace trafikey::abi
