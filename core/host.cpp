#include "core/host.h"

namespace trafikey {

std::string_view key_type_name(KeyType type) {
  switch (type) {
    case KeyType::none: return "none";
    case KeyType::string: return "string";
    case KeyType::list: return "list";
    case KeyType::set: return "set";
    case KeyType::zset: return "zset";
    case KeyType::hash: return "hash";
  }
  return "none";
}

}  // namespace trafikey
