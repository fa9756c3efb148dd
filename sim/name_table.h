// A name table for an enum whose enumerators run 0..N-1: one row per enumerator, the
// enumerator beside its name, so that a row out of place or missing is a compile error
// (static_assert(covers_the_enum(table))) rather than a name printed for the wrong value.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace trafikey::sim {

template <class Enum>
struct Named {
  Enum value;
  std::string_view name;
};

// Row i names enumerator i, and no name is empty (a row left out leaves one empty).
template <class Enum, std::size_t N>
constexpr bool covers_the_enum(const std::array<Named<Enum>, N>& table) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(table[i].value) != i || table[i].name.empty()) return false;
  }
  return true;
}

// The names alone, in enumerator order.
template <class Enum, std::size_t N>
constexpr std::array<std::string_view, N> names_of(const std::array<Named<Enum>, N>& table) {
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = table[i].name;
  return names;
}

}  // namespace trafikey::sim
