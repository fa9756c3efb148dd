#include "sim/history.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "core/bytes.h"

namespace trafikey::sim {

History::History(bool keep_text) : keep_text_(keep_text) {}
History::~History() = default;

HistoryLine* History::keep(const Instant& at, std::string_view actor, HistoryLine::Kind kind) {
  if (!keep_text_) return nullptr;
  HistoryLine& line = events_.emplace_back();
  line.number = lines_ + 1;
  line.at = at;
  line.actor = actor;
  line.kind = kind;
  return &line;
}

namespace {
// The fields of a JSON fragment `"a":1,"b":"x"` (the world's own, as it wrote them).
HistoryJson fields_of(std::string_view fragment) {
  if (fragment.empty()) return HistoryJson::object();
  return HistoryJson::parse("{" + std::string(fragment) + "}");
}
}  // namespace

void History::Buffer::grow(std::size_t n) {
  const std::size_t used = size();
  const std::size_t capacity = std::max<std::size_t>(2 * (used + n), flush_at + 4096);
  auto bigger = std::make_unique<char[]>(capacity);
  if (used) std::memcpy(bigger.get(), data_.get(), used);
  data_ = std::move(bigger);
  end_ = data_.get() + used;
  limit_ = data_.get() + capacity;
}

namespace {
// Bytes a JSON string may hold as they are: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> plain_bytes = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7f; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();

// The high bit of every byte of `w` that a JSON string cannot hold as it is: below 0x20,
// 0x7f and above, '"' and '\\' (SWAR: each test is exact about whether any byte matches).
template <class Word>
constexpr Word escapes_in(Word w) {
  constexpr Word ones = static_cast<Word>(~Word{0}) / 0xff;  // 0x0101...
  constexpr Word highs = ones * 0x80;
  const auto zero_byte = [](Word x) { return (x - ones) & ~x; };
  const Word control = (w - ones * 0x20) & ~w;
  const Word high = ((w & ~highs) + ones) | w;  // a byte >= 0x7f carries into its high bit
  return (control | high | zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\'))) & highs;
}

// Copies [s, s + n) to `p` a word at a time while no byte needs an escape, and returns how
// many bytes it copied: all n, or fewer if one does (the bytes from there are then left
// to the byte-at-a-time rule). Words overlap rather than fall back to single bytes: most
// strings (verbs, ids, numbers) are only a few bytes long.
std::size_t copy_plain(char* p, const char* s, std::size_t n) {
  if (n >= 8) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      const auto w = bytes::load8(s + i);
      if (escapes_in(w)) return i;
      bytes::store(p + i, w);
    }
    if (i == n) return n;
    const auto last = bytes::load8(s + n - 8);
    if (escapes_in(last)) return i;
    bytes::store(p + n - 8, last);
    return n;
  }
  if (n >= 4) {
    const auto first = bytes::load4(s), last = bytes::load4(s + n - 4);
    if (escapes_in(first | std::uint64_t{last} << 32)) return 0;  // both halves in one test
    bytes::store(p, first);
    bytes::store(p + n - 4, last);
    return n;
  }
  return 0;
}

// Writes the literal at `p` (room for 6 bytes per input byte + 2) and returns its end.
char* json_string_at(char* p, std::string_view bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  *p++ = '"';
  const std::size_t copied = copy_plain(p, bytes.data(), bytes.size());
  p += copied;
  for (const char byte : bytes.substr(copied)) {
    const auto c = static_cast<unsigned char>(byte);
    if (plain_bytes[c]) {
      *p++ = byte;
    } else if (c == '"' || c == '\\') {
      *p++ = '\\';
      *p++ = byte;
    } else {
      *p++ = '\\';
      *p++ = 'u';
      *p++ = '0';
      *p++ = '0';
      *p++ = hex[c >> 4];
      *p++ = hex[c & 0xf];
    }
  }
  *p++ = '"';
  return p;
}

// Every line is written in place: its room is reserved once (each byte of text may take
// 6), then the writers below fill it through a pointer and return where they stopped.
// A call line used to check for room and grow a dozen times.
constexpr std::size_t integer_most = 20;  // "-9223372036854775808"

std::size_t string_room(std::string_view bytes) { return 6 * bytes.size() + 2; }

// Writes `value` at `p` (room for integer_most bytes) and returns its end.
char* integer_at(char* p, std::int64_t value) {
  // Most numbers in a line are one digit (incarnation, writes, 0/1 replies): skip
  // to_chars' length count and digit loop for them.
  if (static_cast<std::uint64_t>(value) < 10) {
    *p = static_cast<char>('0' + value);
    return p + 1;
  }
  return std::to_chars(p, p + integer_most, value).ptr;
}

// Copies a literal's bytes (a constant size: the copy is inlined) and returns their end.
template <std::size_t N>
char* literal_at(char* p, const char (&text)[N]) {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}

char* bytes_at(char* p, std::string_view bytes) {
  std::memcpy(p, bytes.data(), bytes.size());
  return p + bytes.size();
}

std::size_t reply_room(const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer: return integer_most;
    case Reply::Kind::nil: return 4;
    case Reply::Kind::bulk:
    case Reply::Kind::simple:
    case Reply::Kind::error: return 11 + string_room(reply.text());
    case Reply::Kind::array: {
      std::size_t room = 2;
      for (const Reply& item : reply.items()) room += 1 + reply_room(item);
      return room;
    }
  }
  return 0;
}

