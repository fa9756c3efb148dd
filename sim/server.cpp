#include "sim/server.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/commands.h"
#include "core/errors.h"
#include "sim/plain.h"

namespace trafikey::sim {

void apply(Keyspace& data, const WriteOp& op) {
  switch (op.kind) {
    case WriteOp::Kind::hset: data.hset(op.key, op.field, op.value); break;
    case WriteOp::Kind::hdel: data.hdel(op.key, op.field); break;
    case WriteOp::Kind::zadd: data.zadd(op.key, op.score, op.field); break;
    case WriteOp::Kind::zrem: data.zrem(op.key, op.field); break;
    case WriteOp::Kind::incr: data.incr(op.key); break;
    case WriteOp::Kind::set: data.set(op.key, op.field); break;
    case WriteOp::Kind::del: data.del(op.key); break;
  }
}

const Incarnation& SimServer::start(Outcome<std::string> run_id_read) {
  Incarnation next;
  next.number = ++last_number_;
  if (run_id_read.ok()) next.run_id = run_id_read.value();
  next.module_loaded = next.epoch.load(run_id_read).ok();
  next.epoch.start_grants(now_ms_);
  incarnation_ = std::move(next);
  scripting_.flush();  // a new process has an empty script cache
  return incarnation_;
}

void SimServer::keep_as_standby() {
  standby_.emplace(Standby{std::move(incarnation_), std::move(scripting_)});
  incarnation_ = Incarnation{};
  scripting_.flush();
}

void SimServer::swap_with_standby() {
  if (!standby_) return;
  std::swap(incarnation_, standby_->incarnation);
  std::swap(scripting_, standby_->scripting);
}

void SimServer::reload(const Outcome<std::string>& read) {
  if (!incarnation_.module_loaded) return;  // no module to load again
  if (!incarnation_.epoch.load(read).ok()) incarnation_.module_loaded = false;
  incarnation_.epoch.start_grants(now_ms_);
}

namespace {
// Whether `s` holds a byte below 14, which NUL, LF and CR are: whole words at a time (a
// word has one when (w - 0x0e..0e) & ~w & 0x80..80 is nonzero), the last bytes as one more
// word or two halves that may overlap bytes already checked; only 1 to 3 bytes one by one.
bool has_control_byte(std::string_view s) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  const char* p = s.data();
  const std::size_t n = s.size();
  auto word8 = [&](std::size_t at) {
    const std::uint64_t w = bytes::load8(p + at);
    return ((w - ones * 14) & ~w & highs) != 0;
  };
  auto word4 = [&](std::size_t at) {
    const std::uint32_t w = bytes::load4(p + at);
    const auto ones4 = static_cast<std::uint32_t>(ones), highs4 = static_cast<std::uint32_t>(highs);
    return ((w - ones4 * 14) & ~w & highs4) != 0;
  };
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      if (word8(i)) return true;
    }
    return word8(n - 8);
  }
  if (n >= 4) return word4(0) || word4(n - 4);
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) < 14) return true;
  }
  return false;
}

// Writes `s` at `to` as "%.*s" prints it (it stops at a NUL), at most `max` bytes, CR and
// LF as spaces; returns the bytes written. Arguments nearly never hold such a byte, and
// then one memcpy copies them all.
std::size_t put_c_string(char* to, std::string_view s, std::size_t max) {
  s = s.substr(0, max);
  if (!has_control_byte(s)) {
    std::memcpy(to, s.data(), s.size());
    return s.size();
  }
  std::size_t n = 0;
  for (char c : s) {
    if (c == '\0') break;
    to[n++] = (c == '\r' || c == '\n') ? ' ' : c;
  }
  return n;
}
}  // namespace

Reply unknown_command(Args argv) {
  // As processCommand builds it: "%.128s" and "%.*s" stop at a NUL; arguments are quoted
  // while fewer than 128 bytes of them have been written, each cut to what is left of the
  // 128; CR and LF become spaces.
  //
  // Every EMQ call answers this while the module is not loaded, so the text is built in a
  // stack buffer (no allocation but the reply's own), the fixed parts and each argument
  // copied whole rather than byte by byte. Its bound: the fixed parts, a name of at most
  // 128 bytes, and arguments that stop at 128 bytes plus one last "'' ".
  static constexpr std::string_view head = "ERR unknown command '";
  static constexpr std::string_view middle = "', with args beginning with: ";
  static constexpr std::size_t args_max = 128;
  char text[head.size() + args_max + middle.size() + args_max + 3];
  std::size_t len = 0;
  auto put = [&](std::string_view s) {  // fixed text: no NUL, CR or LF
    std::memcpy(text + len, s.data(), s.size());
    len += s.size();
  };
  put(head);
  if (!argv.empty()) len += put_c_string(text + len, argv[0], args_max);
  put(middle);
  const std::size_t args_at = len;
  for (std::size_t i = 1; i < argv.size() && len - args_at < args_max; ++i) {
    put("'");
    len += put_c_string(text + len, argv[i], args_max - (len - args_at - 1));
    put("' ");
  }
  return Reply::error(std::string_view(text, len));
}

