// History: the JSON Lines record of a run, and its fingerprint.
//
// One line per event, fields always in the same order: true time `t`, server time `st`,
// incarnation `inc`, `actor`, then what happened (`call` + `reply` [+ `lost`] + `w`, the
// number of writes the call made; or `fault`, `verdict`, `phase`, `end` with their
// fields). The first line is a header naming what ran (a plan or a scenario). Strings
// are byte strings: each byte 0x80-0xff is written as \u0080-\u00ff, so every history is
// valid JSON and decodes back to the same bytes.
//
// Replies: integer -> number, bulk -> "string", simple -> {"simple":"OK"}, nil -> null,
// error -> {"error":"text"}, array -> [...].
//
// The fingerprint is the SHA-256 (OpenSSL) of every byte written, newlines included.
// Reading a history back is sim/history_read.h's, the one reader.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/assert.h"
#include "core/reply.h"
#include "sim/history_line.h"
#include "sim/sha256.h"

namespace trafikey::sim {

class History {
 public:
  // keep_text: hold every line in memory, as text (for files and reports) and as the typed
  // values written (events(), for an export that parses nothing); otherwise only hash.
  explicit History(bool keep_text);
  ~History();
  History(const History&) = delete;
  History& operator=(const History&) = delete;

  // The first line: {"trafikey":"history","version":1,"kind":KIND,BODY} where `body_json`
  // is a JSON object whose fields are appended after "kind".
  void header(std::string_view kind, std::string_view body_json);
  void call(const Instant& at, std::string_view actor, Args argv, const Reply& reply, bool lost,
            std::int64_t writes);
  // A fault or world event: `fields_json` is a JSON fragment `"a":1,"b":"x"` appended after
  // "fault":NAME (may be empty).
  void fault(const Instant& at, std::string_view name, std::string_view fields_json);
  void verdict(const Instant& at, std::string_view actor, std::string_view job,
               std::string_view kind, int stamp_incarnation);
  void phase(const Instant& at, std::string_view name);
  void end(const Instant& at, std::string_view outcome, std::string_view fields_json);

  std::string fingerprint() const;  // 64 lowercase hex
  const std::string& text() const;
  std::int64_t lines() const { return lines_; }
  // When the text is kept: the header (line 1) and every later line, as values. The same
  // values read_history (history_read.h) gives back for the text, but for `json`.
  const HistoryJson& header_json() const { return header_json_; }
  const std::vector<HistoryLine>& events() const { return events_; }

  // The bytes of lines being written. Each line reserves room for its longest form once,
  // and is then written through a plain pointer (std::string's push_back is not inlined:
  // it was a tenth of the history's cost, and a room check per piece was still a tenth).
  class Buffer {
   public:
    // Room for at least n more bytes: write through the pointer returned, then
    // advance(bytes written).
    char* reserve(std::size_t n) {
      if (n > room()) grow(n);
      reserved_ = n;
      return end_;
    }
    void advance(std::size_t n) {
      TRAFIKEY_ASSERT(n <= reserved_, "a line wrote past the room it reserved");
      end_ += n;
    }
    std::string_view view() const { return {data_.get(), static_cast<std::size_t>(end_ - data_.get())}; }
    std::size_t size() const { return static_cast<std::size_t>(end_ - data_.get()); }
    void clear() { end_ = data_.get(); }

   private:
    std::size_t room() const { return static_cast<std::size_t>(limit_ - end_); }
    void grow(std::size_t n);
    std::unique_ptr<char[]> data_;
    char* end_ = nullptr;
    char* limit_ = nullptr;
    std::size_t reserved_ = 0;  // what the last reserve() asked for
  };

 private:
  void finish(char* start, char* end);
  void flush() const;

  // Lines are written into `pending_` and hashed (and appended to the kept text) in blocks
  // of at least flush_at bytes: one EVP_DigestUpdate per short line cost more than the
  // hashing itself. text() and fingerprint() flush first, so both always see every line.
  static constexpr std::size_t flush_at = 16384;
  bool keep_text_;
  mutable Buffer pending_;
  mutable std::string text_;
  std::int64_t lines_ = 0;
  mutable Sha256 digest_;
  HistoryJson header_json_;
  std::vector<HistoryLine> events_;
  // The typed line for the event being written (events_'s next), when the text is kept.
  HistoryLine* keep(const Instant& at, std::string_view actor, HistoryLine::Kind kind);
};

// JSON string literal of a byte string, per the rule above.
void append_json_string(std::string& out, std::string_view bytes);
void append_json_reply(std::string& out, const Reply& reply);
// The bytes a history string carries, from the UTF-8 a JSON parser hands back for it:
// bytes 0x80-0xff were written as \u0080-\u00ff, which come back as two bytes each.
std::string history_bytes(std::string_view utf8);
// The inverse: bytes as the UTF-8 a history's JSON strings decode to (0x80-0xff as
// U+0080-U+00FF), for text shown beside a history's own lines.
std::string history_text(std::string_view bytes);

}  // namespace trafikey::sim
