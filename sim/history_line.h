// One line of a history as a typed value: what the writer (history.h) writes, and what the
// reader (history_read.h) gives back.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/reply.h"

namespace trafikey::sim {

// When something happened in a run: the true time, what the server's clock read, and the
// incarnation (server process) that was serving. Every history line carries one. (Not the
// lease's stamp: that is the `lease_epoch` a CLAIM or extension writes, EMQ §5.)
struct Instant {
  std::int64_t true_ms = 0;
  std::int64_t server_ms = 0;
  int incarnation = 0;
};

// Field order as written (reports show a line's fields in the order the writer gave them).
using HistoryJson = nlohmann::ordered_json;

struct HistoryLine {
  enum class Kind : std::uint8_t { call, fault, verdict, phase, end };

  std::int64_t number = 0;  // 1-based line number in the file (the header is line 1)
  Instant at;
  std::string actor;        // bytes
  Kind kind = Kind::call;

  // call
  std::vector<std::string> argv;  // bytes; never empty
  Reply reply = Reply::nil();
  bool lost = false;
  std::int64_t writes = 0;  // "w"; 0 when the line has none

  // fault: the fault's name; verdict: its kind (one of sweep_verdict_names); phase: its
  // name; end: the outcome
  std::string name;
  // verdict
  std::string job;  // bytes
  int stamp_inc = 0;
  // fault, end: the fields after the name, in the order written (strings as the JSON has
  // them: read them as bytes through text())
  HistoryJson fields = HistoryJson::object();
  // the whole line as parsed, when it was read from text (a call's "call" and "reply" as
  // written, for display); null for a line the writer kept (History::events)
  HistoryJson json;

  // A string field of `fields` as bytes; nullopt when absent or not a string.
  std::optional<std::string> text(const char* field) const;
  // An integer field of `fields`; nullopt when absent or not an integer.
  std::optional<std::int64_t> integer(const char* field) const;
  // A boolean field of `fields`; `otherwise` when absent or not a boolean.
  bool flag(const char* field, bool otherwise) const;
};

}  // namespace trafikey::sim
