#include "module/host.h"

#include <algorithm>
#include <limits>
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

// A READ open of a missing key is NULL: empty.
int key_type(abi::Key* key) { return key ? api.KeyType(key) : abi::keytype_empty; }

// One key opened through the low-level API for the length of one write.
class OpenedKey {
 public:
  OpenedKey(abi::Ctx* ctx, abi::String* name, int mode) : key_(api.OpenKey(ctx, name, mode)) {}
  ~OpenedKey() {
    if (key_) api.CloseKey(key_);
  }
  OpenedKey(const OpenedKey&) = delete;
  OpenedKey& operator=(const OpenedKey&) = delete;

  abi::Key* get() const { return key_; }
  int type() const { return key_type(key_); }

 private:
  abi::Key* key_;
};

// The bytes of a module string.
std::string copy_of(const abi::String* str) {
  std::size_t len = 0;
  const char* ptr = api.StringPtrLen(str, &len);
  return std::string(ptr, len);
}

Reply wrong_type() { return errors::error(errors::wrong_type); }

constexpr int write_key_flags =
    static_cast<int>(abi::key_insert | abi::key_update | abi::key_delete);

}  // namespace

ModuleHost::~ModuleHost() {
  end_reads();
  if (user_) api.FreeModuleUser(user_);
  for (auto& [bytes, str] : names_) api.FreeString(ctx_, str);
  for (abi::String* value : values_) api.FreeString(ctx_, value);
}

abi::String* ModuleHost::name(std::string_view bytes) {
  // Looks among the most recent names only, so a sweep over many rows stays linear; every
  // string lives until the call ends, so none is freed while a write still holds it.
  const std::size_t window = std::min(names_.size(), names_window);
  for (std::size_t i = names_.size(); i > names_.size() - window; --i) {
    if (names_[i - 1].first == bytes) return names_[i - 1].second;
  }
  names_.emplace_back(std::string(bytes), api.CreateString(ctx_, bytes.data(), bytes.size()));
  return names_.back().second;
}

abi::Key* ModuleHost::read_key(std::string_view key) {
  abi::String* n = name(key);
  for (const auto& [open_name, open_key] : reads_) {
    if (open_name == n) return open_key;
  }
  // No read keeps a handle past its return, so the oldest may be closed at any time; a
  // sweep over many rows keeps only the last few open.
  if (reads_.size() == reads_max) {
    if (reads_.front().second) api.CloseKey(reads_.front().second);
    reads_.erase(reads_.begin());
  }
  abi::Key* k = api.OpenKey(ctx_, n, abi::key_open_read);
  reads_.emplace_back(n, k);
  return k;
}

void ModuleHost::end_reads() {
  for (const auto& [open_name, open_key] : reads_) {
    if (open_key) api.CloseKey(open_key);
  }
  reads_.clear();
}

// ---- reads

Outcome<KeyType> ModuleHost::type(std::string_view key) {
  switch (key_type(read_key(key))) {
    case abi::keytype_empty: return KeyType::none;
    case abi::keytype_string: return KeyType::string;
    case abi::keytype_hash: return KeyType::hash;
    case abi::keytype_zset: return KeyType::zset;
    case abi::keytype_set: return KeyType::set;
    // list, stream, module types: a type no verb ever expects, which is all that matters
    default: return KeyType::list;
  }
}

Outcome<std::optional<std::string_view>> ModuleHost::get(std::string_view key) {
  end_reads();
  CallResult r(api.Call(ctx_, "GET", "b", key.data(), key.size()));
  TK_TRY(auto value, optional_string(r));
  if (!value) return std::optional<std::string_view>();
  copies_.push_back(std::move(*value));
  return std::optional<std::string_view>(copies_.back());
}