// Writes the reply (room: reply_room) and returns its end.
char* json_reply_at(char* p, const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer: return integer_at(p, reply.as_integer());
    case Reply::Kind::bulk: return json_string_at(p, reply.text());
    case Reply::Kind::simple:
      p = json_string_at(literal_at(p, "{\"simple\":"), reply.text());
      *p++ = '}';
      return p;
    case Reply::Kind::nil: return literal_at(p, "null");
    case Reply::Kind::error:
      p = json_string_at(literal_at(p, "{\"error\":"), reply.text());
      *p++ = '}';
      return p;
    case Reply::Kind::array:
      *p++ = '[';
      for (std::size_t i = 0; i < reply.items().size(); ++i) {
        if (i) *p++ = ',';
        p = json_reply_at(p, reply.items()[i]);
      }
      *p++ = ']';
      return p;
  }
  return p;
}

// The `{"t":..,"st":..,"inc":..,"actor":..` that starts each event line.
std::size_t prefix_room(std::string_view actor) { return 32 + 3 * integer_most + string_room(actor); }
char* prefix_at(char* p, const Instant& at, std::string_view actor) {
  p = integer_at(literal_at(p, "{\"t\":"), at.true_ms);
  p = integer_at(literal_at(p, ",\"st\":"), at.server_ms);
  p = integer_at(literal_at(p, ",\"inc\":"), at.incarnation);
  return json_string_at(literal_at(p, ",\"actor\":"), actor);
}

// Appends to a std::string through the same writers.
template <class Write>
void append_at(std::string& out, std::size_t room, Write write) {
  const std::size_t at = out.size();
  out.resize(at + room);
  out.resize(static_cast<std::size_t>(write(out.data() + at) - out.data()));
}
}  // namespace

void append_json_string(std::string& out, std::string_view bytes) {
  append_at(out, string_room(bytes), [&](char* p) { return json_string_at(p, bytes); });
}
void append_json_reply(std::string& out, const Reply& reply) {
  append_at(out, reply_room(reply), [&](char* p) { return json_reply_at(p, reply); });
}

// The line's bytes from `start` to `end` are written: end it.
void History::finish(char* start, char* end) {
  *end++ = '\n';
  pending_.advance(static_cast<std::size_t>(end - start));
  ++lines_;
  if (pending_.size() >= flush_at) flush();
}

void History::header(std::string_view kind, std::string_view body_json) {
  if (keep_text_) {
    header_json_ = HistoryJson::parse(body_json.empty() ? std::string_view("{}") : body_json);
    HistoryJson header = {{"trafikey", "history"}, {"version", 1}, {"kind", kind}};
    for (auto it = header_json_.begin(); it != header_json_.end(); ++it) header[it.key()] = it.value();
    header_json_ = std::move(header);
  }
  char* const start = pending_.reserve(64 + string_room(kind) + body_json.size());
  char* p = json_string_at(literal_at(start, "{\"trafikey\":\"history\",\"version\":1,\"kind\":"), kind);
  // body_json is an object: splice its fields in
  if (body_json.size() > 2) {
    *p++ = ',';
    p = bytes_at(p, body_json.substr(1, body_json.size() - 2));
  }
  *p++ = '}';
  finish(start, p);
}

