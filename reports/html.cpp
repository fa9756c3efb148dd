#include "reports/html.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "core/epoch.h"
#include "core/verbs/common.h"

namespace trafikey::reports {

std::string esc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double value) {
  // Round half away from zero to tenths in integers, then print: no locale, no "%g".
  const double scaled = std::round(value * 10.0);
  const long long tenths = static_cast<long long>(scaled);
  const long long whole = tenths / 10;
  const long long frac = tenths % 10;
  std::string out = (tenths < 0 && whole == 0) ? "-0" : std::to_string(whole);
  out += '.';
  out += static_cast<char>('0' + (frac < 0 ? -frac : frac));
  return out;
}

std::string ms_label(std::int64_t ms) {
  if (ms % 1000 == 0 && ms != 0) return std::to_string(ms / 1000) + " s";
  if (ms < 10000 && ms > -10000) return std::to_string(ms) + " ms";
  return num(static_cast<double>(ms) / 1000.0) + " s";
}

std::string_view incarnation_colour(int incarnation) {
  // Tableau 10: distinct at a glance and in print.
  static constexpr std::array<std::string_view, 10> palette{
      "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
  if (incarnation <= 0) return "#9e9e9e";
  return palette[static_cast<std::size_t>(incarnation - 1) % palette.size()];
}

std::string line_anchor(std::size_t run, std::int64_t line) {
  return "r" + std::to_string(run) + "-L" + std::to_string(line);
}

std::string short_run_id(std::string_view run_id) {
  if (run_id.empty()) return "none";
  if (run_id.size() <= 10) return std::string(run_id);
  return std::string(run_id.substr(0, 4)) + "\u2026" + std::string(run_id.substr(run_id.size() - 4));
}

std::string short_wire2_token(std::string_view token) {
  // split as the core reads the token (one reader of its shape), the grant id being
  // `<run_id>-<n>` with a run_id of fixed length
  const auto read = verbs::token_arg(token);
  if (!read.ok() || !read.value().wire2()) return std::string(token);
  const std::string_view grant = read.value().grant;
  const std::string_view attempts = token.substr(0, token.size() - grant.size() - 1);
  return std::string(attempts) + "-" + std::string(grant.substr(0, 6)) + "\u2026" +
         std::string(grant.substr(Epoch::run_id_len));
}

std::string wire2_token_html(std::string_view token) {
  return "<code class=\"wire2\" title=\"" + esc(token) + "\">" + esc(short_wire2_token(token)) + "</code>";
}

}  // namespace trafikey::reports
