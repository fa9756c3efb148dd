// Small helpers shared by the real-server tests (not part of the harness itself).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/reply.h"
#include "module/harness/real_server.h"

namespace trafikey::real::test {

using namespace std::chrono_literals;

// The module under test, from CMake ($<TARGET_FILE:trafikey>).
inline ServerConfig with_module(std::vector<std::string> extra_args = {}) {
  return ServerConfig{TRAFIKEY_MODULE_PATH, std::move(extra_args), {}, {}};
}

inline std::string show(const Reply& reply) { return debug_string(reply); }

// DEBUG DIGEST: a hash of the whole keyspace (all zeros when empty).
inline std::string digest(ServerConnection& c) {
  const Reply r = c.call({"DEBUG", "DIGEST"});
  EXPECT_EQ(r.kind(), Reply::Kind::simple) << show(r);
  return r.text();
}

// One "field:value" line of INFO <section>; empty when absent.
inline std::string info_field(ServerConnection& c, std::string_view section,
                              std::string_view field) {
  const Reply r = c.call({"INFO", section});
  const std::string needle = std::string(field) + ":";
  const std::string& text = r.text();
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find("\r\n", at);
    const std::string_view line(text.data() + at,
                                (end == std::string::npos ? text.size() : end) - at);
    if (line.starts_with(needle)) return std::string(line.substr(needle.size()));
    if (end == std::string::npos) break;
    at = end + 2;
  }
  return {};
}

inline std::string epoch_of(ServerConnection& c) { return c.call({"EMQ.EPOCH"}).text(); }

// Polls `done` every 10 ms until it holds or `timeout` passes.
inline bool wait_until(const std::function<bool()>& done,
                       std::chrono::milliseconds timeout = 10s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

// The debug_string of an EMQ.JOB row: fields sorted by name, as the verb answers.
inline std::string row(std::vector<std::pair<std::string, std::string>> fields) {
  std::sort(fields.begin(), fields.end());
  Reply r = Reply::array();
  for (auto& [f, v] : fields) {
    r.items().push_back(Reply::bulk(f));
    r.items().push_back(Reply::bulk(v));
  }
  return show(r);
}

// The debug_string of a sweep reply.
inline std::string sweep(std::vector<std::string> recovered, std::vector<std::string> dead,
                         std::vector<std::string> ghosts = {},
                         std::vector<std::string> lanes = {}) {
  auto list = [](const std::vector<std::string>& ids) {
    Reply r = Reply::array();
    for (const auto& id : ids) r.items().push_back(Reply::bulk(id));
    return r;
  };
  return show(Reply::array({Reply::bulk("recovered"), list(recovered), Reply::bulk("dead"),
                            list(dead), Reply::bulk("ghosts"), list(ghosts),
                            Reply::bulk("lanes"), list(lanes)}));
}

}  // namespace trafikey::real::test
