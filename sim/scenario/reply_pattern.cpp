#include "sim/scenario/reply_pattern.h"

#include "sim/keyspace.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

ReplyPattern ReplyPattern::make_integer(std::int64_t value) {
  ReplyPattern p;
  p.kind = Kind::integer;
  p.integer = value;
  return p;
}

ReplyPattern ReplyPattern::make_string(std::string bytes) {
  ReplyPattern p;
  p.kind = Kind::string;
  p.text = std::move(bytes);
  return p;
}

ReplyPattern ReplyPattern::make_array(std::vector<ReplyPattern> items) {
  ReplyPattern p;
  p.kind = Kind::array;
  p.items = std::move(items);
  return p;
}

ReplyPattern ReplyPattern::make_nil() {
  ReplyPattern p;
  p.kind = Kind::nil;
  return p;
}

ReplyPattern ReplyPattern::make_error(std::string text) {
  ReplyPattern p;
  p.kind = Kind::error;
  p.text = std::move(text);
  return p;
}

ReplyPattern ReplyPattern::make_any() { return ReplyPattern{}; }

bool matches(const ReplyPattern& pattern, const Reply& reply) {
  using K = ReplyPattern::Kind;
  switch (pattern.kind) {
    case K::any:
      return true;
    case K::integer:
      return reply.kind() == Reply::Kind::integer && reply.as_integer() == pattern.integer;
    case K::string:
      return (reply.kind() == Reply::Kind::bulk || reply.kind() == Reply::Kind::simple) &&
             reply.text() == pattern.text;
    case K::nil:
      return reply.kind() == Reply::Kind::nil;
    case K::error:
      return reply.kind() == Reply::Kind::error && reply.text() == pattern.text;
    case K::array:
      if (reply.kind() != Reply::Kind::array) return false;
      if (reply.items().size() != pattern.items.size()) return false;
      for (std::size_t i = 0; i < pattern.items.size(); ++i) {
        if (!matches(pattern.items[i], reply.items()[i])) return false;
      }
      return true;
  }
  return false;
}

ReplyPattern exact_pattern(const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer: return ReplyPattern::make_integer(reply.as_integer());
    case Reply::Kind::simple:
    case Reply::Kind::bulk: return ReplyPattern::make_string(reply.text());
    case Reply::Kind::nil: return ReplyPattern::make_nil();
    case Reply::Kind::error: return ReplyPattern::make_error(reply.text());
    case Reply::Kind::array: {
      std::vector<ReplyPattern> items;
      items.reserve(reply.items().size());
      for (const Reply& item : reply.items()) items.push_back(exact_pattern(item));
      return ReplyPattern::make_array(std::move(items));
    }
  }
  return ReplyPattern::make_any();
}

namespace {

void render(const ReplyPattern& p, std::string& out) {
  using K = ReplyPattern::Kind;
  switch (p.kind) {
    case K::any: out += '_'; break;
    case K::integer: out += std::to_string(p.integer); break;
    case K::string: out += write_reply_string(p.text); break;
    case K::nil: out += "nil"; break;
    case K::error:
      out += "error ";
      out += sim::quote_bytes(p.text);
      break;
    case K::array:
      out += '[';
      for (std::size_t i = 0; i < p.items.size(); ++i) {
        if (i) out += ' ';
        render(p.items[i], out);
      }
      out += ']';
      break;
  }
}

}  // namespace

std::string to_notation(const ReplyPattern& pattern) {
  std::string out;
  render(pattern, out);
  return out;
}

std::string to_notation(const Reply& reply) { return to_notation(exact_pattern(reply)); }

}  // namespace trafikey::scenario
