// Reply: the one value every verb answers with (see shared spec EMQ §4).
//
// A reply is a tree of RESP-like values. The module turns it into module replies, the
// simulated server records it in the history as it is, and scenario files compare it.
// Errors are values too: a refusal is a Reply of kind `error` whose text starts with the
// error code ("ERR EMQ ...", "WRONGTYPE ...", "NOPERM ...", "READONLY ...").
#pragma once

#include <concepts>
#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/assert.h"

namespace trafikey {

// One kind's payload at a time: an integer, the bytes of a simple/bulk/error reply, or the
// items of an array, in a union (40 bytes, not 72 with all three side by side). Every call
// builds a reply, the history keeps it until the next, and arrays of them are the replies
// of CLAIM, EXTENDS and the sweep: a smaller Reply is fewer bytes allocated and moved, and
// destroying an integer or a short string is inline, with no call for the (recursive)
// array case.
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

  Reply(const Reply& o) : kind_(o.kind_) { construct_from(o); }
  Reply(Reply&& o) noexcept : kind_(o.kind_) { construct_from(std::move(o)); }
  Reply& operator=(const Reply& o) {
    if (this != &o) {
      destroy();
      kind_ = o.kind_;
      construct_from(o);
    }
    return *this;
  }
  Reply& operator=(Reply&& o) noexcept {
    if (this != &o) {
      destroy();
      kind_ = o.kind_;
      construct_from(std::move(o));
    }
    return *this;
  }
  ~Reply() { destroy(); }

  Kind kind() const { return kind_; }
  bool is_error() const { return kind_ == Kind::error; }
  // 0 for a reply that is not an integer.
  std::int64_t as_integer() const { return kind_ == Kind::integer ? integer_ : 0; }
  // The bytes of a simple, bulk or error reply; empty for any other kind.
  const std::string& text() const { return has_text(kind_) ? text_ : empty_text(); }
  // The items of an array. Only of an array (asserted): a reply whose shape is not known
  // (a core under test's, a server's) is asked kind() first.
  const std::vector<Reply>& items() const {
    TRAFIKEY_ASSERT(kind_ == Kind::array, "items() of a reply that is not an array");
    return items_;
  }
  // A builder's own Reply::array() items.
  std::vector<Reply>& items() {
    TRAFIKEY_ASSERT(kind_ == Kind::array, "items() of a reply that is not an array");
    return items_;
  }
  // The items of an array, none for any other kind: for reading a list whose shape is not
  // known (a reply of a core under test, or of a real server), where a list that is not
  // an array lists nothing.
  const std::vector<Reply>& items_if_array() const { return kind_ == Kind::array ? items_ : empty_items(); }

  bool operator==(const Reply& o) const {
    if (kind_ != o.kind_) return false;
    if (kind_ == Kind::integer) return integer_ == o.integer_;
    if (has_text(kind_)) return text_ == o.text_;
    if (kind_ == Kind::array) return items_ == o.items_;
    return true;  // nil
  }

 private:
  explicit Reply(Kind kind) : kind_(kind) { construct_empty(); }
  Reply(Kind kind, std::string_view text) : kind_(kind) { new (&text_) std::string(text); }

  static bool has_text(Kind k) { return k == Kind::simple || k == Kind::bulk || k == Kind::error; }
  static const std::string& empty_text();
  static const std::vector<Reply>& empty_items();

  void construct_empty() {
    if (has_text(kind_)) {
      new (&text_) std::string();
    } else if (kind_ == Kind::array) {
      new (&items_) std::vector<Reply>();
    } else {
      integer_ = 0;
    }
  }
  template <class Other>
  void construct_from(Other&& o) {
    if (has_text(kind_)) {
      new (&text_) std::string(std::forward<Other>(o).text_);
    } else if (kind_ == Kind::array) {
      new (&items_) std::vector<Reply>(std::forward<Other>(o).items_);
    } else {
      integer_ = o.integer_;
    }
  }
  void destroy() {
    if (has_text(kind_)) {
      text_.~basic_string();
    } else if (kind_ == Kind::array) {
      destroy_items();
    }
  }
  // Out of line: a vector of Replies destroys Replies, so it cannot be inlined anyway.
  void destroy_items();

  Kind kind_;
  union {
    std::int64_t integer_;
    std::string text_;
    std::vector<Reply> items_;
  };
};

// A compact, unambiguous rendering for tests and messages: 1, "bytes", +simple, nil,
// [a b], (error "text"). Not the scenario notation (that lives in sim/).
std::string debug_string(const Reply& reply);

}  // namespace trafikey