void History::flush() const {
  const std::string_view bytes = pending_.view();
  digest_.update(bytes);
  if (keep_text_) text_.append(bytes);
  pending_.clear();
}

const std::string& History::text() const {
  flush();
  return text_;
}

void History::call(const Instant& at, std::string_view actor, Args argv, const Reply& reply,
                   bool lost, std::int64_t writes) {
  if (HistoryLine* line = keep(at, actor, HistoryLine::Kind::call)) {
    line->argv.assign(argv.begin(), argv.end());
    line->reply = reply;
    line->lost = lost;
    line->writes = writes;
  }
  std::size_t room = prefix_room(actor) + reply_room(reply) + integer_most + 48;
  for (const std::string_view arg : argv) room += 1 + string_room(arg);
  char* const start = pending_.reserve(room);
  char* p = literal_at(prefix_at(start, at, actor), ",\"call\":[");
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i) *p++ = ',';
    p = json_string_at(p, argv[i]);
  }
  p = json_reply_at(literal_at(p, "],\"reply\":"), reply);
  if (lost) p = literal_at(p, ",\"lost\":true");
  p = integer_at(literal_at(p, ",\"w\":"), writes);
  *p++ = '}';
  finish(start, p);
}

void History::fault(const Instant& at, std::string_view name, std::string_view fields_json) {
  if (HistoryLine* line = keep(at, "fault", HistoryLine::Kind::fault)) {
    line->name = name;
    line->fields = fields_of(fields_json);
  }
  char* const start = pending_.reserve(prefix_room("fault") + 16 + string_room(name) + fields_json.size());
  char* p = json_string_at(literal_at(prefix_at(start, at, "fault"), ",\"fault\":"), name);
  if (!fields_json.empty()) {
    *p++ = ',';
    p = bytes_at(p, fields_json);
  }
  *p++ = '}';
  finish(start, p);
}

void History::verdict(const Instant& at, std::string_view actor, std::string_view job,
                      std::string_view kind, int stamp_incarnation) {
  if (HistoryLine* line = keep(at, actor, HistoryLine::Kind::verdict)) {
    line->name = kind;
    line->job = job;
    line->stamp_inc = stamp_incarnation;
  }
  char* const start =
      pending_.reserve(prefix_room(actor) + 40 + string_room(kind) + string_room(job) + integer_most);
  char* p = json_string_at(literal_at(prefix_at(start, at, actor), ",\"verdict\":"), kind);
  p = json_string_at(literal_at(p, ",\"job\":"), job);
  p = integer_at(literal_at(p, ",\"stamp_inc\":"), stamp_incarnation);
  *p++ = '}';
  finish(start, p);
}

void History::phase(const Instant& at, std::string_view name) {
  if (HistoryLine* line = keep(at, "world", HistoryLine::Kind::phase)) line->name = name;
  char* const start = pending_.reserve(prefix_room("world") + 16 + string_room(name));
  char* p = json_string_at(literal_at(prefix_at(start, at, "world"), ",\"phase\":"), name);
  *p++ = '}';
  finish(start, p);
}

void History::end(const Instant& at, std::string_view outcome, std::string_view fields_json) {
  if (HistoryLine* line = keep(at, "world", HistoryLine::Kind::end)) {
    line->name = outcome;
    line->fields = fields_of(fields_json);
  }
  char* const start = pending_.reserve(prefix_room("world") + 16 + string_room(outcome) + fields_json.size());
  char* p = json_string_at(literal_at(prefix_at(start, at, "world"), ",\"end\":"), outcome);
  if (!fields_json.empty()) {
    *p++ = ',';
    p = bytes_at(p, fields_json);
  }
  *p++ = '}';
  finish(start, p);
}

std::string History::fingerprint() const {
  flush();
  return digest_.hex();
}

std::string history_bytes(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if ((c == 0xc2 || c == 0xc3) && i + 1 < utf8.size()) {
      const auto next = static_cast<unsigned char>(utf8[i + 1]);
      out += static_cast<char>(((c & 0x1f) << 6) | (next & 0x3f));
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string history_text(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char byte : bytes) {
    const auto c = static_cast<unsigned char>(byte);
    if (c < 0x80) {
      out += byte;
    } else {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return out;
}

}  // namespace trafikey::sim
