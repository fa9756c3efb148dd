// Reading a history back: the one reader, beside the one writer (history.h).
//
// read_history checks the shape of every line and gives each as a typed value: where and
// when it happened (Instant), who did it, and what: a call (argv and reply as the bytes
// the run had, `lost`, the writes it made), a fault or world event (its name and the
// fields after it), a sweep verdict, a phase or the end. Strings come back as bytes
// (history.h writes bytes 0x80-0xff as \u0080-\u00ff). A line that is not what the
// writer writes is refused as "line N: what", naming the field.
//
// The replay command, the scenario export, the reports and the report loader read
// histories through this file and nothing else; none of them splits lines or checks a
// header itself.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/reply.h"
#include "sim/history.h"

namespace trafikey::sim {

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
  // the whole line, parsed (a call's "call" and "reply" as written, for display)
  HistoryJson json;

  // A string field of `fields` as bytes; nullopt when absent or not a string.
  std::optional<std::string> text(const char* field) const;
  // An integer field of `fields`; nullopt when absent or not an integer.
  std::optional<std::int64_t> integer(const char* field) const;
  // A boolean field of `fields`; `otherwise` when absent or not a boolean.
  bool flag(const char* field, bool otherwise) const;
};

struct ReadHistory {
  HistoryJson header;  // line 1
  std::string kind;    // the header's "kind" (plan, scenario, ...)
  std::vector<std::string_view> lines;  // every line's text, [0] = line 1 (views into the text read)
  std::vector<HistoryLine> events;      // lines 2 and on
};

// Every line of a history (or any JSON Lines text), without its newline; a last line
// without a newline counts, an empty text has none.
std::vector<std::string_view> history_lines(std::string_view text);

// The header (line 1 of `text`): an object whose "trafikey" is "history". On anything
// else nullopt, and *error says why, naming line 1.
std::optional<HistoryJson> read_history_header(std::string_view text, std::string* error);

// The whole history. On a bad line nullopt, and *error is "line N: what".
std::optional<ReadHistory> read_history(std::string_view text, std::string* error);

// A reply as a history line spells it (history.h); nullopt for JSON no writer writes.
std::optional<Reply> reply_of_history_json(const HistoryJson& json);

}  // namespace trafikey::sim
