#include "reports/junit.h"

#include <cstdio>
#include <fstream>

namespace trafikey::reports {

namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

// The length of the valid UTF-8 sequence at text[i], 0 when it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
  }
  return n;
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&apos;"; ++i; continue;
      case '\n': out += "&#10;"; ++i; continue;
      case '\t': out += "&#9;"; ++i; continue;
      case '\r': out += "&#13;"; ++i; continue;
      default: break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {  // not allowed in XML 1.0 (0x7f is, but unreadable)
      out += "\xef\xbf\xbd";
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      out += "\xef\xbf\xbd";
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string junit_xml(const JunitSuite& suite) {
  int failures = 0, skipped = 0;
  for (const auto& c : suite.cases) {
    if (c.failure) ++failures;
    else if (c.skipped) ++skipped;
  }
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"" + xml_escape(suite.name) + "\" tests=\"" + std::to_string(suite.cases.size()) +
       "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) +
       "\" time=\"" + seconds(suite.seconds) + "\">\n";
  x += "  <testsuite name=\"" + xml_escape(suite.name) + "\" tests=\"" + std::to_string(suite.cases.size()) +
       "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\" skipped=\"" + std::to_string(skipped) +
       "\" time=\"" + seconds(suite.seconds) + "\">\n";
  for (const auto& c : suite.cases) {
    x += "    <testcase name=\"" + xml_escape(c.name) + "\" classname=\"" + xml_escape(c.classname) +
         "\" time=\"" + seconds(c.seconds) + "\"";
    if (!c.failure && !c.skipped) {
      x += "/>\n";
      continue;
    }
    x += ">\n";
    if (c.failure) {
      x += "      <failure message=\"" + xml_escape(c.failure->message) + "\" type=\"" +
           xml_escape(c.failure->type) + "\">" + xml_escape(c.failure->text) + "</failure>\n";
    } else {
      x += "      <skipped message=\"" + xml_escape(*c.skipped) + "\"/>\n";
    }
    x += "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

std::string write_junit(const JunitSuite& suite, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) return "cannot write " + path;
  out << junit_xml(suite);
  out.close();
  if (!out) return "cannot write " + path;
  return "";
}

}  // namespace trafikey::reports
