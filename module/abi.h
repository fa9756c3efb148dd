// The module ABI subset trafikey uses, declared by the project itself (no server header is
// packaged, and we do not copy one). Facts: shared design MODULE-ABI.md; the struct layouts
// and constants below were checked against the Redis 7.0 and Valkey 8 module sources.
//
// The server hands OnLoad a context whose first pointer-sized field is GetApi; load()
// looks every function up by name and fills `api`. Until load() succeeded no pointer in
// `api` may be called. The table is process-wide (one module per process).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace trafikey::abi {

// Opaque server types: only ever handled through pointers the server gave us.
struct Ctx;
struct String;
struct CallReply;
struct User;
struct ServerInfo;
struct Command;
struct Key;

inline constexpr int ok = 0;
inline constexpr int err = 1;
inline constexpr int apiver_1 = 1;

// RedisModule_CallReplyType
inline constexpr int reply_string = 0;
inline constexpr int reply_error = 1;
inline constexpr int reply_integer = 2;
inline constexpr int reply_array = 3;
inline constexpr int reply_null = 4;

// RedisModule_OpenKey modes
inline constexpr int key_open_read = 1 << 0;
inline constexpr int key_open_write = 1 << 1;

// RedisModule_KeyType
inline constexpr int keytype_empty = 0;
inline constexpr int keytype_string = 1;
inline constexpr int keytype_list = 2;
inline constexpr int keytype_hash = 3;
inline constexpr int keytype_set = 4;
inline constexpr int keytype_zset = 5;

// RedisModule_HashGet / HashSet flags: none (fields and values are module strings)
inline constexpr int hash_none = 0;

// RedisModule_ZsetAdd output flags
inline constexpr int zadd_added = 1 << 2;
inline constexpr int zadd_updated = 1 << 3;

// RedisModule_NotifyKeyspaceEvent classes (NOTIFY_* in server.h)
inline constexpr int notify_generic = 1 << 2;
inline constexpr int notify_hash = 1 << 6;
inline constexpr int notify_zset = 1 << 7;

// RedisModule_GetContextFlags
inline constexpr int ctx_flags_primary = 1 << 2;
inline constexpr int ctx_flags_replica = 1 << 3;
inline constexpr int ctx_flags_readonly = 1 << 4;
inline constexpr int ctx_flags_loading = 1 << 13;

// Key-spec flags (REDISMODULE_CMD_KEY_*): used by SetCommandInfo key specs and, for the
// ACCESS/UPDATE/INSERT/DELETE subset, by ACLCheckKeyPermissions.
inline constexpr std::uint64_t key_ro = 1ULL << 0;
inline constexpr std::uint64_t key_rw = 1ULL << 1;
inline constexpr std::uint64_t key_access = 1ULL << 4;
inline constexpr std::uint64_t key_update = 1ULL << 5;
inline constexpr std::uint64_t key_insert = 1ULL << 6;
inline constexpr std::uint64_t key_delete = 1ULL << 7;
// A "fake" key: cluster routing uses it, ACL key checks ignore it.
inline constexpr std::uint64_t key_not_key = 1ULL << 8;

// RedisModuleCommandKeySpec (C enums are int-sized on every ABI we target).
inline constexpr int kspec_bs_index = 2;    // begin search at a fixed argv index
inline constexpr int kspec_fk_range = 2;    // then take a range of keys

struct CommandKeySpec {
  const char* notes;
  std::uint64_t flags;
  int begin_search_type;
  union {
    struct {
      int pos;
    } index;
    struct {
      const char* keyword;
      int startfrom;
    } keyword;
  } bs;
  int find_keys_type;
  union {
    struct {
      int lastkey;
      int keystep;
      int limit;
    } range;
    struct {
      int keynumidx;
      int firstkey;
      int keystep;
    } keynum;
  } fk;
};

struct CommandHistoryEntry {
  const char* since;
  const char* changes;
};

// The server steps through our arrays with these sizes, so a newer server reads an older
// module's structs correctly.
struct CommandInfoVersion {
  int version;  // 1
  std::size_t sizeof_historyentry;
  std::size_t sizeof_keyspec;
  std::size_t sizeof_arg;  // we never pass args
};

struct CommandInfo {
  const CommandInfoVersion* version;
  const char* summary;
  const char* complexity;
  const char* since;
  CommandHistoryEntry* history;
  const char* tips;
  int arity;  // 0 keeps the server's (module commands: -1, so the core checks arity)
  CommandKeySpec* key_specs;  // terminated by an all-zero entry
  void* args;
};

inline constexpr CommandInfoVersion command_info_version{1, sizeof(CommandHistoryEntry),
                                                         sizeof(CommandKeySpec), 0};

static_assert(sizeof(void*) != 8 || sizeof(CommandKeySpec) == 56,
              "RedisModuleCommandKeySpec is 56 bytes on LP64");

using CmdFunc = int (*)(Ctx* ctx, String** argv, int argc);

