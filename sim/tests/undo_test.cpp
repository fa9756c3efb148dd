// The undo log: rewinding to a position gives back exactly the keyspace as of that
// position (dump byte for byte, hash field order included), whatever the writes were.
#include "sim/undo.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/prng.h"
#include "sim/server.h"

namespace trafikey::sim {
namespace {

// One write, journaled by the keyspace into `undo`.
void write(Keyspace& data, UndoLog& undo, const WriteOp& op) {
  data.set_journal(&undo);
  apply(data, op);
}

// A random write on a few keys of each type (a key keeps one type, as the core's read
// pass guarantees; DEL then lets it come back).
WriteOp random_op(Prng& prng) {
  const std::string n = std::to_string(prng.between(0, 2));
  const std::string field = "f" + std::to_string(prng.between(0, 4));
  switch (prng.between(0, 6)) {
    case 0: return {WriteOp::Kind::hset, "h" + n, field, "v" + std::to_string(prng.between(0, 99)), 0};
    case 1: return {WriteOp::Kind::hdel, "h" + n, field, {}, 0};
    case 2: return {WriteOp::Kind::zadd, "z" + n, field, {}, static_cast<double>(prng.between(0, 9))};
    case 3: return {WriteOp::Kind::zrem, "z" + n, field, {}, 0};
    case 4: return {WriteOp::Kind::incr, "s" + n, {}, {}, 0};
    case 5: return {WriteOp::Kind::set, "s" + n, "text" + n, {}, 0};
    default: {
      const char* kinds[] = {"h", "z", "s"};
      return {WriteOp::Kind::del, kinds[prng.between(0, 2)] + n, {}, {}, 0};
    }
  }
}

TEST(UndoLog, rewinding_gives_back_the_keyspace_of_every_earlier_position) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    // half the seeds with the new values kept too (the checker's logs): the same rewinds
    const bool keep_new = seed % 2 == 0;
    Prng prng(seed);
    std::vector<WriteOp> ops;
    for (int i = 0; i < 300; ++i) ops.push_back(random_op(prng));
    // The oracle: the dump after each prefix of the writes.
    std::vector<std::string> dumps{""};
    Keyspace replayed;
    for (const auto& op : ops) {
      apply(replayed, op);
      dumps.push_back(replayed.dump());
    }
    Keyspace live;
    UndoLog undo;
    undo.keep_new_values(keep_new);
    std::vector<std::int64_t> at{0};  // the log's position after each prefix
    while (at.size() <= ops.size()) {
      const std::size_t ahead = std::min(ops.size(), at.size() - 1 + static_cast<std::size_t>(prng.between(1, 60)));
      while (at.size() - 1 < ahead) {
        write(live, undo, ops[at.size() - 1]);
        at.push_back(undo.position());
      }
      // go back a random distance, then redo from there
      const std::size_t done = at.size() - 1;
      const auto back = static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(done)));
      undo.rewind(live, at[back]);
      ASSERT_EQ(live.dump(), dumps[back]) << "seed " << seed << ", rewound from " << done << " to " << back;
      at.resize(back + 1);
      if (prng.between(0, 3) == 0) break;
    }
  }
}

TEST(UndoLog, a_write_that_changes_nothing_is_not_recorded) {
  Keyspace data;
  UndoLog undo;
  write(data, undo, {WriteOp::Kind::hdel, "h", "f", {}, 0});
  write(data, undo, {WriteOp::Kind::zrem, "z", "m", {}, 0});
  write(data, undo, {WriteOp::Kind::del, "s", {}, {}, 0});
  EXPECT_EQ(undo.position(), 0);
  write(data, undo, {WriteOp::Kind::hset, "h", "f", "v", 0});
  EXPECT_EQ(undo.position(), 1);
}