Reply SimServer::call(Args argv) {
  if (argv.empty()) return unknown_command(argv);
  if (incarnation_.module_loaded) {
    if (const CommandSpec* spec = find_command(argv[0])) {
      begin_call();
      return execute(*this, *spec, argv);
    }
  }
  if (Scripting::handles(argv[0])) {
    return *scripting_.call(argv, [this](Args command) {
      if (equals_ignore_case("TIME", command[0]) && command.size() == 1) return time_reply(now_ms_);
      if (auto reply = run_plain(*this, command)) return std::move(*reply);
      return Reply::error("ERR Unknown Redis command called from script");
    });
  }
  if (auto reply = run_plain(*this, argv)) return std::move(*reply);
  return unknown_command(argv);
}

void SimServer::write(const WriteOp& op) {
  ++writes_;
  apply(*data_, op);
}

// ---- Host reads

namespace {
Reply wrong_type() { return errors::error(errors::wrong_type); }
}  // namespace

Outcome<KeyType> SimServer::type(std::string_view key) { return data_->type(key); }

// Views into the keyspace: valid until it is next written, which the Host contract allows.
Outcome<std::optional<std::string_view>> SimServer::get(std::string_view key) {
  bool wrong = false;
  const std::string* s = data_->string_at(key, wrong);
  if (wrong) return wrong_type();
  if (!s) return std::optional<std::string_view>{};
  return std::optional<std::string_view>{*s};
}

Outcome<std::optional<std::string_view>> SimServer::hget(std::string_view key,
                                                         std::string_view field) {
  bool wrong = false;
  const Keyspace::Hash* h = data_->hash_at(key, wrong);
  if (wrong) return wrong_type();
  const std::string* v = h ? Keyspace::hash_field(*h, field) : nullptr;
  if (!v) return std::optional<std::string_view>{};
  return std::optional<std::string_view>{*v};
}

Outcome<std::vector<FieldValue>> SimServer::hgetall(std::string_view key) {
  bool wrong = false;
  const Keyspace::Hash* h = data_->hash_at(key, wrong);
  if (wrong) return wrong_type();
  std::vector<FieldValue> out;
  if (h) {
    for (const auto& [f, v] : *h) out.push_back({f, v});
  }
  return out;
}

Outcome<std::optional<double>> SimServer::zscore(std::string_view key, std::string_view member) {
  bool wrong = false;
  const Keyspace::Zset* z = data_->zset_at(key, wrong);
  if (wrong) return wrong_type();
  if (!z) return std::optional<double>{};
  auto it = z->scores.find(member);
  if (it == z->scores.end()) return std::optional<double>{};
  return std::optional<double>{it->second};
}

Outcome<std::int64_t> SimServer::zcard(std::string_view key) {
  bool wrong = false;
  const Keyspace::Zset* z = data_->zset_at(key, wrong);
  if (wrong) return wrong_type();
  return z ? static_cast<std::int64_t>(z->scores.size()) : 0;
}

Outcome<std::vector<ScoredMember>> SimServer::zrange_by_score(std::string_view key,
                                                             double max_exclusive,
                                                             std::size_t limit) {
  bool wrong = false;
  const Keyspace::Zset* z = data_->zset_at(key, wrong);
  if (wrong) return wrong_type();
  std::vector<ScoredMember> out;
  if (!z) return out;
  const auto range = Keyspace::zrange_by_score_entries(*z, max_exclusive, limit);
  out.reserve(range.size);
  for (const auto& [score, member] : range) out.push_back({member, score});
  return out;
}

Outcome<std::vector<std::string>> SimServer::zrange_by_rank(std::string_view key,
                                                           std::int64_t start,
                                                           std::int64_t stop) {
  bool wrong = false;
  const Keyspace::Zset* z = data_->zset_at(key, wrong);
  if (wrong) return wrong_type();
  std::vector<std::string> out;
  if (!z) return out;
  const auto range = Keyspace::zrange_by_rank_entries(*z, start, stop);
  out.reserve(range.size);
  for (const auto& entry : range) out.push_back(entry.second);
  return out;
}

Status SimServer::fence() {
  if (role_ != Role::primary) return errors::error(errors::not_primary);
  return ok_status();
}

Status SimServer::may_write(std::string_view key) {
  if (write_denied_ && write_denied_(key)) return errors::no_write_access(key);
  return ok_status();
}

// ---- Writer: applied in place (the keyspace's journal, when it has one, sees each write).
// A write to a key that holds another type is dropped by the keyspace (Keyspace::slot).

void SimServer::hset(std::string_view key, std::span<const FieldRef> fields) {
  ++writes_;
  data_->hset(key, fields);
}

void SimServer::zadd(std::string_view key, std::int64_t score, std::string_view member) {
  ++writes_;
  data_->zadd(key, static_cast<double>(score), member);
}

void SimServer::zrem(std::string_view key, std::string_view member) {
  ++writes_;
  data_->zrem(key, member);
}

std::int64_t SimServer::incr(std::string_view key) {
  ++writes_;
  return data_->incr(key);
}

}  // namespace trafikey::sim
