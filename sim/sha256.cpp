#include "sim/sha256.h"

#include <openssl/evp.h>

namespace trafikey::sim {

namespace {
// Fetched from the provider once per process: the implicit fetch that EVP_sha256() makes on
// every init costs more than hashing a short history.
const EVP_MD* sha256() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}
}  // namespace

struct Sha256::Context {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  Context() { EVP_DigestInit_ex(ctx, sha256(), nullptr); }
  ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {}
Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) { EVP_DigestUpdate(context_->ctx, bytes.data(), bytes.size()); }

std::string Sha256::hex() const {
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  EVP_MD_CTX_copy_ex(copy, context_->ctx);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(copy, md, &len);
  EVP_MD_CTX_free(copy);
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * len, '0');
  for (unsigned int i = 0; i < len; ++i) {
    out[2 * i] = digits[md[i] >> 4];
    out[2 * i + 1] = digits[md[i] & 0xf];
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 digest;
  digest.update(bytes);
  return digest.hex();
}

}  // namespace trafikey::sim
