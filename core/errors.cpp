#include "core/errors.h"

namespace trafikey::errors {

Reply integer_range(std::string_view arg, std::int64_t lo, std::int64_t hi) {
  std::string text = "ERR EMQ ";
  text += arg;
  text += " must be an integer in ";
  text += std::to_string(lo);
  text += "..";
  text += std::to_string(hi);
  return Reply::error(text);
}

Reply no_write_access(std::string_view key) {
  std::string text = "NOPERM EMQ no write access to ";
  text += key;
  return Reply::error(text);
}

}  // namespace trafikey::errors
