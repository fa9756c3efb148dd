// The plain commands of the simulated server (sim/plain.cpp's table), Valkey's way, on the
// model's dataset: what an operator's fault or a script's redis.call does (model.h).
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "properties/model/model.h"
#include "properties/model/refusals.h"
#include "properties/model/rows.h"

namespace trafikey::properties::model {

namespace {

using sim::Keyspace;

// A plain command past its arity and replica checks: its arguments, the model's dataset,
// the type of the key it names (a[1]), and whether it wrote.
struct PlainCall {
  Keyspace& d;
  Args a;
  KeyType t;
  bool& writes;

  // The key holds another type than `want` (absent is any type).
  bool holds_other_than(KeyType want) const { return t != KeyType::none && t != want; }
};

Reply wrongtype() { return Reply::error(e_wrongtype); }

std::string upper_of(std::string_view s) {
  std::string u(s);
  for (char& c : u) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return u;
}

// A ZADD score as Valkey reads one: inf, +inf or -inf, else strtod over all of at most 64
// bytes that do not begin with a space, and not NaN.
std::optional<double> zadd_score(std::string_view text) {
  const std::string s(text);
  if (s == "inf" || s == "+inf") return HUGE_VAL;
  if (s == "-inf") return -HUGE_VAL;
  if (s.empty() || s.size() > 64 || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v)) return std::nullopt;
  return v;
}

Reply hset(PlainCall& c) {
  if (c.a.size() % 2 != 0) return Reply::error("ERR wrong number of arguments for 'hset' command");
  if (c.holds_other_than(KeyType::hash)) return wrongtype();
  std::int64_t added = 0;
  for (std::size_t i = 2; i + 1 < c.a.size(); i += 2) {
    if (!field(hash(c.d, c.a[1]), c.a[i])) ++added;
    c.d.hset(c.a[1], c.a[i], c.a[i + 1]);
  }
  c.writes = true;
  return Reply::integer(added);
}

Reply hget(PlainCall& c) {
  if (c.holds_other_than(KeyType::hash)) return wrongtype();
  const std::string* v = field(hash(c.d, c.a[1]), c.a[2]);
  return v ? Reply::bulk(*v) : Reply::nil();
}

Reply hgetall(PlainCall& c) {
  if (c.holds_other_than(KeyType::hash)) return wrongtype();
  Reply r = Reply::array();
  if (const Keyspace::Hash* h = hash(c.d, c.a[1])) {
    for (const auto& [f, v] : *h) {  // insertion order, as a small hash keeps it
      r.items().push_back(Reply::bulk(f));
      r.items().push_back(Reply::bulk(v));
    }
  }
  return r;
}

Reply hdel(PlainCall& c) {
  if (c.holds_other_than(KeyType::hash)) return wrongtype();
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < c.a.size(); ++i) {
    if (field(hash(c.d, c.a[1]), c.a[i])) {
      c.d.hdel(c.a[1], c.a[i]);
      ++removed;
      c.writes = true;
    }
  }
  return Reply::integer(removed);
}

Reply zadd(PlainCall& c) {
  if (c.a.size() % 2 != 0) return Reply::error("ERR syntax error");
  std::vector<double> scores;
  for (std::size_t i = 2; i < c.a.size(); i += 2) {
    const auto score = zadd_score(c.a[i]);
    if (!score) return Reply::error("ERR value is not a valid float");
    scores.push_back(*score);
  }
  if (c.holds_other_than(KeyType::zset)) return wrongtype();
  std::int64_t added = 0;
  for (std::size_t i = 2; i < c.a.size(); i += 2) {
    if (!score_of(c.d, c.a[1], c.a[i + 1])) ++added;
    c.d.zadd(c.a[1], scores[(i - 2) / 2], c.a[i + 1]);
  }
  c.writes = true;
  return Reply::integer(added);
}

Reply zrem(PlainCall& c) {
  if (c.holds_other_than(KeyType::zset)) return wrongtype();
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < c.a.size(); ++i) {
    if (score_of(c.d, c.a[1], c.a[i])) {
      c.d.zrem(c.a[1], c.a[i]);
      ++removed;
      c.writes = true;
    }
  }
  return Reply::integer(removed);
}

