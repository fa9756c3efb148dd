// The model of EMQ.md, section by section. Every rule below cites the spec's section; the
// unit tests (properties/model/tests/model_test.cpp) state them one by one.
#include "properties/model/model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "properties/model/refusals.h"
#include "properties/model/rows.h"
#include "properties/model/verb_call.h"

namespace trafikey::properties::model {

namespace {

using sim::Keyspace;

std::string upper_of(std::string_view s) {
  std::string u(s);
  for (char& c : u) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return u;
}

}  // namespace

// ---- expectations


void Expectation::clear() {
  replies.clear();
  range_suffixes.clear();
  note.clear();
  writes = false;
  verb = EmqVerb::none;
}

bool Expectation::accepts(const Reply& reply) const {
  for (const Reply& r : replies) {
    if (r == reply) return true;
  }
  if (reply.is_error() && !range_suffixes.empty()) {
    const std::string& t = reply.text();
    constexpr std::string_view head = "ERR EMQ ";
    constexpr std::string_view mid = " must be an integer in ";
    if (t.rfind(head, 0) == 0) {
      const auto at = t.find(mid, head.size());
      if (at != std::string::npos && at > head.size()) {
        const std::string tail = t.substr(at + mid.size());
        for (const auto& s : range_suffixes) {
          if (s == tail) return true;
        }
      }
    }
  }
  return false;
}

std::string Expectation::describe() const {
  if (replies.size() == 1 && range_suffixes.empty()) return debug_string(replies[0]);
  std::string s = "one of:";
  for (const Reply& r : replies) s += " " + debug_string(r);
  for (const auto& x : range_suffixes) s += " (error \"ERR EMQ <arg> must be an integer in " + x + "\")";
  return s;
}

// ---- the model

Model::Model() {
  data_.set_journal(&undo_);
  undo_.keep_new_values(true);  // the checker compares what the writes made (verb.model)
}

void Model::end_call(std::int64_t index) {
  // Call numbers run on across restarts: a lost call keeps its number and adds nothing.
  const auto i = static_cast<std::size_t>(index);
  // one more position a call (resize's fill-insert was the heavier code to run per call)
  while (ends_.size() <= i) ends_.push_back(ends_.back());
  ends_[i] = undo_.position();
}

void Model::settle(const sim::CallRecord& call, const Expectation& e, bool accepted) {
  end_call(call.index);
  if (accepted) {
    ledger_.apply(call, e.verb);
  } else if (!e.replies.empty()) {
    sim::CallRecord mine = call;
    mine.reply = e.replies.front();
    ledger_.apply(mine, e.verb);
  }
}

void Model::keep_calls(std::int64_t calls) {
  ledger_.truncate(calls);
  const auto kept = static_cast<std::size_t>(std::max<std::int64_t>(calls, 0));
  if (kept + 1 >= ends_.size()) return;
  const std::int64_t at = ends_[kept];
  undo_.rewind(data_, at);
  // the calls after `kept` are lost: the stream as of each of them is the stream as of `kept`
  std::fill(ends_.begin() + static_cast<std::ptrdiff_t>(kept) + 1, ends_.end(), at);
}

QueueCache& Model::queue_of(std::string_view q) {
  // most calls name the queue the call before did
  if (last_names_ && last_names_->first == q) return last_names_->second;
  auto it = names_.find(q);
  if (it == names_.end()) {
    it = names_.try_emplace(std::string(q), q).first;
  }
  last_names_ = &*it;
  return it->second;
}

// §6: a writing verb checks every key it will write before its first write; one the caller
// may not write refuses the call (NOPERM EMQ, naming it) and nothing is written. The keys it
// will write are the keys its writes (on the model's own dataset, since `from`) touched.
void Model::refuse_denied_write(std::int64_t from, std::string_view denied, Expectation& e) {
  bool hit = false;
  undo_.each_since(from, [&](sim::UndoLog::Wrote, std::string_view key, std::string_view) { hit = hit || key == denied; });
  if (!hit) return;
  undo_.rewind(data_, from);
  e.clear();
  e.replies.push_back(Reply::error("NOPERM EMQ no write access to " + std::string(denied)));
  e.note = "the caller may not write " + std::string(denied);
}

Expectation Model::call(Args argv, const Context& ctx) {
  Expectation e;
  call(argv, ctx, e);
  return e;
}

void Model::call(Args argv, const Context& ctx, Expectation& e) {
  e.clear();
  if (argv.empty()) {
    e.replies.push_back(unknown(argv));
    return;
  }
  if (sim::Scripting::handles(argv[0])) {
    script(argv, ctx, e);
    return;
  }
  if (argv[0].size() >= 4 && equals_ignore_case(argv[0].substr(0, 4), "EMQ.")) {
    // §2: a process whose epoch did not load serves no EMQ verb.
    if (const EmqVerb name = verb_of(argv[0]); ctx.module_loaded && name != EmqVerb::none) {
      e.verb = name;  // the ledger and the checker read it, not the name again
      const std::int64_t from = undo_.position();
      verb(name, argv, ctx, e);
      if (e.writes && !ctx.write_denied.empty()) refuse_denied_write(from, ctx.write_denied, e);
      return;
    }
    e.replies.push_back(unknown(argv));
    e.note = ctx.module_loaded ? "no such verb" : "the module is not loaded in this process";
    return;
  }
  plain(argv, ctx, e);
}

// §4's verbs, one file each (verb_call.h). EMQ.EPOCH names no queue; every other verb names
// one in argv[1]: a missing one refuses on the arity alone, a bad one joins the verb's
// other refusals.
Expectation& Model::verb(EmqVerb name, Args argv, const Context& ctx, Expectation& e) {
  VerbCall c{argv, ctx, data_, nullptr, e, {}};
  if (name == EmqVerb::epoch) return verbs::epoch(c);
  if (argv.size() < 2) {
    c.refusals.add(e_arity);
    return c.refused();
  }
  if (queue_name_ok(argv[1])) {
    c.queue = &queue_of(argv[1]);
  } else {
    c.refusals.add(e_queue);
  }
  switch (name) {
    case EmqVerb::add: return verbs::add(c);
    case EmqVerb::claim: return verbs::claim(c);
    case EmqVerb::extend: return verbs::extend(c);
    case EmqVerb::extends: return verbs::extends(c);
    case EmqVerb::complete: return verbs::complete(c);
    case EmqVerb::fail: return verbs::fail(c);
    case EmqVerb::sweep: return verbs::stalled_check(c);
    case EmqVerb::stats: return verbs::stats(c);
    case EmqVerb::job: return verbs::job(c);
    case EmqVerb::epoch:
    case EmqVerb::none: break;
  }
  e.replies.push_back(unknown(argv));
  return e;
}

// ---- scripts: each redis.call is one of the model's plain commands (or TIME)

Expectation& Model::script(Args argv, const Context& ctx, Expectation& e) {
  const Reply reply = *scripting_.call(argv, [&](Args command) -> Reply {
    if (equals_ignore_case(command[0], "TIME") && command.size() == 1) return sim::time_reply(ctx.now_ms);
    Expectation& inner = inner_;
    inner.clear();
    plain(command, ctx, inner);
    e.writes = e.writes || inner.writes;
    const Reply& r = inner.replies.front();
    if (r.is_error() && r.text().rfind("ERR unknown command", 0) == 0) {
      return Reply::error("ERR Unknown Redis command called from script");
    }
    return r;
  });
  e.replies.push_back(reply);
  e.note = "a script: its redis.calls ran on the model's own dataset";
  return e;
}

// ---- the plain commands of the simulated server (sim/plain.cpp's table), Valkey's way

Expectation& Model::plain(Args a, const Context& ctx, Expectation& e) {
  Keyspace& d = data_;
  const std::string name = upper_of(a[0]);
  struct Spec {
    std::string_view upper, lower;
    int arity;
    bool writes;
  };
  static constexpr std::array<Spec, 13> table{{
      {"HSET", "hset", -4, true},     {"HGET", "hget", 3, false},   {"HGETALL", "hgetall", 2, false},
      {"HDEL", "hdel", -3, true},     {"ZADD", "zadd", -4, true},   {"ZRANGE", "zrange", -4, false},
      {"ZREM", "zrem", -3, true},     {"ZSCORE", "zscore", 3, false}, {"INCR", "incr", 2, true},
      {"DEL", "del", -2, true},       {"TYPE", "type", 2, false},   {"EXISTS", "exists", -2, false},
      {"SET", "set", -3, true},
  }};
  const Spec* spec = nullptr;
  for (const Spec& s : table) {
    if (s.upper == name) spec = &s;
  }
  auto answer = [&](Reply r) -> Expectation& {
    e.replies.push_back(std::move(r));
    return e;
  };
  if (!spec) return answer(unknown(a));
  const int argc = static_cast<int>(a.size());
  if ((spec->arity > 0 && argc != spec->arity) || (spec->arity < 0 && argc < -spec->arity)) {
    return answer(Reply::error("ERR wrong number of arguments for '" + std::string(spec->lower) + "' command"));
  }
  if (spec->writes && ctx.replica) return answer(Reply::error("READONLY You can't write against a read only replica."));
  const Reply wrongtype = Reply::error(e_wrongtype);
  const KeyType t = type_of(d, a[1]);

  if (name == "HSET") {
    if (argc % 2 != 0) return answer(Reply::error("ERR wrong number of arguments for 'hset' command"));
    if (t != KeyType::none && t != KeyType::hash) return answer(wrongtype);
    std::int64_t added = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
      if (!field(hash(d, a[1]), a[static_cast<std::size_t>(i)])) ++added;
      d.hset(a[1], a[static_cast<std::size_t>(i)], a[static_cast<std::size_t>(i) + 1]);
    }
    e.writes = true;
    return answer(Reply::integer(added));
  }
  if (name == "HGET" || name == "HGETALL") {
    if (t != KeyType::none && t != KeyType::hash) return answer(wrongtype);
    const Keyspace::Hash* h = hash(d, a[1]);
    if (name == "HGET") {
      const std::string* v = field(h, a[2]);
      return answer(v ? Reply::bulk(*v) : Reply::nil());
    }
    Reply r = Reply::array();
    if (h) {
      for (const auto& [f, v] : *h) {  // insertion order, as a small hash keeps it
        r.items().push_back(Reply::bulk(f));
        r.items().push_back(Reply::bulk(v));
      }
    }
    return answer(std::move(r));
  }
  if (name == "HDEL") {
    if (t != KeyType::none && t != KeyType::hash) return answer(wrongtype);
    std::int64_t removed = 0;
    for (int i = 2; i < argc; ++i) {
      if (!field(hash(d, a[1]), a[static_cast<std::size_t>(i)])) continue;
      d.hdel(a[1], a[static_cast<std::size_t>(i)]);
      ++removed;
      e.writes = true;
    }
    return answer(Reply::integer(removed));
  }
  if (name == "ZADD") {
    if (argc % 2 != 0) return answer(Reply::error("ERR syntax error"));
    std::vector<double> scores;
    for (int i = 2; i < argc; i += 2) {
      const std::string s(a[static_cast<std::size_t>(i)]);
      double v = 0;
      if (s == "inf" || s == "+inf") {
        v = HUGE_VAL;
      } else if (s == "-inf") {
        v = -HUGE_VAL;
      } else {
        char* end = nullptr;
        v = s.empty() || s.size() > 64 ? NAN : std::strtod(s.c_str(), &end);
        if (s.empty() || s.size() > 64 || end != s.c_str() + s.size() || std::isnan(v) ||
            std::isspace(static_cast<unsigned char>(s[0]))) {
          return answer(Reply::error("ERR value is not a valid float"));
        }
      }
      scores.push_back(v);
    }
    if (t != KeyType::none && t != KeyType::zset) return answer(wrongtype);
    std::int64_t added = 0;
    for (int i = 2; i < argc; i += 2) {
      const std::string_view member = a[static_cast<std::size_t>(i) + 1];
      if (!score_of(d, a[1], member)) ++added;
      d.zadd(a[1], scores[static_cast<std::size_t>(i - 2) / 2], member);
    }
    e.writes = true;
    return answer(Reply::integer(added));
  }
  if (name == "ZREM") {
    if (t != KeyType::none && t != KeyType::zset) return answer(wrongtype);
    std::int64_t removed = 0;
    for (int i = 2; i < argc; ++i) {
      if (!score_of(d, a[1], a[static_cast<std::size_t>(i)])) continue;
      d.zrem(a[1], a[static_cast<std::size_t>(i)]);
      ++removed;
      e.writes = true;
    }
    return answer(Reply::integer(removed));
  }
  if (name == "ZRANGE") {
    bool with_scores = false;
    if (argc == 5) {
      if (upper_of(a[4]) != "WITHSCORES") return answer(Reply::error("ERR syntax error"));
      with_scores = true;
    } else if (argc != 4) {
      return answer(Reply::error("ERR syntax error"));
    }
    const auto start = integer(a[2]), stop = integer(a[3]);
    if (!start || !stop) return answer(Reply::error(e_not_integer));
    if (t != KeyType::none && t != KeyType::zset) return answer(wrongtype);
    Reply r = Reply::array();
    if (const Keyspace::Zset* z = zset(d, a[1])) {
      const auto n = static_cast<std::int64_t>(z->order.size());
      std::int64_t lo = *start < 0 ? std::max<std::int64_t>(0, n + *start) : *start;
      std::int64_t hi = *stop < 0 ? n + *stop : std::min(*stop, n - 1);
      for (std::int64_t i = lo; i <= hi && i < n; ++i) {
        const auto& [score, member] = z->order.begin()[i];
        r.items().push_back(Reply::bulk(member));
        if (with_scores) r.items().push_back(Reply::bulk(sim::format_score(score)));
      }
    }
    return answer(std::move(r));
  }
  if (name == "ZSCORE") {
    if (t != KeyType::none && t != KeyType::zset) return answer(wrongtype);
    const auto s = score_of(d, a[1], a[2]);
    return answer(s ? Reply::bulk(sim::format_score(*s)) : Reply::nil());
  }
  if (name == "INCR") {
    if (t != KeyType::none && t != KeyType::string) return answer(wrongtype);
    if (t == KeyType::string) {
      const auto n = integer(std::get<0>(*d.find(a[1])));
      if (!n || *n == i64_max) return answer(Reply::error(e_not_integer));
    }
    e.writes = true;
    return answer(Reply::integer(d.incr(a[1])));
  }
  if (name == "SET") {  // SET key value (no options): replaces a key of any type
    if (argc != 3) return answer(Reply::error("ERR syntax error"));
    d.set(a[1], a[2]);
    e.writes = true;
    return answer(Reply::simple("OK"));
  }
  if (name == "DEL") {
    std::int64_t removed = 0;
    for (int i = 1; i < argc; ++i) {
      if (d.del(a[static_cast<std::size_t>(i)]) > 0) {
        ++removed;
        e.writes = true;
      }
    }
    return answer(Reply::integer(removed));
  }
  if (name == "TYPE") {
    static constexpr std::array<std::string_view, 4> names{"none", "string", "hash", "zset"};
    return answer(Reply::simple(names[t == KeyType::none ? 0 : t == KeyType::string ? 1 : t == KeyType::hash ? 2 : 3]));
  }
  // EXISTS
  std::int64_t n = 0;
  for (int i = 1; i < argc; ++i) n += d.exists(a[static_cast<std::size_t>(i)]) ? 1 : 0;
  return answer(Reply::integer(n));
}