TEST(UndoLog, a_deleted_field_goes_back_to_its_place) {
  Keyspace data;
  UndoLog undo;
  for (const char* f : {"a", "b", "c"}) write(data, undo, {WriteOp::Kind::hset, "h", f, "1", 0});
  const Keyspace::Hash before = std::get<Keyspace::Hash>(*data.find("h"));
  write(data, undo, {WriteOp::Kind::hdel, "h", "b", {}, 0});
  write(data, undo, {WriteOp::Kind::hset, "h", "b", "2", 0});  // now last
  undo.rewind(data, 3);
  EXPECT_EQ(std::get<Keyspace::Hash>(*data.find("h")), before);  // insertion order: a b c
}

class Forgetting : public testing::TestWithParam<bool> {};

TEST_P(Forgetting, keeps_later_rewinds_exact_across_compaction) {
  Prng prng(7);
  std::vector<WriteOp> ops;
  for (int i = 0; i < 20000; ++i) ops.push_back(random_op(prng));
  Keyspace live;
  UndoLog undo;
  undo.keep_new_values(GetParam());  // compaction moves the new values' bytes too
  std::vector<std::int64_t> at{0};  // position after each prefix
  for (std::size_t i = 0; i < ops.size(); ++i) {
    write(live, undo, ops[i]);
    at.push_back(undo.position());
    if (i % 97 == 0) undo.forget_before(undo.position() - 50);  // a copy 50 entries behind
  }
  EXPECT_GE(undo.oldest(), undo.position() - 50 - 97 * 2);
  EXPECT_GT(undo.oldest(), 10000);  // compacted, not kept whole
  // the earliest prefix the log can still go back to
  std::size_t k = 0;
  while (at[k] < undo.oldest()) ++k;
  Keyspace expected;
  for (std::size_t i = 0; i < k; ++i) apply(expected, ops[i]);
  undo.rewind(live, at[k]);
  EXPECT_EQ(live.dump(), expected.dump());
  EXPECT_EQ(undo.position(), at[k]);
}

INSTANTIATE_TEST_SUITE_P(UndoLog, Forgetting, testing::Bool(),
                         [](const auto& info) { return info.param ? "new_values_kept" : "old_values_only"; });

// Two keyspaces, equal to begin with, each journaled by a log that keeps new values.
struct Pair {
  Keyspace a, b;
  UndoLog undo_a, undo_b;
  Pair() {
    undo_a.keep_new_values(true);
    undo_b.keep_new_values(true);
  }
};

// One random change to a list of writes: a value, score or name altered, two writes
// swapped, one dropped or one repeated.
std::vector<WriteOp> changed(Prng& prng, std::vector<WriteOp> ops) {
  const auto i = static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(ops.size()) - 1));
  switch (prng.between(0, 4)) {
    case 0: ops[i].value += "x"; ops[i].field += "y"; break;
    case 1: ops[i].score += 1; ops[i].field += "z"; break;
    case 2: if (i + 1 < ops.size()) std::swap(ops[i], ops[i + 1]); break;
    case 3: ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i)); break;
    default: ops.insert(ops.begin() + static_cast<std::ptrdiff_t>(i), ops[i]); break;
  }
  return ops;
}

TEST(UndoLog, two_logs_holding_the_same_writes_leave_equal_keyspaces) {
  // The checker's shortcut (verb.model): keyspaces equal at the two positions, and the same
  // writes since, must be equal again; and writes that differ are not taken for the same.
  int told_same = 0, told_apart = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    Prng prng(seed);
    Pair p;
    for (int i = 0; i < 40; ++i) {  // the same history on both sides
      const WriteOp op = random_op(prng);
      write(p.a, p.undo_a, op);
      write(p.b, p.undo_b, op);
    }
    const std::int64_t from_a = p.undo_a.position(), from_b = p.undo_b.position();
    std::vector<WriteOp> ops;
    for (int i = 0; i < 1 + prng.between(0, 8); ++i) ops.push_back(random_op(prng));
    const bool alter = prng.between(0, 1) == 1;
    for (const auto& op : ops) write(p.a, p.undo_a, op);
    for (const auto& op : alter ? changed(prng, ops) : ops) write(p.b, p.undo_b, op);
    const bool same = p.undo_a.same_writes_since(from_a, p.undo_b, from_b);
    EXPECT_EQ(same, p.undo_b.same_writes_since(from_b, p.undo_a, from_a)) << "seed " << seed;
    if (same) {
      ++told_same;
      ASSERT_EQ(p.a.dump(), p.b.dump()) << "seed " << seed << ": the same writes, unequal keyspaces";
    } else if (p.a.dump() != p.b.dump()) {
      ++told_apart;
    }
    if (!alter) {
      EXPECT_TRUE(same) << "seed " << seed << ": the same writes not told the same";
    }
  }
  EXPECT_GT(told_same, 100);
  EXPECT_GT(told_apart, 25);  // 42 with these seeds: altered writes that did change something
}