// Every function we use. The names are the API names without the RedisModule_ prefix.
struct Api {
  // loading and commands
  int (*IsModuleNameBusy)(const char* name) = nullptr;
  void (*SetModuleAttribs)(Ctx* ctx, const char* name, int ver, int apiver) = nullptr;
  int (*CreateCommand)(Ctx* ctx, const char* name, CmdFunc fn, const char* flags,
                       int firstkey, int lastkey, int keystep) = nullptr;
  Command* (*GetCommand)(Ctx* ctx, const char* name) = nullptr;
  int (*SetCommandInfo)(Command* command, const CommandInfo* info) = nullptr;
  void (*Log)(Ctx* ctx, const char* level, const char* fmt, ...) = nullptr;
  // server info (the epoch)
  ServerInfo* (*GetServerInfo)(Ctx* ctx, const char* section) = nullptr;
  const char* (*ServerInfoGetFieldC)(ServerInfo* info, const char* field) = nullptr;
  void (*FreeServerInfo)(Ctx* ctx, ServerInfo* info) = nullptr;
  // the process
  long long (*Milliseconds)() = nullptr;
  int (*GetContextFlags)(Ctx* ctx) = nullptr;
  // ACL
  String* (*GetCurrentUserName)(Ctx* ctx) = nullptr;
  User* (*GetModuleUserFromUserName)(String* name) = nullptr;
  int (*FreeModuleUser)(User* user) = nullptr;
  int (*ACLCheckKeyPermissions)(User* user, String* key, int flags) = nullptr;
  // calls
  CallReply* (*Call)(Ctx* ctx, const char* cmd, const char* fmt, ...) = nullptr;
  int (*CallReplyType)(CallReply* reply) = nullptr;
  long long (*CallReplyInteger)(CallReply* reply) = nullptr;
  const char* (*CallReplyStringPtr)(CallReply* reply, std::size_t* len) = nullptr;
  std::size_t (*CallReplyLength)(CallReply* reply) = nullptr;
  CallReply* (*CallReplyArrayElement)(CallReply* reply, std::size_t idx) = nullptr;
  void (*FreeCallReply)(CallReply* reply) = nullptr;
  // low-level key access (the verbs' hot reads and writes; see module/host.h)
  Key* (*OpenKey)(Ctx* ctx, String* keyname, int mode) = nullptr;  // READ: NULL when absent
  void (*CloseKey)(Key* key) = nullptr;                              // NULL is fine
  int (*DeleteKey)(Key* key) = nullptr;
  int (*KeyType)(Key* key) = nullptr;                                // NULL: empty
  std::size_t (*ValueLength)(Key* key) = nullptr;
  int (*HashGet)(Key* key, int flags, ...) = nullptr;  // field, String** out, ..., NULL
  int (*HashSet)(Key* key, int flags, ...) = nullptr;  // field, value, ..., NULL
  int (*ZsetAdd)(Key* key, double score, String* ele, int* flagsptr) = nullptr;
  int (*ZsetRem)(Key* key, String* ele, int* deleted) = nullptr;
  int (*ZsetScore)(Key* key, String* ele, double* score) = nullptr;
  int (*ZsetFirstInScoreRange)(Key* key, double min, double max, int minex, int maxex) = nullptr;
  String* (*ZsetRangeCurrentElement)(Key* key, double* score) = nullptr;
  int (*ZsetRangeNext)(Key* key) = nullptr;
  int (*ZsetRangeEndReached)(Key* key) = nullptr;
  void (*ZsetRangeStop)(Key* key) = nullptr;
  // the effects of low-level writes: replication/AOF and keyspace events
  int (*Replicate)(Ctx* ctx, const char* cmd, const char* fmt, ...) = nullptr;
  int (*NotifyKeyspaceEvent)(Ctx* ctx, int type, const char* event, String* key) = nullptr;
  // replies
  int (*ReplyWithLongLong)(Ctx* ctx, long long value) = nullptr;
  int (*ReplyWithSimpleString)(Ctx* ctx, const char* text) = nullptr;
  int (*ReplyWithError)(Ctx* ctx, const char* text) = nullptr;
  int (*ReplyWithArray)(Ctx* ctx, long len) = nullptr;
  int (*ReplyWithStringBuffer)(Ctx* ctx, const char* buf, std::size_t len) = nullptr;
  int (*ReplyWithNull)(Ctx* ctx) = nullptr;
  // strings
  const char* (*StringPtrLen)(const String* str, std::size_t* len) = nullptr;
  String* (*CreateString)(Ctx* ctx, const char* ptr, std::size_t len) = nullptr;
  void (*FreeString)(Ctx* ctx, String* str) = nullptr;
};

// The process's table; filled by load().
extern Api api;

// Looks every function of Api up through the context's GetApi. Returns true when all were
// found; otherwise `missing` names the first absent one and only `api.Log` (when not null)
// may be used, to report it.
bool load(Ctx* ctx, std::string& missing);

}  // namespace trafikey::abi
