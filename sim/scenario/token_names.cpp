#include "sim/scenario/token_names.h"

#include "core/args.h"
#include "core/commands.h"
#include "core/verbs/common.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

namespace {

bool is_claim(const std::vector<std::string>& argv) {
  const CommandSpec* spec = argv.empty() ? nullptr : find_command(argv[0]);
  return spec && spec->id == VerbId::claim;
}

// A wire 2 token (EMQ §8: `<attempts>-<grant id>`), as token_arg reads one.
bool is_wire2_token(std::string_view text) {
  const auto token = verbs::token_arg(text);
  return token.ok() && token.value().wire2();
}

// A client or job a name can hold: a plain word with no '/'.
bool nameable(std::string_view part) { return is_plain_word(part) && part.find('/') == std::string_view::npos; }

}  // namespace

void TokenNames::learn(const std::string& client, const std::vector<std::string>& argv, const Reply& reply) {
  if (!is_claim(argv) || reply.kind() != Reply::Kind::array) return;
  for (const Reply& item : reply.items()) {
    if (item.kind() != Reply::Kind::array || item.items().size() < 4) continue;
    const Reply& id = item.items()[0];
    const Reply& token = item.items()[3];
    auto text = [](const Reply& r) { return r.kind() == Reply::Kind::bulk || r.kind() == Reply::Kind::simple; };
    if (!text(id) || !text(token)) continue;
    if (!is_wire2_token(token.text())) continue;
    auto& tokens = handed_[{client, std::string(id.text())}];
    tokens.emplace_back(token.text());
    by_token_.try_emplace(std::string(token.text()), Handed{client, std::string(id.text()), tokens.size()});
  }
}

std::optional<std::string> TokenNames::resolve(std::string_view word) const {
  if (word.size() < 4 || word[0] != '@') return std::nullopt;
  const std::string_view rest = word.substr(1);
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  const std::string client(rest.substr(0, slash));
  const std::string_view job = rest.substr(slash + 1);
  // `@C/J`: the latest token C was handed for J
  if (const auto it = handed_.find(std::pair<std::string, std::string>{client, std::string(job)}); it != handed_.end()) {
    return it->second.back();
  }
  // `@C/J/N`: the N-th
  const std::size_t last = job.rfind('/');
  if (last == std::string_view::npos) return std::nullopt;
  const auto n = parse_int64(job.substr(last + 1));
  if (!n || *n < 1) return std::nullopt;
  const auto it = handed_.find(std::pair<std::string, std::string>{client, std::string(job.substr(0, last))});
  if (it == handed_.end() || static_cast<std::size_t>(*n) > it->second.size()) return std::nullopt;
  return it->second[static_cast<std::size_t>(*n) - 1];
}

std::vector<std::string> TokenNames::resolved(const std::vector<std::string>& argv) const {
  std::vector<std::string> out = argv;
  for (std::string& arg : out) {
    if (auto token = resolve(arg)) arg = std::move(*token);
  }
  return out;
}

ReplyPattern TokenNames::resolved(const ReplyPattern& pattern) const {
  ReplyPattern out = pattern;
  if (out.kind == ReplyPattern::Kind::string) {
    if (auto token = resolve(out.text)) out.text = std::move(*token);
  }
  for (ReplyPattern& item : out.items) item = resolved(item);
  return out;
}

std::optional<std::string> TokenNames::name_of(std::string_view token) const {
  const auto it = by_token_.find(token);
  if (it == by_token_.end()) return std::nullopt;
  const Handed& h = it->second;
  if (!nameable(h.client) || !nameable(h.job)) return std::nullopt;
  const std::string name = "@" + h.client + "/" + h.job;
  const auto& all = handed_.find(std::pair<std::string, std::string>{h.client, h.job})->second;
  return h.n == all.size() ? name : name + "/" + std::to_string(h.n);
}

Scenario name_tokens(const Scenario& scenario) {
  Scenario out = scenario;
  TokenNames names;
  // the token items of a CLAIM reply's pattern named after the reply taught them
  auto name_claim_reply = [&](ReplyPattern& pattern) {
    if (pattern.kind != ReplyPattern::Kind::array) return;
    for (ReplyPattern& item : pattern.items) {
      if (item.kind != ReplyPattern::Kind::array || item.items.size() < 4) continue;
      ReplyPattern& token = item.items[3];
      if (token.kind != ReplyPattern::Kind::string) continue;
      if (auto name = names.name_of(token.text)) token.text = std::move(*name);
    }
  };
  for (Step& step : out.steps) {
    auto* call = std::get_if<Call>(&step.action);
    if (!call) continue;
    for (std::string& arg : call->argv) {
      if (auto name = names.name_of(arg)) arg = std::move(*name);
    }
    // The reply the call got, as its pattern spells it exactly (an exported file's do):
    // what the runner will learn from.
    if (!call->expect) continue;
    if (is_claim(call->argv)) {
      std::vector<Reply> items;
      if (call->expect->kind == ReplyPattern::Kind::array) {
        for (const ReplyPattern& item : call->expect->items) {
          if (item.kind != ReplyPattern::Kind::array || item.items.size() < 4) continue;
          const ReplyPattern& id = item.items[0];
          const ReplyPattern& token = item.items[3];
          if (id.kind != ReplyPattern::Kind::string || token.kind != ReplyPattern::Kind::string) continue;
          items.push_back(Reply::array({Reply::bulk(id.text), Reply::integer(0), Reply::bulk(""), Reply::bulk(token.text)}));
        }
      }
      names.learn(call->client, call->argv, Reply::array(std::move(items)));
      name_claim_reply(*call->expect);
    }
  }
  return out;
}

}  // namespace trafikey::scenario
