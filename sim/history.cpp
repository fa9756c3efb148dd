#include "sim/history.h"

#include <openssl/evp.h>

#include <array>
#include <charconv>
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

History::History(bool keep_text)
    : keep_text_(keep_text), out_(keep_text ? text_ : buffer_), digest_(std::make_unique<Digest>()) {
  out_.reserve(hash_block + 4096);
}
History::~History() = default;

namespace {
// Bytes a JSON string may hold as they are: printable ASCII but '"' and '\\'.
constexpr std::array<bool, 256> plain_bytes = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7f; ++c) plain[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return plain;
}();
}  // namespace

void append_json_string(std::string& out, std::string_view bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  // Runs of bytes that need no escape are appended whole.
  std::size_t run = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (plain_bytes[c]) continue;
    out.append(bytes.data() + run, i - run);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
    run = i + 1;
  }
  out.append(bytes.data() + run, bytes.size() - run);
  out += '"';
}

namespace {
void append_integer(std::string& out, std::int64_t value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, static_cast<std::size_t>(end - buffer));
}
}  // namespace

void append_json_reply(std::string& out, const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer: append_integer(out, reply.as_integer()); break;
    case Reply::Kind::bulk: append_json_string(out, reply.text()); break;
    case Reply::Kind::simple:
      out += "{\"simple\":";
      append_json_string(out, reply.text());
      out += '}';
      break;
    case Reply::Kind::nil: out += "null"; break;
    case Reply::Kind::error:
      out += "{\"error\":";
      append_json_string(out, reply.text());
      out += '}';
      break;
    case Reply::Kind::array:
      out += '[';
      for (std::size_t i = 0; i < reply.items().size(); ++i) {
        if (i) out += ',';
        append_json_reply(out, reply.items()[i]);
      }
      out += ']';
      break;
  }
}

void History::header(std::string_view kind, std::string_view body_json) {
  out_ += "{\"trafikey\":\"history\",\"version\":1,\"kind\":";
  append_json_string(out_, kind);
  // body_json is an object: splice its fields in
  if (body_json.size() > 2) {
    out_ += ',';
    out_.append(body_json.substr(1, body_json.size() - 2));
  }
  out_ += '}';
  finish();
}

void History::begin(const Stamp& at, std::string_view actor) {
  out_ += "{\"t\":";
  append_integer(out_, at.true_ms);
  out_ += ",\"st\":";
  append_integer(out_, at.server_ms);
  out_ += ",\"inc\":";
  append_integer(out_, at.incarnation);
  out_ += ",\"actor\":";
  append_json_string(out_, actor);
}

void History::finish() {
  out_ += '\n';
  ++lines_;
  if (out_.size() - hashed_ >= hash_block) digest_pending();
}

void History::digest_pending() const {
  EVP_DigestUpdate(digest_->ctx, out_.data() + hashed_, out_.size() - hashed_);
  if (keep_text_) {
    hashed_ = out_.size();
  } else {
    out_.clear();  // the text is not kept: the buffer starts over
    hashed_ = 0;
  }
}

void History::call(const Stamp& at, std::string_view actor, Args argv, const Reply& reply,
                   bool lost, std::int64_t writes) {
  begin(at, actor);
  out_ += ",\"call\":[";
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i) out_ += ',';
    append_json_string(out_, argv[i]);
  }
  out_ += "],\"reply\":";
  append_json_reply(out_, reply);
  if (lost) out_ += ",\"lost\":true";
  out_ += ",\"w\":";
  append_integer(out_, writes);
  out_ += '}';
  finish();
}

void History::fault(const Stamp& at, std::string_view name, std::string_view fields_json) {
  begin(at, "fault");
  out_ += ",\"fault\":";
  append_json_string(out_, name);
  if (!fields_json.empty()) {
    out_ += ',';
    out_ += fields_json;
  }
  out_ += '}';
  finish();
}

void History::verdict(const Stamp& at, std::string_view actor, std::string_view job,
                      std::string_view kind, int stamp_incarnation) {
  begin(at, actor);
  out_ += ",\"verdict\":";
  append_json_string(out_, kind);
  out_ += ",\"job\":";
  append_json_string(out_, job);
  out_ += ",\"stamp_inc\":";
  append_integer(out_, stamp_incarnation);
  out_ += '}';
  finish();
}

void History::phase(const Stamp& at, std::string_view name) {
  begin(at, "world");
  out_ += ",\"phase\":";
  append_json_string(out_, name);
  out_ += '}';
  finish();
}

void History::end(const Stamp& at, std::string_view outcome, std::string_view fields_json) {
  begin(at, "world");
  out_ += ",\"end\":";
  append_json_string(out_, outcome);
  if (!fields_json.empty()) {
    out_ += ',';
    out_ += fields_json;
  }
  out_ += '}';
  finish();
}

std::string History::fingerprint() const {
  digest_pending();
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
