#include "core/reply.h"

namespace trafikey {

const std::string& Reply::empty_text() {
  static const std::string empty;
  return empty;
}

const std::vector<Reply>& Reply::empty_items() {
  static const std::vector<Reply> empty;
  return empty;
}

void Reply::destroy_items() { items_.~vector(); }

namespace {
void render(const Reply& r, std::string& out) {
  switch (r.kind()) {
    case Reply::Kind::integer: out += std::to_string(r.as_integer()); break;
    case Reply::Kind::simple: out += '+'; out += r.text(); break;
    case Reply::Kind::bulk: out += '"'; out += r.text(); out += '"'; break;
    case Reply::Kind::nil: out += "nil"; break;
    case Reply::Kind::error: out += "(error \""; out += r.text(); out += "\")"; break;
    case Reply::Kind::array:
      out += '[';
      for (std::size_t i = 0; i < r.items().size(); ++i) {
        if (i) out += ' ';
        render(r.items()[i], out);
      }
      out += ']';
      break;
  }
}
}  // namespace

std::string debug_string(const Reply& reply) {
  std::string out;
  render(reply, out);
  return out;
}

}  // namespace trafikey
