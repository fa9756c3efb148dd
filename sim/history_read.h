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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/history_line.h"

namespace trafikey::sim {

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
