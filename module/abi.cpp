#include "module/abi.h"

namespace trafikey::abi {

Api api;

namespace {
using GetApiFn = int (*)(const char* name, void* out_function_pointer);

// The context's first pointer-sized field is GetApi (MODULE-ABI.md, "Loading").
GetApiFn get_api_of(Ctx* ctx) {
  void* first = *reinterpret_cast<void**>(ctx);
  return reinterpret_cast<GetApiFn>(first);
}
}  // namespace

bool load(Ctx* ctx, std::string& missing) {
  const GetApiFn get_api = get_api_of(ctx);
  if (get_api == nullptr) {
    missing = "GetApi";
    return false;
  }
  // Log first, straight into the table, so a refused load can still say what was missing.
  if (get_api("RedisModule_Log", reinterpret_cast<void*>(&api.Log)) != ok) api.Log = nullptr;
  Api found;
  // Looks one function up under the RedisModule_ prefix (Valkey registers both prefixes).
#define TK_ABI_LOOKUP(name)                                                           \
  if (get_api("RedisModule_" #name, reinterpret_cast<void*>(&found.name)) != ok ||     \
      found.name == nullptr) {                                                        \
    missing = #name;                                                                  \
    return false;                                                                     \
  }
  TK_ABI_LOOKUP(IsModuleNameBusy)
  TK_ABI_LOOKUP(SetModuleAttribs)
  TK_ABI_LOOKUP(CreateCommand)
  TK_ABI_LOOKUP(GetCommand)
  TK_ABI_LOOKUP(SetCommandInfo)
  TK_ABI_LOOKUP(Log)
  TK_ABI_LOOKUP(GetServerInfo)
  TK_ABI_LOOKUP(ServerInfoGetFieldC)
  TK_ABI_LOOKUP(FreeServerInfo)
  TK_ABI_LOOKUP(Milliseconds)
  TK_ABI_LOOKUP(GetContextFlags)
  TK_ABI_LOOKUP(GetCurrentUserName)
  TK_ABI_LOOKUP(GetModuleUserFromUserName)
  TK_ABI_LOOKUP(FreeModuleUser)
  TK_ABI_LOOKUP(ACLCheckKeyPermissions)
  TK_ABI_LOOKUP(Call)
  TK_ABI_LOOKUP(CallReplyType)
  TK_ABI_LOOKUP(CallReplyInteger)
  TK_ABI_LOOKUP(CallReplyStringPtr)
  TK_ABI_LOOKUP(CallReplyLength)
  TK_ABI_LOOKUP(CallReplyArrayElement)
  TK_ABI_LOOKUP(FreeCallReply)
  TK_ABI_LOOKUP(OpenKey)
  TK_ABI_LOOKUP(CloseKey)
  TK_ABI_LOOKUP(DeleteKey)
  TK_ABI_LOOKUP(KeyType)
  TK_ABI_LOOKUP(ValueLength)
  TK_ABI_LOOKUP(HashGet)
  TK_ABI_LOOKUP(HashSet)
  TK_ABI_LOOKUP(ZsetAdd)
  TK_ABI_LOOKUP(ZsetRem)
  TK_ABI_LOOKUP(ZsetScore)
  TK_ABI_LOOKUP(ZsetFirstInScoreRange)
  TK_ABI_LOOKUP(ZsetRangeCurrentElement)
  TK_ABI_LOOKUP(ZsetRangeNext)
  TK_ABI_LOOKUP(ZsetRangeEndReached)
  TK_ABI_LOOKUP(ZsetRangeStop)
  TK_ABI_LOOKUP(Replicate)
  TK_ABI_LOOKUP(NotifyKeyspaceEvent)
  TK_ABI_LOOKUP(ReplyWithLongLong)
  TK_ABI_LOOKUP(ReplyWithSimpleString)
  TK_ABI_LOOKUP(ReplyWithError)
  TK_ABI_LOOKUP(ReplyWithArray)
  TK_ABI_LOOKUP(ReplyWithStringBuffer)
  TK_ABI_LOOKUP(ReplyWithNull)
  TK_ABI_LOOKUP(StringPtrLen)
  TK_ABI_LOOKUP(CreateString)
  TK_ABI_LOOKUP(FreeString)
#undef TK_ABI_LOOKUP
  api = found;
  return true;
}

}  // namespace trafikey::abi
