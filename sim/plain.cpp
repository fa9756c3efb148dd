#include "sim/plain.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/errors.h"
#include "sim/server.h"

namespace trafikey::sim {

namespace {

using Kind = WriteOp::Kind;

struct PlainSpec {
  std::string_view name;  // lower case, as the server names it in errors
  int arity;              // Redis convention: > 0 exact, < 0 at least -arity
  bool writes;
  Reply (*run)(SimServer&, Args);
};

Reply wrong_type() { return errors::error(errors::wrong_type); }

std::optional<double> parse_score(std::string_view text) {
  if (text.empty() || text.size() > 64) return std::nullopt;
  std::string s(text);
  if (s == "inf" || s == "+inf") return HUGE_VAL;
  if (s == "-inf") return -HUGE_VAL;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || std::isnan(v) || std::isspace(static_cast<unsigned char>(s[0]))) {
    return std::nullopt;
  }
  return v;
}

Reply hset(SimServer& s, Args a) {
  if (a.size() % 2 != 0) return errors::error("ERR wrong number of arguments for 'hset' command");
  bool wrong = false;
  const Keyspace::Hash* h = s.data().hash_at(a[1], wrong);
  if (wrong) return wrong_type();
  std::int64_t added = 0;
  for (std::size_t i = 2; i + 1 < a.size(); i += 2) {
    const bool had = h && Keyspace::hash_field(*h, a[i]);
    s.write({Kind::hset, std::string(a[1]), std::string(a[i]), std::string(a[i + 1]), 0});
    h = s.data().hash_at(a[1], wrong);
    if (!had) ++added;
  }
  return Reply::integer(added);
}

Reply hget(SimServer& s, Args a) {
  auto v = s.hget(a[1], a[2]);
  if (!v.ok()) return v.error();
  return v.value() ? Reply::bulk(*v.value()) : Reply::nil();
}

Reply hgetall(SimServer& s, Args a) {
  auto all = s.hgetall(a[1]);
  if (!all.ok()) return all.error();
  Reply r = Reply::array();
  for (const auto& fv : all.value()) {
    r.items().push_back(Reply::bulk(fv.field));
    r.items().push_back(Reply::bulk(fv.value));
  }
  return r;
}

Reply hdel(SimServer& s, Args a) {
  bool wrong = false;
  if (s.data().hash_at(a[1], wrong); wrong) return wrong_type();
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < a.size(); ++i) {
    const Keyspace::Hash* h = s.data().hash_at(a[1], wrong);
    if (!h || !Keyspace::hash_field(*h, a[i])) continue;
    s.write({Kind::hdel, std::string(a[1]), std::string(a[i]), {}, 0});
    ++removed;
  }
  return Reply::integer(removed);
}

Reply zadd(SimServer& s, Args a) {
  if (a.size() % 2 != 0) return errors::error("ERR syntax error");
  bool wrong = false;
  std::vector<double> scores;
  for (std::size_t i = 2; i < a.size(); i += 2) {
    auto score = parse_score(a[i]);
    if (!score) return errors::error("ERR value is not a valid float");
    scores.push_back(*score);
  }
  if (s.data().zset_at(a[1], wrong); wrong) return wrong_type();
  std::int64_t added = 0;
  for (std::size_t i = 2; i < a.size(); i += 2) {
    const Keyspace::Zset* z = s.data().zset_at(a[1], wrong);
    if (!z || !z->scores.contains(a[i + 1])) ++added;
    s.write({Kind::zadd, std::string(a[1]), std::string(a[i + 1]), {}, scores[(i - 2) / 2]});
  }
  return Reply::integer(added);
}

Reply zrem(SimServer& s, Args a) {
  bool wrong = false;
  if (s.data().zset_at(a[1], wrong); wrong) return wrong_type();
  std::int64_t removed = 0;
  for (std::size_t i = 2; i < a.size(); ++i) {
    const Keyspace::Zset* z = s.data().zset_at(a[1], wrong);
    if (!z || !z->scores.contains(a[i])) continue;
    s.write({Kind::zrem, std::string(a[1]), std::string(a[i]), {}, 0});
    ++removed;
  }
  return Reply::integer(removed);
}

