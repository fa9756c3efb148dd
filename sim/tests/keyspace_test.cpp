// sim::Keyspace: the Valkey data semantics the core needs (hash, zset, string counter,
// TYPE, wrong-type detection) and the dump that tests compare byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/keyspace.h"

namespace trafikey::sim {
namespace {

using namespace std::string_literals;
using Pairs = std::vector<std::pair<std::string, double>>;

TEST(Keyspace, type_names_each_value_kind) {
  Keyspace k;
  k.set("s", "v");
  k.hset("h", "f", "v");
  k.zadd("z", 1, "m");
  EXPECT_EQ(k.type("s"), KeyType::string);
  EXPECT_EQ(k.type("h"), KeyType::hash);
  EXPECT_EQ(k.type("z"), KeyType::zset);
  EXPECT_EQ(k.type("absent"), KeyType::none);
  EXPECT_EQ(key_type_name(k.type("z")), "zset");
}

TEST(Keyspace, typed_reads_flag_a_key_of_another_type) {
  Keyspace k;
  k.hset("h", "f", "v");
  bool wrong = false;
  EXPECT_EQ(k.string_at("h", wrong), nullptr);
  EXPECT_TRUE(wrong);
  EXPECT_EQ(k.zset_at("h", wrong), nullptr);
  EXPECT_TRUE(wrong);
  ASSERT_NE(k.hash_at("h", wrong), nullptr);
  EXPECT_FALSE(wrong);
  EXPECT_EQ(k.hash_at("absent", wrong), nullptr);
  EXPECT_FALSE(wrong);
}

TEST(Keyspace, hash_keeps_insertion_order_and_updates_in_place) {
  Keyspace k;
  EXPECT_EQ(k.hset("h", "b", "1"), 1);
  EXPECT_EQ(k.hset("h", "a", "2"), 1);
  EXPECT_EQ(k.hset("h", "b", "3"), 0);
  bool wrong = false;
  const Keyspace::Hash* h = k.hash_at("h", wrong);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(*h, (Keyspace::Hash{{"b", "3"}, {"a", "2"}}));
  EXPECT_EQ(*Keyspace::hash_field(*h, "a"), "2");
  EXPECT_EQ(Keyspace::hash_field(*h, "c"), nullptr);
}

TEST(Keyspace, hdel_of_the_last_field_removes_the_key) {
  Keyspace k;
  k.hset("h", "a", "1");
  k.hset("h", "b", "2");
  EXPECT_EQ(k.hdel("h", "a"), 1);
  EXPECT_EQ(k.hdel("h", "a"), 0);
  EXPECT_TRUE(k.exists("h"));
  EXPECT_EQ(k.hdel("h", "b"), 1);
  EXPECT_FALSE(k.exists("h"));
  EXPECT_EQ(k.hdel("absent", "x"), 0);
}

TEST(Keyspace, zset_orders_by_score_then_member_bytes_unsigned) {
  Keyspace k;
  k.zadd("z", 1, "b");
  k.zadd("z", 1, "\xff");
  k.zadd("z", 1, "a");
  k.zadd("z", 1, "B");
  k.zadd("z", 0.5, "zz");
  k.zadd("z", 1, "a\0"s);
  bool wrong = false;
  const Keyspace::Zset* z = k.zset_at("z", wrong);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(Keyspace::zrange_by_rank(*z, 0, -1),
            (Pairs{{"zz", 0.5}, {"B", 1}, {"a", 1}, {"a\0"s, 1}, {"b", 1}, {"\xff", 1}}));
}

TEST(Keyspace, zadd_counts_new_members_and_moves_updated_scores) {
  Keyspace k;
  EXPECT_EQ(k.zadd("z", 1, "a"), 1);
  EXPECT_EQ(k.zadd("z", 2, "b"), 1);
  EXPECT_EQ(k.zadd("z", 3, "a"), 0);
  EXPECT_EQ(k.zadd("z", 3, "a"), 0);
  bool wrong = false;
  const Keyspace::Zset* z = k.zset_at("z", wrong);
  EXPECT_EQ(Keyspace::zrange_by_rank(*z, 0, -1), (Pairs{{"b", 2}, {"a", 3}}));
  ASSERT_NE(z->scores.find("a"), z->scores.end());
  EXPECT_EQ(z->scores.find("a")->second, 3);
  EXPECT_EQ(z->scores.size(), 2u);
  EXPECT_EQ(z->order.size(), 2u);
}

TEST(Keyspace, zrem_of_the_last_member_removes_the_key) {
  Keyspace k;
  k.zadd("z", 1, "a");
  k.zadd("z", 2, "b");
  EXPECT_EQ(k.zrem("z", "a"), 1);
  EXPECT_EQ(k.zrem("z", "a"), 0);
  EXPECT_TRUE(k.exists("z"));
  EXPECT_EQ(k.zrem("z", "b"), 1);
  EXPECT_FALSE(k.exists("z"));
  EXPECT_EQ(k.zrem("absent", "a"), 0);
}

TEST(Keyspace, zrange_by_score_is_below_max_exclusive_and_limited) {
  Keyspace k;
  for (auto [score, m] : {std::pair{10.0, "a"}, {20.0, "b"}, {20.0, "c"}, {30.0, "d"}}) {
    k.zadd("z", score, m);
  }
  bool wrong = false;
  const Keyspace::Zset& z = *k.zset_at("z", wrong);
  EXPECT_EQ(Keyspace::zrange_by_score(z, 20, 100), (Pairs{{"a", 10}}));
  EXPECT_EQ(Keyspace::zrange_by_score(z, 20.5, 100), (Pairs{{"a", 10}, {"b", 20}, {"c", 20}}));
  EXPECT_EQ(Keyspace::zrange_by_score(z, 100, 2), (Pairs{{"a", 10}, {"b", 20}}));
  EXPECT_EQ(Keyspace::zrange_by_score(z, 10, 100), Pairs{});
  EXPECT_EQ(Keyspace::zrange_by_score(z, 100, 0), Pairs{});
}

TEST(Keyspace, zrange_by_rank_takes_negative_and_clamped_ranks_as_zrange) {
  Keyspace k;
  for (auto [score, m] : {std::pair{1.0, "a"}, {2.0, "b"}, {3.0, "c"}}) k.zadd("z", score, m);
  bool wrong = false;
  const Keyspace::Zset& z = *k.zset_at("z", wrong);
  EXPECT_EQ(Keyspace::zrange_by_rank(z, 0, 0), (Pairs{{"a", 1}}));
  EXPECT_EQ(Keyspace::zrange_by_rank(z, 1, 5), (Pairs{{"b", 2}, {"c", 3}}));
  EXPECT_EQ(Keyspace::zrange_by_rank(z, -2, -1), (Pairs{{"b", 2}, {"c", 3}}));
  EXPECT_EQ(Keyspace::zrange_by_rank(z, -100, 0), (Pairs{{"a", 1}}));
  EXPECT_EQ(Keyspace::zrange_by_rank(z, 3, 10), Pairs{});
  EXPECT_EQ(Keyspace::zrange_by_rank(z, 2, 1), Pairs{});
  EXPECT_EQ(Keyspace::zrange_by_rank(z, 0, -100), Pairs{});
}

// Zsets sit behind a pointer in the keyspace: a copy (a replica, an undo record) must own
// its own, and a write through either side must not show in the other.
TEST(Keyspace, a_copy_owns_its_zsets) {
  Keyspace k;
  k.zadd("z", 1, "a");
  Keyspace copy = k;
  k.zadd("z", 2, "b");
  copy.zadd("z", 3, "c");
  EXPECT_EQ(k.dump(), "\"z\" zset \"a\"@1 \"b\"@2\n");
  EXPECT_EQ(copy.dump(), "\"z\" zset \"a\"@1 \"c\"@3\n");
  copy = k;
  k.zrem("z", "a");
  EXPECT_EQ(copy.dump(), "\"z\" zset \"a\"@1 \"b\"@2\n");
  Keyspace moved = std::move(copy);
  EXPECT_EQ(moved.dump(), "\"z\" zset \"a\"@1 \"b\"@2\n");
  k.set("z", "s");  // a string over a zset: the box goes
  EXPECT_EQ(k.dump(), "\"z\" string \"s\"\n");
}

// The plain INCR refuses int64's top; a wrong core's write through the keyspace wraps to
// the bottom (defined: through unsigned), which the model, having refused, does not hold.
TEST(Keyspace, incr_at_the_top_of_int64_wraps_to_the_bottom) {
  Keyspace k;
  k.set("n", "9223372036854775807");
  EXPECT_EQ(k.incr("n"), std::numeric_limits<std::int64_t>::min());
  bool wrong = false;
  EXPECT_EQ(*k.string_at("n", wrong), "-9223372036854775808");
}

TEST(Keyspace, incr_counts_from_an_absent_key) {
  Keyspace k;
  EXPECT_EQ(k.incr("n"), 1);
  EXPECT_EQ(k.incr("n"), 2);
  bool wrong = false;
  EXPECT_EQ(*k.string_at("n", wrong), "2");
  k.set("m", "41");
  EXPECT_EQ(k.incr("m"), 42);
}

TEST(Keyspace, set_replaces_a_value_of_any_type) {
  Keyspace k;
  k.hset("h", "f", "v");
  k.set("h", "now a string");
  EXPECT_EQ(k.type("h"), KeyType::string);
  bool wrong = false;
  EXPECT_EQ(*k.string_at("h", wrong), "now a string");
}

TEST(Keyspace, del_removes_any_key) {
  Keyspace k;
  k.set("s", "v");
  k.zadd("z", 1, "m");
  EXPECT_EQ(k.del("s"), 1);
  EXPECT_EQ(k.del("s"), 0);
  EXPECT_EQ(k.del("z"), 1);
  EXPECT_EQ(k.size(), 0u);
}

TEST(Keyspace, dump_lists_keys_in_byte_order_with_sorted_fields) {
  Keyspace k;
  k.zadd("emq:{q}:active", 2000, "j2");
  k.zadd("emq:{q}:active", 1500.5, "j1");
  k.hset("emq:{q}:job:j1", "state", "active");
  k.hset("emq:{q}:job:j1", "attempts", "1");
  k.set("emq:{q}:seq", "2");
  k.set("B", "upper first");
  EXPECT_EQ(k.dump(),
            "\"B\" string \"upper first\"\n"
            "\"emq:{q}:active\" zset \"j1\"@1500.5 \"j2\"@2000\n"
            "\"emq:{q}:job:j1\" hash \"attempts\"=\"1\" \"state\"=\"active\"\n"
            "\"emq:{q}:seq\" string \"2\"\n");
  EXPECT_EQ(k.keys(), (std::vector<std::string>{"B", "emq:{q}:active", "emq:{q}:job:j1",
                                                "emq:{q}:seq"}));
  EXPECT_EQ(Keyspace().dump(), "");
}

TEST(Keyspace, equal_data_dumps_equal_whatever_the_insertion_order) {
  Keyspace a, b;
  a.hset("h", "x", "1");
  a.hset("h", "y", "2");
  a.zadd("z", 1, "m");
  b.zadd("z", 1, "m");
  b.hset("h", "y", "2");
  b.hset("h", "x", "1");
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_TRUE(a == b);
  b.hset("h", "x", "changed");
  EXPECT_NE(a.dump(), b.dump());
  EXPECT_FALSE(a == b);
}

TEST(Keyspace, dump_tells_types_apart) {
  Keyspace a, b;
  a.set("k", "1");
  b.zadd("k", 1, "1");
  EXPECT_NE(a.dump(), b.dump());
}

TEST(Keyspace, quote_bytes_escapes_quotes_backslashes_and_other_bytes) {
  EXPECT_EQ(quote_bytes("plain {q}:x"), "\"plain {q}:x\"");
  EXPECT_EQ(quote_bytes("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quote_bytes("\0\r\n\x7f\xff"s), "\"\\x00\\x0d\\x0a\\x7f\\xff\"");
  EXPECT_EQ(quote_bytes(""), "\"\"");
}

TEST(Keyspace, scores_print_integers_plainly_and_others_with_17_digits) {
  EXPECT_EQ(format_score(0), "0");
  EXPECT_EQ(format_score(2000), "2000");
  EXPECT_EQ(format_score(-3), "-3");
  EXPECT_EQ(format_score(9007199254740991.0), "9007199254740991");
  EXPECT_EQ(format_score(1.5), "1.5");
  EXPECT_EQ(format_score(0.25), "0.25");
  EXPECT_EQ(format_score(HUGE_VAL), "inf");
  EXPECT_EQ(format_score(-HUGE_VAL), "-inf");
}

TEST(Keyspace, clear_empties_the_dataset) {
  Keyspace k;
  k.set("a", "1");
  k.hset("b", "f", "v");
  EXPECT_EQ(k.size(), 2u);
  k.clear();
  EXPECT_EQ(k.size(), 0u);
  EXPECT_EQ(k.dump(), "");
}

// A small deterministic stream for the randomized comparisons below (PCG's LCG step).
struct Lcg {
  std::uint64_t x;
  std::uint64_t operator()() {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x >> 33;
  }
};

// ZsetOrder against std::set, the container it replaced, through a long run of inserts,
// re-scores and erases that reuses slab slots and puts equal scores next to each other.
TEST(ZsetOrder, keeps_the_order_a_std_set_keeps) {
  ZsetOrder order;
  std::set<std::pair<double, std::string>> want;
  std::map<std::string, double> scores;
  Lcg next{12345};
  for (int i = 0; i < 5000; ++i) {
    const std::string member = "j" + std::to_string(next() % 200) + (next() % 2 ? "\xff" : "");
    const double score = static_cast<double>(next() % 50);
    auto it = scores.find(member);
    if (it == scores.end()) {
      order.insert(score, member);
      want.emplace(score, member);
      scores[member] = score;
    } else if (next() % 3 == 0) {
      order.erase(it->second, member);
      want.erase({it->second, member});
      scores.erase(it);
    } else {
      order.rescore(it->second, member, score);
      want.erase({it->second, member});
      want.emplace(score, member);
      it->second = score;
    }
    ASSERT_EQ(order.size(), want.size());
    if (i % 97 == 0) {
      ASSERT_TRUE(std::equal(order.begin(), order.end(), want.begin(), want.end())) << i;
    }
  }
  EXPECT_TRUE(std::equal(order.begin(), order.end(), want.begin(), want.end()));
  ASSERT_GT(order.size(), 2u);
  EXPECT_EQ(order.end() - order.begin(), static_cast<std::ptrdiff_t>(want.size()));
  EXPECT_EQ(order.begin()[1], *std::next(want.begin()));
  ZsetOrder copy = order;
  EXPECT_TRUE(copy == order);
  copy.erase(copy.begin()->first, std::string(copy.begin()->second));
  EXPECT_FALSE(copy == order);
}

// FlatMap against std::map through inserts and erases that move entries and shift probe runs.
// Half the operations reuse the previous key, as a verb does, so lookups often follow an
// erase of that key or of the entry that moved; keys of two lengths fill the arena, which
// erases leave garbage in and repacks. Half the finds and inserts pass the key's hash_of.
TEST(FlatMap, finds_what_a_std_map_finds_through_inserts_and_erases) {
  FlatMap<int> map;
  std::map<std::string, int> want;
  Lcg next{777};
  std::string k;
  for (int i = 0; i < 20000; ++i) {
    if (k.empty() || next() % 2 == 0) {
      const auto n = next() % 700;
      k = (n % 3 == 0 ? "emq:{longer-queue}:job:j" : "emq:{q}:job:j") + std::to_string(n);
    }
    // the overloads given a hash (one hash for several maps) half the time
    const bool hashed = next() % 2 == 0;
    if (next() % 4 == 0) {
      const auto* e = hashed ? std::as_const(map).find(k, FlatMap<int>::hash_of(k)) : std::as_const(map).find(k);
      ASSERT_EQ(e != nullptr, want.contains(k)) << k;
      if (e) {
        EXPECT_EQ(e->second, want[k]) << k;
      }
    } else if (next() % 3 == 0) {
      auto* e = map.find(k);
      ASSERT_EQ(e != nullptr, want.contains(k)) << k;
      if (e) map.erase(e);
      want.erase(k);
    } else {
      auto [e, added] = hashed ? map.try_emplace(k, FlatMap<int>::hash_of(k)) : map.try_emplace(k);
      ASSERT_EQ(added, !want.contains(k)) << k;
      e->second = i;
      want[k] = i;
    }
  }
  ASSERT_EQ(map.size(), want.size());
  for (const auto& [key, value] : want) {
    const auto* e = map.find(key);
    ASSERT_NE(e, nullptr) << key;
    EXPECT_EQ(e->second, value);
    EXPECT_EQ(map.key_of(*e), key);
  }
  for (int n = 700; n < 800; ++n) EXPECT_EQ(map.find("emq:{q}:job:j" + std::to_string(n)), map.end());
  ASSERT_NE(map.find(want.begin()->first), nullptr);
  map.clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.find(want.begin()->first), nullptr);
  EXPECT_EQ(map.find("emq:{q}:job:j1"), nullptr);
}

// shape(): the checker keeps the pointers zset_at() gave while it stays the same, so it
// must change whenever a key comes or goes or is replaced whole, and a pointer must hold
// while it does not.
TEST(Keyspace, shape_changes_exactly_when_a_key_comes_goes_or_is_replaced) {
  Keyspace d;
  Keyspace::Shape last = d.shape();
  auto changed = [&] {
    const bool moved = d.shape() != last;
    last = d.shape();
    return moved;
  };
  d.zadd("z", 1, "a");
  EXPECT_TRUE(changed()) << "a new zset";
  bool wrong = false;
  const Keyspace::Zset* z = d.zset_at("z", wrong);
  d.zadd("z", 2, "b");
  d.zadd("z", 3, "a");  // re-scored
  d.zrem("z", "b");
  EXPECT_FALSE(changed()) << "members written in a zset that stays";
  EXPECT_EQ(d.zset_at("z", wrong), z);
  d.hset("h", "f", "1");
  EXPECT_TRUE(changed()) << "a new hash";
  d.hset("h", "f", "2");
  d.hset("h", "g", "3");
  d.hdel("h", "g");
  EXPECT_FALSE(changed()) << "fields written in a hash that stays";
  EXPECT_EQ(d.zset_at("z", wrong), z) << "the zset's own pointer holds while other keys grow";
  d.hdel("h", "f");
  EXPECT_TRUE(changed()) << "the hash's last field deleted: the key is gone";
  d.zrem("z", "a");
  EXPECT_TRUE(changed()) << "the zset's last member removed";
  d.set("s", "1");
  EXPECT_TRUE(changed()) << "SET of a new key";
  d.set("s", "2");
  EXPECT_TRUE(changed()) << "SET replaces a key whole, whatever it held";
  d.incr("n");
  EXPECT_TRUE(changed()) << "INCR of a new key";
  d.incr("n");
  EXPECT_FALSE(changed()) << "INCR of a counter that stays";
  EXPECT_EQ(d.del("n"), 1);
  EXPECT_TRUE(changed()) << "DEL";
  EXPECT_EQ(d.del("n"), 0);
  EXPECT_FALSE(changed()) << "DEL of nothing";
  Keyspace other;
  other.zadd("z", 1, "a");
  EXPECT_NE(other.shape(), d.shape()) << "two keyspaces never share a shape";
  d = other;
  EXPECT_TRUE(changed()) << "assignment";
  EXPECT_NE(d.shape(), other.shape());
  d.clear();
  EXPECT_TRUE(changed()) << "clear";
}

// Lookups: the values of a few keys, looked up again exactly when the shape moved (a
// stale pointer to a deleted set would be read after it was freed).
TEST(Keyspace, lookups_follow_the_keys_that_come_and_go) {
  Keyspace d;
  Keyspace::Lookups<2> keys;
  auto of = [&] { return keys.of(d, {"p", "a"}); };
  EXPECT_EQ(of()[0], nullptr);
  EXPECT_EQ(of()[1], nullptr);
  d.zadd("p", 1, "j1");
  ASSERT_NE(of()[0], nullptr) << "a set that came is seen";
  EXPECT_EQ(Keyspace::as_zset(of()[0])->order.size(), 1u);
  d.zadd("p", 2, "j2");
  EXPECT_EQ(Keyspace::as_zset(of()[0])->order.size(), 2u) << "the same set, grown";
  d.zrem("p", "j1");
  d.zrem("p", "j2");
  EXPECT_EQ(of()[0], nullptr) << "a set emptied is gone";
  d.set("a", "text");
  ASSERT_NE(of()[1], nullptr);
  EXPECT_EQ(Keyspace::as_zset(of()[1]), nullptr) << "a key of another type is no set";
  Keyspace other;
  other.zadd("a", 1, "x");
  EXPECT_EQ(Keyspace::as_zset(keys.of(other, {"p", "a"})[1])->order.size(), 1u) << "another keyspace is read afresh";
}

// A campaign's threads each change their own keyspaces' shapes: two keyspaces never share
// one, whichever threads made them.
TEST(Keyspace, shapes_never_repeat_across_threads) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen[2];
  auto work = [&](std::vector<std::pair<std::uint64_t, std::uint64_t>>& out) {
    for (int k = 0; k < 10; ++k) {
      Keyspace d;
      for (int i = 0; i < 100; ++i) {
        d.set("k", "v");
        out.emplace_back(d.shape().keyspace, d.shape().version);
      }
    }
  };
  std::thread a(work, std::ref(seen[0]));
  std::thread b(work, std::ref(seen[1]));
  a.join();
  b.join();
  std::set<std::pair<std::uint64_t, std::uint64_t>> all(seen[0].begin(), seen[0].end());
  all.insert(seen[1].begin(), seen[1].end());
  EXPECT_EQ(all.size(), 2000u);
}

}  // namespace
}  // namespace trafikey::sim
