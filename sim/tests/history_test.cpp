// The history's JSON strings: a fast path copies runs of bytes that need no escape, so
// every byte value at every position of short and long strings must come out as the
// byte-at-a-time rule says (history.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "sim/history.h"

namespace trafikey::sim {
namespace {

// The rule, one byte at a time.
std::string reference(std::string_view bytes) {
  std::string out = "\"";
  for (const char byte : bytes) {
    const auto c = static_cast<unsigned char>(byte);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += byte;
    } else if (c >= 0x20 && c < 0x7f) {
      out += byte;
    } else {
      char u[8];
      std::snprintf(u, sizeof u, "\\u%04x", c);
      out += u;
    }
  }
  return out + "\"";
}

std::string written(std::string_view bytes) {
  std::string out = "prefix:";
  append_json_string(out, bytes);
  return out.substr(7);
}

TEST(History, json_string_escapes_every_byte_at_every_position) {
  for (std::size_t n = 1; n <= 40; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      for (int c = 0; c < 256; ++c) {
        std::string s(n, 'a');
        s[at] = static_cast<char>(c);
        ASSERT_EQ(written(s), reference(s)) << "length " << n << " byte " << c << " at " << at;
      }
    }
  }
}

TEST(History, json_string_of_plain_and_mixed_runs) {
  EXPECT_EQ(written(""), "\"\"");
  EXPECT_EQ(written("EMQ.STALLED.CHECK"), "\"EMQ.STALLED.CHECK\"");
  EXPECT_EQ(written("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
  EXPECT_EQ(written("\x7f\x80\xff\n"), "\"\\u007f\\u0080\\u00ff\\u000a\"");
  EXPECT_EQ(written(std::string("a\0b", 3)), "\"a\\u0000b\"");
  // bytes just inside and outside the plain range, in every lane of a word
  const std::string edges = " ~!}\x1f\x7f#[]";
  for (std::size_t n = 0; n <= 24; ++n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += edges[(i * 5 + n) % edges.size()];
    EXPECT_EQ(written(s), reference(s)) << n;
  }
}

TEST(History, call_lines_print_numbers_and_replies_as_documented) {
  History h(true);
  const std::vector<std::string_view> argv{"EMQ.CLAIM", "q", "1000"};
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{9}, std::int64_t{10}, std::int64_t{-1},
                               std::int64_t{123456789}, std::numeric_limits<std::int64_t>::min()}) {
    h.call(Instant{n, 7, 1}, "w0", argv, Reply::integer(n), false, 3);
  }
  h.call(Instant{12, 13, 2}, "s", argv,
         Reply::array({Reply::bulk("j\\"), Reply::nil(), Reply::simple("OK"), Reply::error("ERR x")}), true, 0);
  EXPECT_EQ(h.text(),
            "{\"t\":0,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],\"reply\":0,\"w\":3}\n"
            "{\"t\":9,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],\"reply\":9,\"w\":3}\n"
            "{\"t\":10,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],\"reply\":10,\"w\":3}\n"
            "{\"t\":-1,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],\"reply\":-1,\"w\":3}\n"
            "{\"t\":123456789,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],"
            "\"reply\":123456789,\"w\":3}\n"
            "{\"t\":-9223372036854775808,\"st\":7,\"inc\":1,\"actor\":\"w0\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],"
            "\"reply\":-9223372036854775808,\"w\":3}\n"
            "{\"t\":12,\"st\":13,\"inc\":2,\"actor\":\"s\",\"call\":[\"EMQ.CLAIM\",\"q\",\"1000\"],"
            "\"reply\":[\"j\\\\\",null,{\"simple\":\"OK\"},{\"error\":\"ERR x\"}],\"lost\":true,\"w\":0}\n");
  EXPECT_EQ(h.lines(), 7);
}

}  // namespace
}  // namespace trafikey::sim
