// Two small text helpers every layer needs, once: ASCII upper case (command names are
// matched case-insensitively, and reported upper-cased), and a whole file read as bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trafikey {

// `s` with a-z turned into A-Z; every other byte unchanged (no locale).
std::string upper(std::string_view s);

// The whole file at `path`, byte for byte; nullopt when it cannot be opened or read.
std::optional<std::string> read_file(const std::string& path);

}  // namespace trafikey
