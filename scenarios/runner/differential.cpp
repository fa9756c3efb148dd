#include "scenarios/runner/differential.h"

#include <algorithm>
#include <cstdlib>

#include "core/args.h"
#include "core/keys.h"
#include "core/text.h"
#include "sim/keyspace.h"
#include "sim/lua.h"
#include "sim/plain.h"
#include "sim/scenario/reply_pattern.h"

namespace trafikey::scenario {

namespace {


std::string queue_prefix(std::string_view queue) { return std::string(QueueKeys(queue).prefix()); }

constexpr std::string_view server_time = "<server time>";

}  // namespace

bool ScenarioKeys::wanted(std::string_view key) const {
  if (plain_keys.contains(std::string(key))) return true;
  return std::any_of(queues.begin(), queues.end(),
                     [&](const std::string& q) { return key.starts_with(queue_prefix(q)); });
}

bool ScenarioKeys::time_scored(std::string_view key) const {
  return std::any_of(queues.begin(), queues.end(), [&](const std::string& q) {
    const QueueKeys k(q);
    return key == k.active() || key == k.done() || key == k.dead();
  });
}

ScenarioKeys scenario_keys(const Scenario& scenario) {
  ScenarioKeys keys;
  for (const Step& step : scenario.steps) {
    const auto* call = std::get_if<Call>(&step.action);
    if (!call || call->argv.size() < 2) continue;
    const std::string verb = upper(call->argv[0]);
    if (verb.starts_with("EMQ.")) {
      if (valid_queue_name(call->argv[1])) keys.queues.insert(call->argv[1]);
    } else if (verb == "EVAL" || verb == "EVALSHA") {
      // EVAL BODY NUMKEYS KEY...: a key of a queue (emq:{q}:...) brings in the queue.
      std::size_t numkeys = 0;
      if (call->argv.size() > 2) numkeys = std::strtoull(call->argv[2].c_str(), nullptr, 10);
      for (std::size_t i = 3; i < call->argv.size() && i < 3 + numkeys; ++i) {
        const std::string& key = call->argv[i];
        if (const auto q = key_queue(key)) {
          keys.queues.insert(std::string(*q));
        } else {
          keys.plain_keys.insert(key);
        }
      }
    } else if (verb == "SCRIPT") {
      continue;  // names no key
    } else if (verb == "DEL" || verb == "EXISTS") {
      keys.plain_keys.insert(call->argv.begin() + 1, call->argv.end());
    } else {
      keys.plain_keys.insert(call->argv[1]);
    }
  }
  for (const Step& step : scenario.steps) {
    if (const auto* row = std::get_if<CheckRow>(&step.action)) {
      if (valid_queue_name(row->queue)) keys.queues.insert(row->queue);
    } else if (const auto* set = std::get_if<CheckSet>(&step.action)) {
      if (valid_queue_name(set->queue)) keys.queues.insert(set->queue);
    }
  }
  return keys;
}

namespace {
// A grant id `<run_id>-<n>` or a wire 2 token ending in one (EMQ §8) with its number hidden:
// the module starts the numbers above the server's time at its load, so off the sim's
// clock they are the real server's own.
std::string grant_number_hidden(const std::string& text) {
  const std::size_t dash = text.rfind('-');
  if (dash == std::string::npos || dash < 40 || dash + 1 == text.size()) return text;
  const std::string_view run_id = std::string_view(text).substr(dash - 40, 40);
  const bool hex = std::all_of(run_id.begin(), run_id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  const bool digits = std::all_of(text.begin() + static_cast<std::ptrdiff_t>(dash) + 1, text.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  if (!hex || !digits || (dash > 40 && text[dash - 41] != '-')) return text;
  return text.substr(0, dash + 1) + "(server-time number)";
}

// A score in one spelling for both servers: the sim's, of the double it reads as.
std::string same_spelling(const std::string& score) {
  char* end = nullptr;
  const double value = std::strtod(score.c_str(), &end);
  return end != score.c_str() && *end == '\0' ? sim::format_score(value) : score;
}

Reply grant_numbers_hidden(const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::bulk: return Reply::bulk(grant_number_hidden(reply.text()));
    case Reply::Kind::array: {
      Reply out = Reply::array();
      for (const Reply& item : reply.items()) out.items().push_back(grant_numbers_hidden(item));
      return out;
    }
    default: return reply;
  }
}
}  // namespace

std::string normalised_key_text(std::string_view key, const KeyValue& value,
                                const ScenarioKeys& keys) {
  std::string out(key_type_name(value.type));
  switch (value.type) {
    case KeyType::string: out += " " + sim::quote_bytes(value.value); break;
    case KeyType::hash: {
      auto fields = value.items;
      std::sort(fields.begin(), fields.end());
      for (const auto& [f, v] : fields) {
        out += " " + f + "=" + sim::quote_bytes(f == "lease" && !keys.clocks_agree ? grant_number_hidden(v) : v);
      }
      break;
    }
    case KeyType::zset: {
      if (keys.scores_hidden(key)) {
        std::vector<std::string> members;
        for (const auto& [m, score] : value.items) members.push_back(m);
        std::sort(members.begin(), members.end());
        out += " (server-time scores)";
        for (const auto& m : members) out += " " + sim::quote_bytes(m);
      } else {
        // a score as the sim spells a double (Redis 7.0's %.17g): Valkey 8 spells some
        // differently (9.2233720368547758e+18 as 9223372036854776000), the same value
        for (const auto& [m, score] : value.items) out += " " + sim::quote_bytes(m) + ":" + same_spelling(score);
      }
      break;
    }
    default: break;
  }
  return out;
}

Reply normalised_reply(const CallTrace& call, const ScenarioKeys& keys) {
  // off the sim's clock, grant numbers are the real server's own (as scores are, below)
  const Reply reply = keys.clocks_agree ? call.reply : grant_numbers_hidden(call.reply);
  if (call.argv.size() < 2 || !keys.scores_hidden(call.argv[1]) || reply.is_error()) return reply;
  const std::string verb = upper(call.argv[0]);
  if (verb == "ZSCORE" && reply.kind() == Reply::Kind::bulk) return Reply::bulk(server_time);
  const bool withscores = std::any_of(call.argv.begin() + 2, call.argv.end(), [](const std::string& a) {
    return upper(a) == "WITHSCORES";
  });
  if (verb == "ZRANGE" && withscores && reply.kind() == Reply::Kind::array) {
    std::vector<std::string> members;
    for (std::size_t i = 0; i < reply.items().size(); i += 2) members.push_back(reply.items()[i].text());
    std::sort(members.begin(), members.end());
    Reply out = Reply::array();
    for (const auto& m : members) {
      out.items().push_back(Reply::bulk(m));
      out.items().push_back(Reply::bulk(server_time));
    }
    return out;
  }
  return reply;
}

void RunIdMap::add(std::string real_run_id, std::string sim_run_id) {
  if (real_run_id.empty()) return;
  pairs_.emplace_back(std::move(real_run_id), std::move(sim_run_id));
}

namespace {
// `value` with each `from` that stands between dashes (or at an end) replaced by `to`.
std::string between_dashes(std::string value, const std::string& from, const std::string& to) {
  std::size_t at = 0;
  while ((at = value.find(from, at)) != std::string::npos) {
    const bool starts = at == 0 || value[at - 1] == '-';
    const bool ends = at + from.size() == value.size() || value[at + from.size()] == '-';
    if (starts && ends) {
      value.replace(at, from.size(), to);
      at += to.size();
    } else {
      at += 1;
    }
  }
  return value;
}
}  // namespace

std::string RunIdMap::map(const std::string& value) const {
  for (const auto& [real, sim] : pairs_) {
    if (value == real) return sim;
  }
  // a grant id `<run_id>-<n>` or a wire 2 token `<attempts>-<run_id>-<n>` (EMQ §8): the run_id
  // between dashes. (On a server the runner starts, its clock is the sim's, so the numbers
  // after it are the sim's too: the module starts them above the server time at its load.)
  std::string out = value;
  for (const auto& [real, sim] : pairs_) out = between_dashes(std::move(out), real, sim);
  return out;
}

std::string RunIdMap::to_real(const std::string& value) const {
  std::string out = value;
  for (const auto& [real, sim] : pairs_) {
    // a whole argument that is a sim run_id (a stamp written by hand, as the adversarial
    // client's corrupt rows write the serving process's) is that process's real one
    if (value == sim) return real;
    if (value.find('-') != std::string::npos) out = between_dashes(std::move(out), sim, real);
  }
  return out;
}

Reply RunIdMap::map(const Reply& reply) const {
  switch (reply.kind()) {
    case Reply::Kind::bulk: return Reply::bulk(map(reply.text()));
    case Reply::Kind::simple: return Reply::simple(map(reply.text()));
    case Reply::Kind::array: {
      Reply out = Reply::array();
      for (const Reply& item : reply.items()) out.items().push_back(map(item));
      return out;
    }
    default: return reply;
  }
}

Reply in_sim_wording(const Reply& reply) {
  // (another server's text, the sim's text)
  static constexpr std::pair<std::string_view, std::string_view> other_wordings[] = {
      {"NOSCRIPT No matching script.", sim::noscript_error},  // Valkey 8
  };
  if (reply.kind() == Reply::Kind::array) {
    Reply out = Reply::array();
    for (const Reply& item : reply.items()) out.items().push_back(in_sim_wording(item));
    return out;
  }
  if (!reply.is_error()) return reply;
  for (const auto& [theirs, ours] : other_wordings) {
    if (reply.text() == theirs) return Reply::error(ours);
  }
  return reply;
}

std::optional<Difference> first_difference(const RunResult& sim, const RunResult& real,
                                           const ScenarioKeys& keys) {
  constexpr std::string_view none = "(none)";
  const std::size_t n = std::max(sim.calls.size(), real.calls.size());
  for (std::size_t i = 0; i < n; ++i) {
    const CallTrace* s = i < sim.calls.size() ? &sim.calls[i] : nullptr;
    const CallTrace* r = i < real.calls.size() ? &real.calls[i] : nullptr;
    Difference d{(s ? s : r)->line, "the reply", std::string(none), std::string(none)};
    if (s) d.sim = to_notation(normalised_reply(*s, keys));
    if (r) d.real = to_notation(normalised_reply(*r, keys));
    if (!s || !r || normalised_reply(*s, keys) != normalised_reply(*r, keys)) return d;
  }
  std::set<std::string> names;
  for (const auto& entry : sim.final_keys) names.insert(entry.first);
  for (const auto& entry : real.final_keys) names.insert(entry.first);
  auto text = [&](const std::map<std::string, KeyValue>& final_keys, const std::string& key) {
    auto it = final_keys.find(key);
    return it == final_keys.end() ? std::string(none) : normalised_key_text(key, it->second, keys);
  };
  for (const std::string& key : names) {
    Difference d{0, "final key " + sim::quote_bytes(key), text(sim.final_keys, key), text(real.final_keys, key)};
    if (d.sim != d.real) return d;
  }
  return std::nullopt;
}

}  // namespace trafikey::scenario
