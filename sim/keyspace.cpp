#include "sim/keyspace.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/args.h"
#include "sim/undo.h"

namespace trafikey::sim {

// A string's size plus the variant's index: no alternative makes entries bigger (a zset
// inline made them ~184 bytes; see ZsetBox).
static_assert(sizeof(Keyspace::Value) <= sizeof(std::string) + 8);

namespace {
constexpr std::size_t hash_fields_reserved = 8;

template <class T>
const T* typed(const Keyspace::Value* v, bool& wrong) {
  wrong = false;
  if (!v) return nullptr;
  if (const T* t = std::get_if<T>(v)) return t;
  wrong = true;
  return nullptr;
}
}  // namespace

std::uint64_t Keyspace::next_keyspace() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

const Keyspace::Value* Keyspace::find(std::string_view key) const {
  const auto* e = data_.find(key);
  return e ? &e->second : nullptr;
}

Keyspace::Value* Keyspace::find_mut(std::string_view key) {
  auto* e = data_.find(key);
  return e ? &e->second : nullptr;
}

template <class T>
T* Keyspace::slot(std::string_view key) {
  auto [e, added] = data_.try_emplace(key);
  if (added) {
    e->second.template emplace<T>();
    reshaped();
  }
  // nullptr for a key of another type: every verb checks types in its read pass, so only
  // a wrong core writes one (the adversarial client keeps such keys, sim/adversarial_calls.h); the write
  // is dropped, as the server's own write call fails on it, and the oracles judge the call
  return std::get_if<T>(&e->second);
}

KeyType Keyspace::type(std::string_view key) const {
  const Value* v = find(key);
  if (!v) return KeyType::none;
  switch (v->index()) {
    case 0: return KeyType::string;
    case 1: return KeyType::hash;
    default: return KeyType::zset;
  }
}

const std::string* Keyspace::string_at(std::string_view key, bool& wrong) const {
  return typed<std::string>(find(key), wrong);
}
const Keyspace::Hash* Keyspace::hash_at(std::string_view key, bool& wrong) const {
  return typed<Hash>(find(key), wrong);
}
const Keyspace::Zset* Keyspace::zset_at(std::string_view key, bool& wrong) const {
  const ZsetBox* z = typed<ZsetBox>(find(key), wrong);
  return z ? &**z : nullptr;
}

const std::string* Keyspace::hash_field(const Hash& hash, std::string_view field) {
  for (const auto& [f, v] : hash) {
    if (StringEqual{}(f, field)) return &v;
  }
  return nullptr;
}

Keyspace::ZsetRange Keyspace::zrange_by_score_entries(const Zset& z, double max_exclusive,
                                                      std::size_t limit) {
  ZsetRange r{z.order.begin(), z.order.begin(), 0};
  while (r.size < limit && r.last != z.order.end() && r.last->first < max_exclusive) {
    ++r.last;
    ++r.size;
  }
  return r;
}

Keyspace::ZsetRange Keyspace::zrange_by_rank_entries(const Zset& z, std::int64_t start,
                                                     std::int64_t stop) {
  const auto n = static_cast<std::int64_t>(z.order.size());
  if (start < 0) start = std::max<std::int64_t>(0, n + start);
  if (stop < 0) stop = n + stop;
  stop = std::min(stop, n - 1);
  if (start > stop) return {z.order.end(), z.order.end(), 0};
  return {z.order.begin() + start, z.order.begin() + stop + 1,
          static_cast<std::size_t>(stop - start + 1)};
}

namespace {
std::vector<std::pair<std::string, double>> pairs(const Keyspace::ZsetRange& r) {
  std::vector<std::pair<std::string, double>> out;
  out.reserve(r.size);
  for (const auto& [score, member] : r) out.emplace_back(member, score);
  return out;
}
}  // namespace

std::vector<std::pair<std::string, double>> Keyspace::zrange_by_score(const Zset& z,
                                                                      double max_exclusive,
                                                                      std::size_t limit) {
  return pairs(zrange_by_score_entries(z, max_exclusive, limit));
}

std::vector<std::pair<std::string, double>> Keyspace::zrange_by_rank(const Zset& z,
                                                                     std::int64_t start,
                                                                     std::int64_t stop) {
  return pairs(zrange_by_rank_entries(z, start, stop));
}

std::int64_t Keyspace::hset(std::string_view key, std::string_view field, std::string_view value) {
  Hash* h = slot<Hash>(key);
  return h ? hset_in(key, *h, field, value) : 0;
}

std::int64_t Keyspace::hset(std::string_view key, std::span<const FieldRef> fields) {
  Hash* h = slot<Hash>(key);  // one lookup for the whole row
  if (!h) return 0;
  std::int64_t added = 0;
  for (const FieldRef& fv : fields) added += hset_in(key, *h, fv.field, fv.value);
  return added;
}

std::int64_t Keyspace::hset_in(std::string_view key, Hash& h, std::string_view field,
                               std::string_view value) {
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!StringEqual{}(h[i].first, field)) continue;  // inline: no libc memcmp per field
    if (journal_) journal_->field(key, field, &h[i].second, i, &value);
    h[i].second = value;
    return 0;
  }
  if (journal_) journal_->field(key, field, nullptr, h.size(), &value);
  // A job row gets five fields at once and up to ten over its life; growing one field at a
  // time would move the row's strings three times before it is whole.
  if (h.empty()) h.reserve(hash_fields_reserved);
  h.emplace_back(field, value);
  return 1;
}

