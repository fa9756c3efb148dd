#include "module/host.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/errors.h"

namespace trafikey::module {

using abi::api;

namespace {

// Owns one call reply; nested array elements belong to their parent.
class CallResult {
 public:
  explicit CallResult(abi::CallReply* reply) : reply_(reply) {}
  ~CallResult() {
    if (reply_) api.FreeCallReply(reply_);
  }
  CallResult(const CallResult&) = delete;
  CallResult& operator=(const CallResult&) = delete;

  abi::CallReply* get() const { return reply_; }
  int type() const { return reply_ ? api.CallReplyType(reply_) : -1; }

 private:
  abi::CallReply* reply_;
};

std::string_view string_of(abi::CallReply* reply) {
  std::size_t len = 0;
  const char* ptr = api.CallReplyStringPtr(reply, &len);
  return ptr ? std::string_view(ptr, len) : std::string_view();
}

// A failed read: the server's WRONGTYPE as the core spells it, anything else a host failure.
Reply read_error(const CallResult& result) {
  if (result.type() == abi::reply_error && string_of(result.get()).starts_with("WRONGTYPE")) {
    return errors::error(errors::wrong_type);
  }
  return errors::error(errors::host_call);
}

// A bulk string or nil, as GET/HGET answer.
Outcome<std::optional<std::string>> optional_string(const CallResult& result) {
  if (result.type() == abi::reply_null) return std::optional<std::string>();
  if (result.type() != abi::reply_string) return read_error(result);
  return std::optional<std::string>(string_of(result.get()));
}

std::optional<double> parse_score(std::string_view text) {
  const std::string copy(text);  // strtod needs a terminator
  char* end = nullptr;
  const double score = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size()) return std::nullopt;
  return score;
}

// An exclusive ZRANGE BYSCORE bound: "(" and the shortest text that round-trips.
std::string exclusive_bound(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "(%.17g", value);
  return buffer;
}

class ModuleString {
 public:
  ModuleString(abi::Ctx* ctx, std::string_view bytes)
      : ctx_(ctx), str_(api.CreateString(ctx, bytes.data(), bytes.size())) {}
  ~ModuleString() { api.FreeString(ctx_, str_); }
  ModuleString(const ModuleString&) = delete;
  ModuleString& operator=(const ModuleString&) = delete;
  abi::String* get() const { return str_; }

 private:
  abi::Ctx* ctx_;
  abi::String* str_;
};

constexpr int write_key_flags =
    static_cast<int>(abi::key_insert | abi::key_update | abi::key_delete);

}  // namespace

ModuleHost::~ModuleHost() {
  if (user_) api.FreeModuleUser(user_);
}

// ---- reads

Outcome<KeyType> ModuleHost::type(std::string_view key) {
  CallResult r(api.Call(ctx_, "TYPE", "b", key.data(), key.size()));
  if (r.type() != abi::reply_string) return read_error(r);
  const std::string_view name = string_of(r.get());
  if (name == "none") return KeyType::none;
  if (name == "string") return KeyType::string;
  if (name == "hash") return KeyType::hash;
  if (name == "zset") return KeyType::zset;
  if (name == "set") return KeyType::set;
  // list, stream, module types: a type no verb ever expects, which is all that matters
  return KeyType::list;
}

Outcome<std::optional<std::string>> ModuleHost::get(std::string_view key) {
  CallResult r(api.Call(ctx_, "GET", "b", key.data(), key.size()));
  return optional_string(r);
}

Outcome<std::optional<std::string>> ModuleHost::hget(std::string_view key,
                                                     std::string_view field) {
  CallResult r(api.Call(ctx_, "HGET", "bb", key.data(), key.size(), field.data(), field.size()));
  return optional_string(r);
}

Outcome<std::vector<FieldValue>> ModuleHost::hgetall(std::string_view key) {
  CallResult r(api.Call(ctx_, "HGETALL", "b", key.data(), key.size()));
  if (r.type() != abi::reply_array) return read_error(r);
  const std::size_t n = api.CallReplyLength(r.get());
  std::vector<FieldValue> out;
  out.reserve(n / 2);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    out.push_back({std::string(string_of(api.CallReplyArrayElement(r.get(), i))),
                   std::string(string_of(api.CallReplyArrayElement(r.get(), i + 1)))});
  }
  return out;
}

Outcome<std::optional<double>> ModuleHost::zscore(std::string_view key, std::string_view member) {
  CallResult r(
      api.Call(ctx_, "ZSCORE", "bb", key.data(), key.size(), member.data(), member.size()));
  if (r.type() == abi::reply_null) return std::optional<double>();
  if (r.type() != abi::reply_string) return read_error(r);
  const auto score = parse_score(string_of(r.get()));
  if (!score) return errors::error(errors::host_call);
  return score;
}

Outcome<std::int64_t> ModuleHost::zcard(std::string_view key) {
  CallResult r(api.Call(ctx_, "ZCARD", "b", key.data(), key.size()));
  if (r.type() != abi::reply_integer) return read_error(r);
  return static_cast<std::int64_t>(api.CallReplyInteger(r.get()));
}

