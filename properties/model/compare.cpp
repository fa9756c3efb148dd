// Comparing the server's dataset with the model's (model.h: same_value, compare_key,
// compare_all): verb.model's check of what a call wrote, and of the whole keyspace at a
// phase's end.
#include <algorithm>
#include <string>
#include <vector>

#include "properties/model/model.h"
#include "properties/model/rows.h"

namespace trafikey::properties::model {

using sim::Keyspace;

namespace {

// A key's value as a reviewer reads it: hash fields sorted, zset members in order.
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
