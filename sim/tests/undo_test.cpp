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

// One write through the undo log, as SimServer::write records it.
void write(Keyspace& data, UndoLog& undo, const WriteOp& op) {
  switch (op.kind) {
    case WriteOp::Kind::hset:
    case WriteOp::Kind::hdel: undo.before_field(data, op.key, op.field); break;
    case WriteOp::Kind::zadd:
    case WriteOp::Kind::zrem: undo.before_member(data, op.key, op.field); break;
    default: undo.before_key(data, op.key); break;
  }
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
    std::size_t done = 0;
    while (done < ops.size()) {
      const std::size_t ahead = std::min(ops.size(), done + static_cast<std::size_t>(prng.between(1, 60)));
      for (; done < ahead; ++done) write(live, undo, ops[done]);
      ASSERT_EQ(undo.position(), static_cast<std::int64_t>(done));
      // go back a random distance, then redo from there
      const auto back = static_cast<std::size_t>(prng.between(0, static_cast<std::int64_t>(done)));
      undo.rewind(live, static_cast<std::int64_t>(back));
      ASSERT_EQ(live.dump(), dumps[back]) << "seed " << seed << ", rewound from " << done << " to " << back;
      done = back;
      if (prng.between(0, 3) == 0) break;
    }
  }
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

TEST(UndoLog, forgetting_keeps_later_rewinds_exact_across_compaction) {
  Prng prng(7);
  Keyspace live, replayed;
  UndoLog undo;
  std::vector<std::string> dumps{""};
  for (int i = 0; i < 20000; ++i) {
    const WriteOp op = random_op(prng);
    write(live, undo, op);
    apply(replayed, op);
    if (i % 97 == 0) undo.forget_before(undo.position() - 50);  // a copy 50 writes behind
  }
  EXPECT_GE(undo.oldest(), 20000 - 50 - 97);
  const std::int64_t to = undo.oldest() + 10;
  // the oracle as of `to`: replay from scratch
  Prng again(7);
  Keyspace expected;
  for (std::int64_t i = 0; i < to; ++i) apply(expected, random_op(again));
  undo.rewind(live, to);
  EXPECT_EQ(live.dump(), expected.dump());
  EXPECT_EQ(undo.position(), to);
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
