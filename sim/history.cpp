#include "sim/history.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>

namespace trafikey::sim {

namespace {
// SHA-256, fetched from the provider once per process: the implicit fetch that
// EVP_sha256() makes on every init costs more than hashing a short history.
const EVP_MD* sha256() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}
}  // namespace

struct History::Digest {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  Digest() { EVP_DigestInit_ex(ctx, sha256(), nullptr); }
  ~Digest() { EVP_MD_CTX_free(ctx); }
};

History::History(bool keep_text) : keep_text_(keep_text), digest_(std::make_unique<Digest>()) {}
History::~History() = default;

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

// The encoders write to a History::Buffer (lines) or a std::string (callers' fragments).
struct StringOut {
  std::string& s;
  void append(std::string_view bytes) { s.append(bytes); }
  void put(char c) { s += c; }
};
struct BufferOut {
  History::Buffer& b;
  void append(std::string_view bytes) { b.append(bytes); }
  template <std::size_t N>
  void append(const char (&literal)[N]) {  // a constant size: the copy is inlined
    b.append(literal, N - 1);
  }
  void put(char c) { b.put(c); }
};

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

template <class Word>
Word load(const char* at) {
  Word w;
  std::memcpy(&w, at, sizeof w);
  return w;
}
template <class Word>
void store(char* at, Word w) {
  std::memcpy(at, &w, sizeof w);
}

// Copies [s, s + n) to `p` a word at a time while no byte needs an escape, and returns how
// many bytes it copied: all n, or fewer if one does (the bytes from there are then left
// to the byte-at-a-time rule). Words overlap rather than fall back to single bytes: most
// strings (verbs, ids, numbers) are only a few bytes long.
std::size_t copy_plain(char* p, const char* s, std::size_t n) {
  if (n >= 8) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      const auto w = load<std::uint64_t>(s + i);
      if (escapes_in(w)) return i;
      store(p + i, w);
    }
    if (i == n) return n;
    const auto last = load<std::uint64_t>(s + n - 8);
    if (escapes_in(last)) return i;
    store(p + n - 8, last);
    return n;
  }
  if (n >= 4) {
    const auto first = load<std::uint32_t>(s), last = load<std::uint32_t>(s + n - 4);
    if (escapes_in(first | std::uint64_t{last} << 32)) return 0;  // both halves in one test
    store(p, first);
    store(p + n - 4, last);
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

void json_string(StringOut out, std::string_view bytes) {
  const std::size_t at = out.s.size();
  out.s.resize(at + 6 * bytes.size() + 2);
  out.s.resize(static_cast<std::size_t>(json_string_at(out.s.data() + at, bytes) - out.s.data()));
}

// Lines: written in place, no call per byte.
void json_string(BufferOut out, std::string_view bytes) {
  char* start = out.b.reserve(6 * bytes.size() + 2);
  out.b.advance(static_cast<std::size_t>(json_string_at(start, bytes) - start));
}

void integer(StringOut out, std::int64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

void integer(BufferOut out, std::int64_t value) {
  constexpr std::size_t most = 20;  // "-9223372036854775808"
  char* start = out.b.reserve(most);
  out.b.advance(static_cast<std::size_t>(std::to_chars(start, start + most, value).ptr - start));
}

template <class Out>
void json_reply(Out out, const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer: integer(out, reply.as_integer()); break;
    case Reply::Kind::bulk: json_string(out, reply.text()); break;
    case Reply::Kind::simple:
      out.append("{\"simple\":");
      json_string(out, reply.text());
      out.put('}');
      break;
    case Reply::Kind::nil: out.append("null"); break;
    case Reply::Kind::error:
      out.append("{\"error\":");
      json_string(out, reply.text());
      out.put('}');
      break;
    case Reply::Kind::array:
      out.put('[');
      for (std::size_t i = 0; i < reply.items().size(); ++i) {
        if (i) out.put(',');
        json_reply(out, reply.items()[i]);
      }
      out.put(']');
      break;
  }
}
}  // namespace

void append_json_string(std::string& out, std::string_view bytes) { json_string(StringOut{out}, bytes); }
void append_json_reply(std::string& out, const Reply& reply) { json_reply(StringOut{out}, reply); }

void History::header(std::string_view kind, std::string_view body_json) {
  BufferOut out{pending_};
  out.append("{\"trafikey\":\"history\",\"version\":1,\"kind\":");
  json_string(out, kind);
  // body_json is an object: splice its fields in
  if (body_json.size() > 2) {
    out.put(',');
    out.append(body_json.substr(1, body_json.size() - 2));
  }
  out.put('}');
  finish();
}

void History::begin(const Stamp& at, std::string_view actor) {
  BufferOut out{pending_};
  out.append("{\"t\":");
  integer(out, at.true_ms);
  out.append(",\"st\":");
  integer(out, at.server_ms);
  out.append(",\"inc\":");
  integer(out, at.incarnation);
  out.append(",\"actor\":");
  json_string(out, actor);
}

void History::finish() {
  pending_.put('\n');
  ++lines_;
  if (pending_.size() >= flush_at) flush();
}

void History::flush() const {
  const std::string_view bytes = pending_.view();
  EVP_DigestUpdate(digest_->ctx, bytes.data(), bytes.size());
  if (keep_text_) text_.append(bytes);
  pending_.clear();
}

const std::string& History::text() const {
  flush();
  return text_;
}

void History::call(const Stamp& at, std::string_view actor, Args argv, const Reply& reply,
                   bool lost, std::int64_t writes) {
  begin(at, actor);
  BufferOut out{pending_};
  out.append(",\"call\":[");
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i) out.put(',');
    json_string(out, argv[i]);
  }
  out.append("],\"reply\":");
  json_reply(out, reply);
  if (lost) out.append(",\"lost\":true");
  out.append(",\"w\":");
  integer(out, writes);
  out.put('}');
  finish();
}

void History::fault(const Stamp& at, std::string_view name, std::string_view fields_json) {
  begin(at, "fault");
  BufferOut out{pending_};
  out.append(",\"fault\":");
  json_string(out, name);
  if (!fields_json.empty()) {
    out.put(',');
    out.append(fields_json);
  }
  out.put('}');
  finish();
}

void History::verdict(const Stamp& at, std::string_view actor, std::string_view job,
                      std::string_view kind, int stamp_incarnation) {
  begin(at, actor);
  BufferOut out{pending_};
  out.append(",\"verdict\":");
  json_string(out, kind);
  out.append(",\"job\":");
  json_string(out, job);
  out.append(",\"stamp_inc\":");
  integer(out, stamp_incarnation);
  out.put('}');
  finish();
}

void History::phase(const Stamp& at, std::string_view name) {
  begin(at, "world");
  BufferOut out{pending_};
  out.append(",\"phase\":");
  json_string(out, name);
  out.put('}');
  finish();
}

void History::end(const Stamp& at, std::string_view outcome, std::string_view fields_json) {
  begin(at, "world");
  BufferOut out{pending_};
  out.append(",\"end\":");
  json_string(out, outcome);
  if (!fields_json.empty()) {
    out.put(',');
    out.append(fields_json);
  }
  out.put('}');
  finish();
}

std::string History::fingerprint() const {
  flush();
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  EVP_MD_CTX_copy_ex(copy, digest_->ctx);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(copy, md, &len);
  EVP_MD_CTX_free(copy);
  std::string hex;
  char buf[3];
  for (unsigned int i = 0; i < len; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", md[i]);
    hex += buf;
  }
  return hex;
}

}  // namespace trafikey::sim
