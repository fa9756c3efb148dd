// trafikey.so: RedisModule_OnLoad and the one command entry point every EMQ verb shares.
//
// Load order (MODULE-ABI.md, "Loading"): look the API up, refuse a second module named
// trafikey, create the module record, read the epoch (refusing the load when it cannot be
// read: shared seed "One value per process"), then register every verb of the core's
// command table with its flags and key positions.
//
// Key positions: the queue name q is declared as the key so cluster routing sends a
// queue's calls to q's slot (every key of q carries the tag {q}, so the literal q hashes to
// the same slot). q is not a real key, though, so it is declared with a key spec flagged
// NOT_KEY: the server routes by it but its ACL key check ignores it. Otherwise a user
// allowed only ~emq:{q}:* would be refused on the literal "q" by the server before the verb
// runs; the verb's own access check (ModuleHost::may_write) covers the real keys. (Checked
// on Redis 7.0.15: with the legacy key positions alone such a user gets the server's
// "NOPERM this user has no permissions to access one of the keys used as arguments".) A
// consequence: the server no longer gates the readers (EMQ.STATS, EMQ.JOB) on key access;
// the spec asks for a write check only.
//
// Version notes: SetCommandInfo and the NOT_KEY flag exist since Redis 7.0 (and in Valkey
// 7.2+/8); the legacy (first, last, step) still given to CreateCommand is what COMMAND INFO
// prints and what cluster routing uses, rebuilt by the server from our single key spec.
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/commands.h"
#include "core/epoch.h"
#include "core/errors.h"
#include "module/abi.h"
#include "module/host.h"
#include "module/send_reply.h"

namespace trafikey::module {
namespace {

using abi::api;

constexpr const char* module_name = "trafikey";
constexpr int module_version = 1;

// The process's one epoch: loaded once at OnLoad, read by every verb.
Epoch process_epoch;

int run_command(abi::Ctx* ctx, abi::String** argv, int argc) {
  try {
    std::vector<std::string_view> args;
    args.reserve(static_cast<std::size_t>(argc));
    for (int i = 0; i < argc; ++i) {
      std::size_t len = 0;
      const char* ptr = api.StringPtrLen(argv[i], &len);
      args.emplace_back(ptr, len);
    }
    // Every verb is registered with this function; argv[0] names which one was called.
    const CommandSpec* spec = args.empty() ? nullptr : find_command(args[0]);
    if (spec == nullptr) {
      send_reply(ctx, errors::error(errors::host_call));
      return abi::ok;
    }
    ModuleHost host(ctx, process_epoch);
    send_reply(ctx, execute(host, *spec, args));
  } catch (const std::exception&) {
    // Nothing may unwind into the server. Only allocation can throw here, and it does so
    // in the read pass or while building the reply, never between two writes.
    api.ReplyWithError(ctx, std::string(errors::host_call).c_str());
  }
  return abi::ok;
}

// Declares argv[first..last] (the queue name) as a NOT_KEY key spec; see the file comment.
bool declare_queue_key(abi::Ctx* ctx, const CommandSpec& spec, const std::string& name) {
  abi::Command* command = api.GetCommand(ctx, name.c_str());
  if (command == nullptr) return false;
  abi::CommandKeySpec specs[2] = {};
  specs[0].flags = abi::key_not_key | (spec.writes ? (abi::key_rw | abi::key_update)
                                                   : (abi::key_ro | abi::key_access));
  specs[0].begin_search_type = abi::kspec_bs_index;
  specs[0].bs.index.pos = spec.first_key;
  specs[0].find_keys_type = abi::kspec_fk_range;
  specs[0].fk.range.lastkey = spec.last_key - spec.first_key;
  specs[0].fk.range.keystep = spec.key_step;
  specs[0].fk.range.limit = 0;
  abi::CommandInfo info = {};
  info.version = &abi::command_info_version;
  info.key_specs = specs;  // specs[1] is the all-zero terminator
  return api.SetCommandInfo(command, &info) == abi::ok;
}

bool register_commands(abi::Ctx* ctx) {
  for (const CommandSpec& spec : command_table()) {
    const std::string name(spec.name);
    const std::string flags(spec.flags);
    if (api.CreateCommand(ctx, name.c_str(), run_command, flags.c_str(), spec.first_key,
                          spec.last_key, spec.key_step) != abi::ok) {
      api.Log(ctx, "warning", "trafikey: cannot create command %s", name.c_str());
      return false;
    }
    if (spec.first_key != 0 && !declare_queue_key(ctx, spec, name)) {
      api.Log(ctx, "warning", "trafikey: cannot declare the key spec of %s", name.c_str());
      return false;
    }
  }
  return true;
}

// The environment variable an unload leaves the grant counter in (on_unload).
std::string grants_variable() {
  const auto run_id = process_epoch.current();
  return "TRAFIKEY_LAST_GRANT_" + std::string(run_id.ok() ? run_id.value() : "");
}

int on_load(abi::Ctx* ctx) {
  std::string missing;
  if (!abi::load(ctx, missing)) {
    if (api.Log) {
      api.Log(ctx, "warning", "trafikey: the server lacks RedisModule_%s", missing.c_str());
    }
    return abi::err;
  }
  // MODULE LOAD of the same file again reaches this function in the same image: touch
  // nothing of the loaded instance before refusing.
  if (api.IsModuleNameBusy(module_name)) {
    api.Log(ctx, "warning", "trafikey: a module named %s is already loaded", module_name);
    return abi::err;
  }
  api.SetModuleAttribs(ctx, module_name, module_version, abi::apiver_1);

  const Status epoch = process_epoch.load(read_run_id(ctx));
  if (!epoch.ok()) {
    api.Log(ctx, "warning", "trafikey: emq epoch not loaded: %s", epoch.error().text().c_str());
    return abi::err;
  }
  // §8: grant numbers start above the server's time at this load, and above the last
  // number an unload of this module left in this process (a clock that went back between
  // the two would otherwise hand a number out again)
  if (const char* left = std::getenv(grants_variable().c_str())) {
    if (const auto last = parse_int64(left)) process_epoch.resume_grants(*last);
  }
  process_epoch.start_grants(static_cast<std::int64_t>(api.Milliseconds()));
  return register_commands(ctx) ? abi::ok : abi::err;
}

// MODULE UNLOAD frees this image, the grant counter with it: the last number goes into
// the process's environment, which outlives the image, under this process's run_id (a
// variable a parent passed down names another process and is never read).
int on_unload() {
  if (!process_epoch.loaded()) return abi::ok;
  ::setenv(grants_variable().c_str(), std::to_string(process_epoch.last_grant()).c_str(), 1);
  return abi::ok;
}

}  // namespace
}  // namespace trafikey::module

extern "C" __attribute__((visibility("default"))) int RedisModule_OnUnload(trafikey::abi::Ctx* /*ctx*/) {
  try {
    return trafikey::module::on_unload();
  } catch (const std::exception&) {
    return trafikey::abi::ok;  // the unload goes ahead; the next load starts at its time
  }
}

extern "C" __attribute__((visibility("default"))) int RedisModule_OnLoad(
    trafikey::abi::Ctx* ctx, trafikey::abi::String** /*argv*/, int /*argc*/) {
  try {
    return trafikey::module::on_load(ctx);
  } catch (const std::exception&) {
    return trafikey::abi::err;
  }
}