TEST(UndoLog, a_log_that_kept_no_new_values_tells_nothing) {
  Pair p;
  p.undo_b.keep_new_values(false);
  const WriteOp op{WriteOp::Kind::hset, "h", "f", "v", 0};
  write(p.a, p.undo_a, op);
  write(p.b, p.undo_b, op);
  EXPECT_FALSE(p.undo_a.same_writes_since(0, p.undo_b, 0));
  // nor does a position the log does not hold
  EXPECT_FALSE(p.undo_a.same_writes_since(0, p.undo_a, 2));
  EXPECT_TRUE(p.undo_a.same_writes_since(1, p.undo_a, 1));  // no writes since either
}

TEST(UndoLog, incr_and_a_set_to_the_same_text_are_different_writes) {
  Pair p;
  write(p.a, p.undo_a, {WriteOp::Kind::incr, "n", {}, {}, 0});
  write(p.b, p.undo_b, {WriteOp::Kind::set, "n", "1", {}, 0});
  EXPECT_EQ(p.a.dump(), p.b.dump());  // equal here, but not for every old value
  EXPECT_FALSE(p.undo_a.same_writes_since(0, p.undo_b, 0));
}

// each_made_since tells what a field's write made, where the log kept it; each_since the
// same entries without it.
TEST(UndoLog, each_made_since_tells_a_fields_new_value_where_it_was_kept) {
  for (const bool kept : {true, false}) {
    Keyspace data;
    UndoLog undo;
    undo.keep_new_values(kept);
    write(data, undo, {WriteOp::Kind::hset, "h", "state", "active", 0});
    const std::int64_t from = undo.position();
    write(data, undo, {WriteOp::Kind::hset, "h", "state", "done", 0});
    write(data, undo, {WriteOp::Kind::hdel, "h", "state", {}, 0});
    write(data, undo, {WriteOp::Kind::zadd, "z", "j1", {}, 5});
    write(data, undo, {WriteOp::Kind::incr, "n", {}, {}, 0});
    std::vector<std::string> seen, names;
    EXPECT_TRUE(undo.each_made_since(from, [&](UndoLog::Wrote wrote, std::string_view key, std::string_view name,
                                               const std::string_view* now) {
      seen.push_back(std::to_string(static_cast<int>(wrote)) + " " + std::string(key) + " " + std::string(name) +
                     " " + (now ? std::string(*now) : "-"));
    }));
    const std::vector<std::string> expected{kept ? "0 h state done" : "0 h state -", "0 h state -", "1 z j1 -",
                                            "2 n  -"};
    EXPECT_EQ(seen, expected) << "kept " << kept;
    EXPECT_TRUE(undo.each_since(from, [&](UndoLog::Wrote, std::string_view key, std::string_view name) {
      names.push_back(std::string(key) + " " + std::string(name));
    }));
    EXPECT_EQ(names, (std::vector<std::string>{"h state", "h state", "z j1", "n "}));
    // a position the log no longer holds tells nothing
    EXPECT_FALSE(undo.each_made_since(undo.position() + 1, [](auto...) { FAIL(); }));
  }
}

TEST(UndoLog, clear_starts_positions_again) {
  Keyspace data;
  UndoLog undo;
  write(data, undo, {WriteOp::Kind::incr, "n", {}, {}, 0});
  EXPECT_EQ(undo.position(), 1);
  undo.clear();
  data.clear();
  EXPECT_EQ(undo.position(), 0);
  EXPECT_EQ(undo.oldest(), 0);
}

}  // namespace
}  // namespace trafikey::sim
