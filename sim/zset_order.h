// ZsetOrder: a sorted set's entries in ZRANGE order (sim/keyspace.h keeps one per zset).
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/assert.h"

namespace trafikey::sim {

// A zset's (score, member) entries in ZRANGE order: by score, then member bytes. The
// entries stay put in a slab; the order is a sorted array of slab indices, so an insert or
// erase shifts a few hundred bytes with one memmove (zsets hold tens to a few hundred
// members) where a red-black tree allocated, freed and rebalanced a node, and a rank is an
// index. Iterators are random access and last until the next write.
class ZsetOrder {
 public:
  using value_type = std::pair<double, std::string>;
  // (score, member) with the member bytes compared unsigned, as memcmp does (t_zset.c)
  static bool less(double score_a, std::string_view a, double score_b, std::string_view b) {
    return score_a != score_b ? score_a < score_b : a < b;
  }

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = ZsetOrder::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const value_type*;
    using reference = const value_type&;

    const_iterator() = default;
    reference operator*() const { return items_[*at_]; }
    pointer operator->() const { return &items_[*at_]; }
    reference operator[](difference_type n) const { return items_[at_[n]]; }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator++(int) { const_iterator t = *this; ++at_; return t; }
    const_iterator operator--(int) { const_iterator t = *this; --at_; return t; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const_iterator a, const_iterator b) { return a.at_ - b.at_; }
    friend bool operator==(const_iterator a, const_iterator b) { return a.at_ == b.at_; }
    friend auto operator<=>(const_iterator a, const_iterator b) { return a.at_ <=> b.at_; }

   private:
    friend class ZsetOrder;
    const_iterator(const value_type* items, const std::uint32_t* at) : items_(items), at_(at) {}
    const value_type* items_ = nullptr;
    const std::uint32_t* at_ = nullptr;
  };

  const_iterator begin() const { return {items_.data(), order_.data()}; }
  const_iterator end() const { return {items_.data(), order_.data() + order_.size()}; }
  std::size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }

  void insert(double score, std::string_view member) {
    const std::size_t rank = rank_of(score, member);
    std::uint32_t slot;
    if (free_.empty()) {
      slot = static_cast<std::uint32_t>(items_.size());
      items_.emplace_back(score, std::string(member));
    } else {
      slot = free_.back();
      free_.pop_back();
      items_[slot].first = score;
      items_[slot].second.assign(member);
    }
    order_.insert(order_.begin() + rank, slot);
  }
  // `member` is present with `score` (asserted).
  void erase(double score, std::string_view member) {
    const auto at = order_.begin() + rank_of(score, member);
    TRAFIKEY_ASSERT(holds(at, score, member), "erase of a member the zset does not hold at that score");
    free_.push_back(*at);
    order_.erase(at);
  }
  // `member` is present with `old_score` (asserted).
  void rescore(double old_score, std::string_view member, double score) {
    auto at = order_.begin() + rank_of(old_score, member);
    TRAFIKEY_ASSERT(holds(at, old_score, member), "rescore of a member the zset does not hold at that score");
    const std::uint32_t slot = *at;
    order_.erase(at);
    items_[slot].first = score;
    order_.insert(order_.begin() + rank_of(score, member), slot);
  }

  bool operator==(const ZsetOrder& o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }

 private:
  bool holds(std::vector<std::uint32_t>::const_iterator at, double score, std::string_view member) const {
    return at != order_.end() && items_[*at].first == score && items_[*at].second == member;
  }
  // The rank of the first entry not before (score, member).
  std::size_t rank_of(double score, std::string_view member) const {
    std::size_t lo = 0, hi = order_.size();
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      const value_type& e = items_[order_[mid]];
      if (less(e.first, e.second, score, member)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  std::vector<value_type> items_;     // the slab; free_ lists the unused slots
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> order_;  // slab slots in ZRANGE order
};

}  // namespace trafikey::sim