Outcome<std::vector<ScoredMember>> ModuleHost::zrange_by_score(std::string_view key,
                                                               double max_exclusive,
                                                               std::size_t limit) {
  std::vector<ScoredMember> out;
  if (limit == 0) return out;
  const std::string max = exclusive_bound(max_exclusive);
  const auto count = static_cast<long long>(std::min<std::size_t>(limit, 1u << 30));
  // ZRANGE key -inf (max BYSCORE LIMIT 0 count WITHSCORES: lowest first, ties by member
  CallResult r(api.Call(ctx_, "ZRANGE", "bccccllc", key.data(), key.size(), "-inf", max.c_str(),
                        "BYSCORE", "LIMIT", 0LL, count, "WITHSCORES"));
  if (r.type() != abi::reply_array) return read_error(r);
  const std::size_t n = api.CallReplyLength(r.get());
  out.reserve(n / 2);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    const auto score = parse_score(string_of(api.CallReplyArrayElement(r.get(), i + 1)));
    if (!score) return errors::error(errors::host_call);
    out.push_back({std::string(string_of(api.CallReplyArrayElement(r.get(), i))), *score});
  }
  return out;
}

Outcome<std::vector<std::string>> ModuleHost::zrange_by_rank(std::string_view key,
                                                            std::int64_t start,
                                                            std::int64_t stop) {
  CallResult r(api.Call(ctx_, "ZRANGE", "bll", key.data(), key.size(),
                        static_cast<long long>(start), static_cast<long long>(stop)));
  if (r.type() != abi::reply_array) return read_error(r);
  const std::size_t n = api.CallReplyLength(r.get());
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    out.emplace_back(string_of(api.CallReplyArrayElement(r.get(), i)));
  }
  return out;
}

// ---- the process

Outcome<std::int64_t> ModuleHost::now_ms() {
  return static_cast<std::int64_t>(api.Milliseconds());
}

Status ModuleHost::fence() {
  const int flags = api.GetContextFlags(ctx_);
  if (flags & (abi::ctx_flags_replica | abi::ctx_flags_readonly | abi::ctx_flags_loading)) {
    return errors::error(errors::not_primary);
  }
  return ok_status();
}

Status ModuleHost::may_write(std::string_view key) {
  if (!user_looked_up_) {
    user_looked_up_ = true;
    if (abi::String* name = api.GetCurrentUserName(ctx_)) {
      user_ = api.GetModuleUserFromUserName(name);
      api.FreeString(ctx_, name);
    }
  }
  // No user to ask about: refuse rather than guess.
  if (user_ == nullptr) return errors::no_write_access(key);
  const ModuleString k(ctx_, key);
  if (api.ACLCheckKeyPermissions(user_, k.get(), write_key_flags) != abi::ok) {
    return errors::no_write_access(key);
  }
  return ok_status();
}

// ---- the write pass: concrete commands, propagated ('!') as the call's effects

void ModuleHost::hset(std::string_view key, std::span<const FieldRef> fields) {
  std::vector<abi::String*> argv;
  argv.reserve(1 + 2 * fields.size());
  argv.push_back(api.CreateString(ctx_, key.data(), key.size()));
  for (const auto& fv : fields) {
    argv.push_back(api.CreateString(ctx_, fv.field.data(), fv.field.size()));
    argv.push_back(api.CreateString(ctx_, fv.value.data(), fv.value.size()));
  }
  CallResult r(api.Call(ctx_, "HSET", "!v", argv.data(), argv.size()));
  for (abi::String* s : argv) api.FreeString(ctx_, s);
  if (r.type() != abi::reply_integer) write_failed("HSET", key);
}

void ModuleHost::zadd(std::string_view key, std::int64_t score, std::string_view member) {
  CallResult r(api.Call(ctx_, "ZADD", "!blb", key.data(), key.size(),
                        static_cast<long long>(score), member.data(), member.size()));
  if (r.type() != abi::reply_integer) write_failed("ZADD", key);
}

void ModuleHost::zrem(std::string_view key, std::string_view member) {
  CallResult r(
      api.Call(ctx_, "ZREM", "!bb", key.data(), key.size(), member.data(), member.size()));
  if (r.type() != abi::reply_integer) write_failed("ZREM", key);
}

std::int64_t ModuleHost::incr(std::string_view key) {
  CallResult r(api.Call(ctx_, "INCR", "!b", key.data(), key.size()));
  if (r.type() != abi::reply_integer) {
    write_failed("INCR", key);
    return 0;
  }
  return static_cast<std::int64_t>(api.CallReplyInteger(r.get()));
}

void ModuleHost::write_failed(const char* command, std::string_view key) {
  const std::string k(key);
  api.Log(ctx_, "warning", "trafikey: %s on %s failed after the read pass allowed it", command,
          k.c_str());
}

// ---- the epoch read

Outcome<std::string> read_run_id(abi::Ctx* ctx) {
  abi::ServerInfo* info = api.GetServerInfo(ctx, "server");
  if (info == nullptr) return errors::error(errors::host_call);
  const char* value = api.ServerInfoGetFieldC(info, "run_id");
  std::optional<std::string> id;
  if (value != nullptr) id = value;
  api.FreeServerInfo(ctx, info);
  if (!id) return errors::error(errors::host_call);
  return *id;
}

}  // namespace trafikey::module
