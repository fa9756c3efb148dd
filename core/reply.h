// Reply: the one value every verb answers with (see shared spec EMQ §4).
//
// A reply is a tree of RESP-like values. The module turns it into module replies, the
// simulated server records it in the history as it is, and scenario files compare it.
// Errors are values too: a refusal is a Reply of kind `error` whose text starts with the
// error code ("ERR EMQ ...", "WRONGTYPE ...", "NOPERM ...", "READONLY ...").
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace trafikey {

class Reply {
 public:
  enum class Kind : std::uint8_t { integer, simple, bulk, array, nil, error };

  static Reply integer(std::int64_t value) {
    Reply r(Kind::integer);
    r.integer_ = value;
    return r;
  }
  static Reply simple(std::string_view text) { return Reply(Kind::simple, text); }
  static Reply bulk(std::string_view bytes) { return Reply(Kind::bulk, bytes); }
  static Reply nil() { return Reply(Kind::nil); }
  static Reply error(std::string_view text) { return Reply(Kind::error, text); }
  static Reply array(std::vector<Reply> items = {}) {
    Reply r(Kind::array);
    r.items_ = std::move(items);
    return r;
  }
  // The same array as Reply::array({items...}), built by moving each item in: a braced list
  // is an initializer_list, whose elements can only be copied out (every string and nested
  // array deep-copied, then the originals destroyed). Verbs build their replies with this.
  template <class... Items>
    requires(std::same_as<std::remove_cvref_t<Items>, Reply> && ...)
  static Reply array_of(Items&&... items) {
    Reply r(Kind::array);
    r.items_.reserve(sizeof...(Items));
    (r.items_.push_back(std::forward<Items>(items)), ...);
    return r;
  }
  // Reply::bulk(bytes) taking over a string the caller no longer needs, without a copy.
  static Reply bulk_of(std::string&& bytes) {
    Reply r(Kind::bulk);
    r.text_ = std::move(bytes);
    return r;
  }

  Kind kind() const { return kind_; }
  bool is_error() const { return kind_ == Kind::error; }
  std::int64_t as_integer() const { return integer_; }
  // The bytes of a simple, bulk or error reply.
  const std::string& text() const { return text_; }
  const std::vector<Reply>& items() const { return items_; }
  std::vector<Reply>& items() { return items_; }

  bool operator==(const Reply&) const = default;

 private:
  explicit Reply(Kind kind, std::string_view text = {}) : kind_(kind), text_(text) {}

  Kind kind_;
  std::int64_t integer_ = 0;
  std::string text_;
  std::vector<Reply> items_;
};

// A compact, unambiguous rendering for tests and messages: 1, "bytes", +simple, nil,
// [a b], (error "text"). Not the scenario notation (that lives in sim/).
std::string debug_string(const Reply& reply);

}  // namespace trafikey