Outcome<std::optional<std::string_view>> ModuleHost::hget(std::string_view key,
                                                          std::string_view field) {
  abi::Key* k = read_key(key);
  const int type = key_type(k);
  if (type == abi::keytype_empty) return std::optional<std::string_view>();
  if (type != abi::keytype_hash) return wrong_type();
  abi::String* value = nullptr;
  if (api.HashGet(k, abi::hash_none, name(field), &value, nullptr) != abi::ok) {
    return errors::error(errors::host_call);
  }
  if (value == nullptr) return std::optional<std::string_view>();
  // HashGet made a string of its own: kept, not copied, until the call ends.
  values_.push_back(value);
  std::size_t len = 0;
  const char* ptr = api.StringPtrLen(value, &len);
  return std::optional<std::string_view>(std::string_view(ptr, len));
}

Outcome<std::vector<FieldValue>> ModuleHost::hgetall(std::string_view key) {
  end_reads();
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
  abi::Key* k = read_key(key);
  const int type = key_type(k);
  if (type == abi::keytype_empty) return std::optional<double>();
  if (type != abi::keytype_zset) return wrong_type();
  const ModuleString m(ctx_, member);
  double score = 0;
  // The key is a zset, so a failure means the member is absent.
  if (api.ZsetScore(k, m.get(), &score) != abi::ok) return std::optional<double>();
  return std::optional<double>(score);
}

Outcome<std::int64_t> ModuleHost::zcard(std::string_view key) {
  abi::Key* k = read_key(key);
  const int type = key_type(k);
  if (type == abi::keytype_empty) return std::int64_t{0};
  if (type != abi::keytype_zset) return wrong_type();
  return static_cast<std::int64_t>(api.ValueLength(k));
}

namespace {
// Up to `limit` members of an open zset from the first with score in [min, max) or
// [min, max], lowest first (ties by member bytes), as ZRANGE BYSCORE answers.
Outcome<std::vector<ScoredMember>> scan_zset(abi::Ctx* ctx, abi::Key* key, double max,
                                             bool max_exclusive, std::size_t limit) {
  std::vector<ScoredMember> out;
  const double inf = std::numeric_limits<double>::infinity();
  if (api.ZsetFirstInScoreRange(key, -inf, max, 0, max_exclusive ? 1 : 0) != abi::ok) {
    return errors::error(errors::host_call);
  }
  while (out.size() < limit && !api.ZsetRangeEndReached(key)) {
    double score = 0;
    abi::String* member = api.ZsetRangeCurrentElement(key, &score);
    if (member == nullptr) break;
    out.push_back({copy_of(member), score});
    api.FreeString(ctx, member);
    api.ZsetRangeNext(key);
  }
  api.ZsetRangeStop(key);
  return out;
}
}  // namespace

Outcome<std::vector<ScoredMember>> ModuleHost::zrange_by_score(std::string_view key,
                                                               double max_exclusive,
                                                               std::size_t limit) {
  if (limit == 0) return std::vector<ScoredMember>();
  abi::Key* k = read_key(key);
  const int type = key_type(k);
  if (type == abi::keytype_empty) return std::vector<ScoredMember>();
  if (type != abi::keytype_zset) return wrong_type();
  return scan_zset(ctx_, k, max_exclusive, true, limit);
}

Outcome<std::vector<std::string>> ModuleHost::zrange_by_rank(std::string_view key,
                                                            std::int64_t start,
                                                            std::int64_t stop) {
  // From the lowest member (CLAIM's first look at pending): walk the zset from its start.
  if (start == 0 && stop >= 0) {
    abi::Key* k = read_key(key);
    const int type = key_type(k);
    if (type == abi::keytype_empty) return std::vector<std::string>();
    if (type != abi::keytype_zset) return wrong_type();
    TK_TRY(auto members, scan_zset(ctx_, k, std::numeric_limits<double>::infinity(),
                                   false, static_cast<std::size_t>(stop) + 1));
    std::vector<std::string> out;
    out.reserve(members.size());
    for (auto& m : members) out.push_back(std::move(m.member));
    return out;
  }
  // Deeper ranks (CLAIM past a run of ghosts): the server's ZRANGE finds them by rank.
  end_reads();
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
  if (api.ACLCheckKeyPermissions(user_, name(key), write_key_flags) != abi::ok) {
    return errors::no_write_access(key);
  }
  return ok_status();
}