Reply zrange(SimServer& s, Args a) {
  bool with_scores = false;
  if (a.size() == 5) {
    if (!equals_ignore_case(a[4], "WITHSCORES")) return errors::error("ERR syntax error");
    with_scores = true;
  } else if (a.size() != 4) {
    return errors::error("ERR syntax error");
  }
  auto start = parse_int64(a[2]);
  auto stop = parse_int64(a[3]);
  if (!start || !stop) return errors::error("ERR value is not an integer or out of range");
  bool wrong = false;
  const Keyspace::Zset* z = s.data().zset_at(a[1], wrong);
  if (wrong) return wrong_type();
  Reply r = Reply::array();
  if (!z) return r;
  for (const auto& [member, score] : Keyspace::zrange_by_rank(*z, *start, *stop)) {
    r.items().push_back(Reply::bulk(member));
    if (with_scores) r.items().push_back(Reply::bulk(format_score(score)));
  }
  return r;
}

Reply zscore(SimServer& s, Args a) {
  auto v = s.zscore(a[1], a[2]);
  if (!v.ok()) return v.error();
  return v.value() ? Reply::bulk(format_score(*v.value())) : Reply::nil();
}

Reply incr(SimServer& s, Args a) {
  bool wrong = false;
  const std::string* v = s.data().string_at(a[1], wrong);
  if (wrong) return wrong_type();
  if (v) {
    auto n = parse_int64(*v);
    if (!n || *n == int64_max) return errors::error("ERR value is not an integer or out of range");
  }
  s.write({Kind::incr, std::string(a[1]), {}, {}, 0});
  return Reply::integer(*parse_int64(*s.data().string_at(a[1], wrong)));
}

// SET key value, without options (EX, NX, ...: a syntax error here, as for any word the
// server does not know there): it replaces whatever the key held, of any type, as SET does.
// Lets an operator or a scenario leave a `seq` INCR refuses (EMQ §6) or a row key that is
// a string.
Reply set(SimServer& s, Args a) {
  if (a.size() != 3) return errors::error("ERR syntax error");
  s.write({Kind::set, std::string(a[1]), std::string(a[2]), {}, 0});
  return Reply::simple("OK");
}

Reply del(SimServer& s, Args a) {
  std::int64_t removed = 0;
  for (std::size_t i = 1; i < a.size(); ++i) {
    if (!s.data().exists(a[i])) continue;
    s.write({Kind::del, std::string(a[i]), {}, {}, 0});
    ++removed;
  }
  return Reply::integer(removed);
}

Reply type(SimServer& s, Args a) { return Reply::simple(key_type_name(s.data().type(a[1]))); }

Reply exists(SimServer& s, Args a) {
  std::int64_t n = 0;
  for (std::size_t i = 1; i < a.size(); ++i) n += s.data().exists(a[i]) ? 1 : 0;
  return Reply::integer(n);
}

constexpr std::array plain_table{
    PlainSpec{"hset", -4, true, hset},       PlainSpec{"hget", 3, false, hget},
    PlainSpec{"hgetall", 2, false, hgetall}, PlainSpec{"hdel", -3, true, hdel},
    PlainSpec{"zadd", -4, true, zadd},       PlainSpec{"zrem", -3, true, zrem},
    PlainSpec{"zrange", -4, false, zrange},  PlainSpec{"zscore", 3, false, zscore},
    PlainSpec{"incr", 2, true, incr},        PlainSpec{"del", -2, true, del},
    PlainSpec{"type", 2, false, type},       PlainSpec{"exists", -2, false, exists},
    PlainSpec{"set", -3, true, set},
};

const PlainSpec* find_plain(std::string_view name) {
  for (const auto& spec : plain_table) {
    if (equals_ignore_case(spec.name, name)) return &spec;
  }
  return nullptr;
}

}  // namespace

bool is_plain_command(std::string_view name) { return find_plain(name) != nullptr; }

std::vector<std::string> plain_command_names() {
  std::vector<std::string> names;
  for (const auto& spec : plain_table) {
    std::string name(spec.name);
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    names.push_back(std::move(name));
  }
  return names;
}

std::optional<Reply> run_plain(SimServer& server, Args argv) {
  const PlainSpec* spec = argv.empty() ? nullptr : find_plain(argv[0]);
  if (!spec) return std::nullopt;
  const auto argc = static_cast<int>(argv.size());
  if ((spec->arity > 0 && argc != spec->arity) || (spec->arity < 0 && argc < -spec->arity)) {
    return errors::error("ERR wrong number of arguments for '" + std::string(spec->name) +
                         "' command");
  }
  if (spec->writes && server.role() == Role::replica) {
    return errors::error("READONLY You can't write against a read only replica.");
  }
  return spec->run(server, argv);
}

}  // namespace trafikey::sim