std::int64_t Keyspace::hdel(std::string_view key, std::string_view field) {
  Value* v = find_mut(key);
  if (!v) return 0;
  Hash& h = std::get<Hash>(*v);
  auto it = std::find_if(h.begin(), h.end(), [&](const auto& fv) { return StringEqual{}(fv.first, field); });
  if (it == h.end()) return 0;
  if (journal_) journal_->field(key, field, &it->second, static_cast<std::size_t>(it - h.begin()), nullptr);
  h.erase(it);
  if (h.empty()) {
    data_.erase(data_.find(key));
    reshaped();
  }
  return 1;
}

std::int64_t Keyspace::zadd(std::string_view key, double score, std::string_view member) {
  ZsetBox* box = slot<ZsetBox>(key);
  if (!box) return 0;
  Zset& z = **box;
  // One probe finds or adds the member; the journal copies only the old score, so it may
  // hear of the write after the member's slot exists.
  auto [it, added] = z.scores.try_emplace(member);
  if (journal_) journal_->member(key, member, added ? nullptr : &it->second, &score);
  if (added) {
    it->second = score;
    z.order.insert(score, member);
    return 1;
  }
  if (it->second != score) {
    z.order.rescore(it->second, member, score);
    it->second = score;
  }
  return 0;
}

std::int64_t Keyspace::zrem(std::string_view key, std::string_view member) {
  Value* v = find_mut(key);
  ZsetBox* box = v ? std::get_if<ZsetBox>(v) : nullptr;
  if (!box) return 0;
  Zset& z = **box;
  auto* it = z.scores.find(member);
  if (!it) return 0;
  if (journal_) journal_->member(key, member, &it->second, nullptr);
  z.order.erase(it->second, member);
  z.scores.erase(it);
  if (z.scores.empty()) {
    data_.erase(data_.find(key));
    reshaped();
  }
  return 1;
}

std::int64_t Keyspace::incr(std::string_view key) {
  if (journal_) journal_->whole(key, find(key), UndoLog::WholeOp::incr);
  std::string* text = slot<std::string>(key);
  if (!text) return 0;
  std::string& s = *text;
  // Through unsigned: the plain INCR and a right core refuse a value at int64's top (EMQ
  // §6), but a wrong core may increment it anyway, and signed overflow is undefined. It
  // wraps to int64's bottom, a value the model (which refused) does not hold: caught.
  const auto was = static_cast<std::uint64_t>(s.empty() ? 0 : parse_int64(s).value_or(0));
  const auto next = static_cast<std::int64_t>(was + 1);
  s = std::to_string(next);
  return next;
}

void Keyspace::set(std::string_view key, std::string_view value) {
  Value* v = find_mut(key);
  if (journal_) journal_->whole(key, v, UndoLog::WholeOp::set, value);
  if (v) {
    *v = std::string(value);
  } else {
    data_.try_emplace(key).first->second = std::string(value);
  }
  reshaped();  // a new key, or one of another type replaced
}

std::int64_t Keyspace::del(std::string_view key) {
  auto* e = data_.find(key);
  if (!e) return 0;
  if (journal_) journal_->whole(key, &e->second, UndoLog::WholeOp::del);
  data_.erase(e);
  reshaped();
  return 1;
}

std::vector<std::string> Keyspace::keys() const {
  std::vector<std::string> out;
  out.reserve(data_.size());
  for (const auto& e : data_.entries()) out.emplace_back(data_.key_of(e));
  std::sort(out.begin(), out.end());
  return out;
}

std::string Keyspace::dump() const {
  std::string out;
  for (const auto& key : keys()) {
    const Value& v = *find(key);
    out += quote_bytes(key);
    if (const auto* s = std::get_if<std::string>(&v)) {
      out += " string ";
      out += quote_bytes(*s);
    } else if (const auto* h = std::get_if<Hash>(&v)) {
      out += " hash";
      Hash sorted = *h;
      std::sort(sorted.begin(), sorted.end());
      for (const auto& [f, val] : sorted) {
        out += ' ';
        out += quote_bytes(f);
        out += '=';
        out += quote_bytes(val);
      }
    } else {
      out += " zset";
      for (const auto& [score, member] : std::get<ZsetBox>(v)->order) {
        out += ' ';
        out += quote_bytes(member);
        out += '@';
        out += format_score(score);
      }
    }
    out += '\n';
  }
  return out;
}

std::string quote_bytes(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  out += '"';
  return out;
}

std::string format_score(double score) {
  if (std::isinf(score)) return score > 0 ? "inf" : "-inf";
  if (std::trunc(score) == score && std::fabs(score) < 9007199254740992.0) {
    return std::to_string(static_cast<std::int64_t>(score));
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", score);
  return buf;
}

}  // namespace trafikey::sim