// ---- the write pass: low-level writes, each replicated as its concrete command

void ModuleHost::hset(std::string_view key, std::span<const FieldRef> fields) {
  end_reads();
  abi::String* k = name(key);
  // HSET key field value ...: the strings serve the write and its replication
  std::vector<abi::String*> argv;
  argv.reserve(1 + 2 * fields.size());
  argv.push_back(k);
  std::vector<abi::String*> owned;  // the values; field names come from the call's cache
  owned.reserve(fields.size());
  for (const auto& fv : fields) {
    argv.push_back(name(fv.field));
    owned.push_back(api.CreateString(ctx_, fv.value.data(), fv.value.size()));
    argv.push_back(owned.back());
  }
  bool written = false;
  {
    const OpenedKey open(ctx_, k, abi::key_open_write);
    written = open.get() != nullptr && (open.type() == abi::keytype_empty ||
                                        open.type() == abi::keytype_hash);
    for (std::size_t i = 1; written && i + 1 < argv.size(); i += 2) {
      api.HashSet(open.get(), abi::hash_none, argv[i], argv[i + 1], nullptr);
    }
  }
  if (written) {
    api.Replicate(ctx_, "HSET", "v", argv.data(), argv.size());
    api.NotifyKeyspaceEvent(ctx_, abi::notify_hash, "hset", k);
  } else {
    write_failed("HSET", key);
  }
  for (abi::String* value : owned) api.FreeString(ctx_, value);
}

void ModuleHost::zadd(std::string_view key, std::int64_t score, std::string_view member) {
  end_reads();
  abi::String* k = name(key);
  const ModuleString m(ctx_, member);
  int flags = 0;
  int status = abi::err;
  {
    const OpenedKey open(ctx_, k, abi::key_open_write);
    if (open.get()) status = api.ZsetAdd(open.get(), static_cast<double>(score), m.get(), &flags);
  }
  if (status != abi::ok) {
    write_failed("ZADD", key);
    return;
  }
  // an unchanged score changes nothing: ZADD would neither propagate nor notify
  if (!(flags & (abi::zadd_added | abi::zadd_updated))) return;
  api.Replicate(ctx_, "ZADD", "sls", k, static_cast<long long>(score), m.get());
  api.NotifyKeyspaceEvent(ctx_, abi::notify_zset, "zadd", k);
}

void ModuleHost::zrem(std::string_view key, std::string_view member) {
  end_reads();
  abi::String* k = name(key);
  const ModuleString m(ctx_, member);
  int deleted = 0;
  int status = abi::err;
  bool emptied = false;
  {
    const OpenedKey open(ctx_, k, abi::key_open_write);
    if (open.get()) status = api.ZsetRem(open.get(), m.get(), &deleted);
    // ZREM deletes a zset it empties; so must we (whether or not this server's ZsetRem does)
    if (status == abi::ok && deleted && open.type() == abi::keytype_zset &&
        api.ValueLength(open.get()) == 0) {
      api.DeleteKey(open.get());
    }
    emptied = status == abi::ok && deleted && open.type() == abi::keytype_empty;
  }
  if (status != abi::ok) {
    write_failed("ZREM", key);
    return;
  }
  if (!deleted) return;  // nothing changed: ZREM would neither propagate nor notify
  api.Replicate(ctx_, "ZREM", "ss", k, m.get());
  api.NotifyKeyspaceEvent(ctx_, abi::notify_zset, "zrem", k);
  if (emptied) api.NotifyKeyspaceEvent(ctx_, abi::notify_generic, "del", k);
}

std::int64_t ModuleHost::incr(std::string_view key) {
  end_reads();
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