// ZRANGE key start stop [WITHSCORES], by rank; a negative rank counts from the end.
Reply zrange(PlainCall& c) {
  const std::size_t argc = c.a.size();
  if (argc > 5 || (argc == 5 && upper_of(c.a[4]) != "WITHSCORES")) return Reply::error("ERR syntax error");
  const bool with_scores = argc == 5;
  const auto start = integer(c.a[2]), stop = integer(c.a[3]);
  if (!start || !stop) return Reply::error(e_not_integer);
  if (c.holds_other_than(KeyType::zset)) return wrongtype();
  Reply r = Reply::array();
  if (const Keyspace::Zset* z = zset(c.d, c.a[1])) {
    const auto n = static_cast<std::int64_t>(z->order.size());
    std::int64_t lo = *start < 0 ? std::max<std::int64_t>(0, n + *start) : *start;
    std::int64_t hi = *stop < 0 ? n + *stop : std::min(*stop, n - 1);
    for (std::int64_t i = lo; i <= hi && i < n; ++i) {
      const auto& [score, member] = z->order.begin()[i];
      r.items().push_back(Reply::bulk(member));
      if (with_scores) r.items().push_back(Reply::bulk(sim::format_score(score)));
    }
  }
  return r;
}

Reply zscore(PlainCall& c) {
  if (c.holds_other_than(KeyType::zset)) return wrongtype();
  const auto s = score_of(c.d, c.a[1], c.a[2]);
  return s ? Reply::bulk(sim::format_score(*s)) : Reply::nil();
}

Reply incr(PlainCall& c) {
  if (c.holds_other_than(KeyType::string)) return wrongtype();
  if (c.t == KeyType::string) {
    const auto n = integer(std::get<0>(*c.d.find(c.a[1])));
    if (!n || *n == i64_max) return Reply::error(e_not_integer);
  }
  c.writes = true;
  return Reply::integer(c.d.incr(c.a[1]));
}

// SET key value (no options): replaces a key of any type.
Reply set(PlainCall& c) {
  if (c.a.size() != 3) return Reply::error("ERR syntax error");
  c.d.set(c.a[1], c.a[2]);
  c.writes = true;
  return Reply::simple("OK");
}

Reply del(PlainCall& c) {
  std::int64_t removed = 0;
  for (std::size_t i = 1; i < c.a.size(); ++i) {
    if (c.d.del(c.a[i]) > 0) {
      ++removed;
      c.writes = true;
    }
  }
  return Reply::integer(removed);
}

Reply type(PlainCall& c) {
  static constexpr std::array<std::string_view, 4> names{"none", "string", "hash", "zset"};
  const KeyType t = c.t;
  return Reply::simple(names[t == KeyType::none ? 0 : t == KeyType::string ? 1 : t == KeyType::hash ? 2 : 3]);
}

Reply exists(PlainCall& c) {
  std::int64_t n = 0;
  for (std::size_t i = 1; i < c.a.size(); ++i) n += c.d.exists(c.a[i]) ? 1 : 0;
  return Reply::integer(n);
}

struct Command {
  std::string_view upper, lower;  // its name, and as the arity error spells it
  int arity;                      // > 0 exactly, < 0 at least -arity arguments with the name
  bool writes;                    // refused on a replica
  Reply (*run)(PlainCall&);
};
constexpr std::array<Command, 13> commands{{
    {"HSET", "hset", -4, true, hset},       {"HGET", "hget", 3, false, hget},
    {"HGETALL", "hgetall", 2, false, hgetall}, {"HDEL", "hdel", -3, true, hdel},
    {"ZADD", "zadd", -4, true, zadd},       {"ZRANGE", "zrange", -4, false, zrange},
    {"ZREM", "zrem", -3, true, zrem},       {"ZSCORE", "zscore", 3, false, zscore},
    {"INCR", "incr", 2, true, incr},        {"DEL", "del", -2, true, del},
    {"TYPE", "type", 2, false, type},       {"EXISTS", "exists", -2, false, exists},
    {"SET", "set", -3, true, set},
}};

const Command* command_named(std::string_view name) {
  const std::string upper = upper_of(name);
  for (const Command& command : commands) {
    if (command.upper == upper) return &command;
  }
  return nullptr;
}

}  // namespace

Expectation& Model::plain(Args a, const Context& ctx, Expectation& e) {
  const Command* command = command_named(a[0]);
  const int argc = static_cast<int>(a.size());
  if (!command) {
    e.replies.push_back(unknown(a));
  } else if ((command->arity > 0 && argc != command->arity) || (command->arity < 0 && argc < -command->arity)) {
    e.replies.push_back(Reply::error("ERR wrong number of arguments for '" + std::string(command->lower) + "' command"));
  } else if (command->writes && ctx.replica) {
    e.replies.push_back(Reply::error("READONLY You can't write against a read only replica."));
  } else {
    PlainCall c{data_, a, type_of(data_, a[1]), e.writes};
    e.replies.push_back(command->run(c));
  }
  return e;
}

}  // namespace trafikey::properties::model
