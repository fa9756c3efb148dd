// The invariant ids the checker judges, and how a broken one reads (checker.h Violation).
#include "properties/checker.h"

namespace trafikey::properties {

bool judged_by_checker(std::string_view invariant) {
  return invariant != "sim.determinism" && invariant != "verb.replicated" &&
         invariant != "sim.differential";
}

const std::vector<InvariantInfo>& invariant_ids() {
  static const std::vector<InvariantInfo> ids = [] {
    std::vector<InvariantInfo> out;
    for (std::string_view id : trafikey::invariant_ids) out.push_back({id, judged_by_checker(id)});
    return out;
  }();
  return ids;
}

std::string Violation::describe() const {
  std::string s = invariant;
  if (call > 0) s += " at call " + std::to_string(call);
  if (history_line > 0) s += " (history line " + std::to_string(history_line) + ")";
  s += ", t=" + std::to_string(true_ms) + ": " + facts;
  return s;
}

std::string Violation::describe_line() const {
  std::string out;
  for (const char c : describe()) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (byte < 0x20 || byte >= 0x7f) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace trafikey::properties
