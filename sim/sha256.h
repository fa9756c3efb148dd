// SHA-256, the one home of the fingerprint's hash (OpenSSL): a history's fingerprint
// (sim/history.h) is the hash of its bytes as written, and whoever recomputes one from a
// history's text (the reports, a replay) does it here, so the two cannot drift.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace trafikey::sim {

// Bytes in, one at a time or many; hex() reads the digest so far and hashing may go on.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::string_view bytes);
  std::string hex() const;  // 64 lowercase hex digits

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

// The digest of `bytes`, in 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace trafikey::sim