// ---- comparing datasets

namespace {
std::string show(const Keyspace::Value* v) {
  if (!v) return "(no key)";
  switch (v->index()) {
    case 0: return "string " + sim::quote_bytes(std::get<0>(*v));
    case 1: {
      auto fields = std::get<1>(*v);
      std::sort(fields.begin(), fields.end());
      std::string s = "hash {";
      for (const auto& [f, x] : fields) s += " " + f + "=" + sim::quote_bytes(x);
      return s + " }";
    }
    default: {
      std::string s = "zset [";
      for (const auto& [score, m] : std::get<2>(*v)->order) s += " " + m + ":" + sim::format_score(score);
      return s + " ]";
    }
  }
}

}  // namespace

bool same_value(const Keyspace::Value* a, const Keyspace::Value* b) {
  if (!a || !b) return a == b;
  if (a->index() != b->index()) return false;
  if (a->index() == 1) {  // a hash: the same fields with the same values, in any order
    const auto& x = std::get<1>(*a);
    const auto& y = std::get<1>(*b);
    if (x.size() != y.size()) return false;
    // Both sides usually write a row's fields in the same order: look at the same place
    // first, and search only when it holds another field.
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto& [f, v] = x[i];
      const std::string* w = StringEqual{}(y[i].first, f) ? &y[i].second : field(&y, f);
      if (!w || !StringEqual{}(*w, v)) return false;
    }
    return true;
  }
  return *a == *b;
}

std::string compare_key(const Keyspace& server, const Keyspace& model, std::string_view key) {
  const Keyspace::Value* s = server.find(key);
  const Keyspace::Value* m = model.find(key);
  if (same_value(s, m)) return {};
  return std::string(key) + " is " + show(s) + ", the model has " + show(m);
}

std::string compare_all(const Keyspace& server, const Keyspace& model, std::size_t max) {
  std::vector<std::string> keys = server.keys();
  for (auto& k : model.keys()) keys.push_back(std::move(k));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::string out;
  std::size_t found = 0;
  for (const auto& k : keys) {
    std::string diff = compare_key(server, model, k);
    if (diff.empty()) continue;
    if (found++ < max) out += (out.empty() ? "" : "; ") + diff;
  }
  if (found > max) out += "; and " + std::to_string(found - max) + " more key(s)";
  return out;
}

}  // namespace trafikey::properties::model
