// Short byte strings a word at a time: unaligned loads and stores, an inline hash and an
// inline equality. Keys, field names, job ids, command names and history strings are a
// few bytes to a few dozen; a libc call (memcmp, memcpy of a variable size,
// std::_Hash_bytes) per string cost more than the work. Shared by the core (command
// names) and the simulator (keyspace, undo log, history, server) and the model's ledger.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace trafikey {

// Unaligned word loads and stores that compile to one move (memcpy of a constant size is
// not a call).
namespace bytes {
template <class Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
template <class Word>
void store(char* p, Word w) {
  std::memcpy(p, &w, sizeof w);
}
inline std::uint64_t load8(const char* p) { return load<std::uint64_t>(p); }
inline std::uint32_t load4(const char* p) { return load<std::uint32_t>(p); }
}  // namespace bytes

// The keys are short (`emq:{q}:job:j123`, field names, job ids) and every call hashes a
// few of them, so an inline hash that takes 8 bytes per step beats the out-of-line
// std::_Hash_bytes. The values only pick buckets: nothing iterates a hashed container in an
// order anyone sees, so they need not match std::hash or stay stable across versions.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const {
    // wyhash's constants and its folded 64x64->128 multiply, one word at a time. The tail
    // is read as whole words that may overlap bytes already mixed, never with a
    // variable-length memcpy, which would be a libc call.
    constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
    const char* p = s.data();
    const std::size_t len = s.size();
    std::uint64_t h = k0 ^ len;
    std::uint64_t tail = 0;
    if (len >= 8) {
      for (std::size_t n = len; n > 8; p += 8, n -= 8) h = mix(h ^ load8(p), k1);
      tail = load8(s.data() + len - 8);
    } else if (len >= 4) {
      tail = (load4(p) << 32) | load4(p + len - 4);
    } else if (len > 0) {
      tail = (byte(p[0]) << 16) | (byte(p[len / 2]) << 8) | byte(p[len - 1]);
    }
    return static_cast<std::size_t>(mix(h ^ tail, k1 ^ len));
  }

 private:
  static std::uint64_t load8(const char* p) { return bytes::load8(p); }
  static std::uint64_t load4(const char* p) { return bytes::load4(p); }
  static std::uint64_t byte(char c) { return static_cast<unsigned char>(c); }
  static std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    const unsigned __int128 r = static_cast<unsigned __int128>(a ^ 0x8bb84b93962eacc9ull) * b;
    return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
  }
};

// Key equality for the hashed containers. With the hash kept in each slot, a compare
// runs almost only on a hit, so it nearly always walks every byte; for short keys whole
// words do that inline, where std::equal_to ends in a libc memcmp call.
struct StringEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const {
    const std::size_t n = a.size();
    if (n != b.size()) return false;
    const char* p = a.data();
    const char* q = b.data();
    if (n > 32) return std::memcmp(p, q, n) == 0;
    if (n >= 8) {
      for (std::size_t i = 0; i + 8 < n; i += 8) {
        if (word8(p + i) != word8(q + i)) return false;
      }
      return word8(p + n - 8) == word8(q + n - 8);
    }
    if (n >= 4) return word4(p) == word4(q) && word4(p + n - 4) == word4(q + n - 4);
    for (std::size_t i = 0; i < n; ++i) {
      if (p[i] != q[i]) return false;
    }
    return true;
  }

 private:
  static std::uint64_t word8(const char* p) { return bytes::load8(p); }
  static std::uint32_t word4(const char* p) { return bytes::load4(p); }
};

}  // namespace trafikey
