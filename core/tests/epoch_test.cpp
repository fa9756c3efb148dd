// The lease epoch (shared seed "The lease epoch"; shared spec EMQ §2): the shape check, the
// exemption, the load and the cache, on the seed's own test vectors.
#include <gtest/gtest.h>

#include <string>

#include "core/epoch.h"
#include "core/errors.h"
#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// The five strings the shape check must reject, verbatim from the seed.
const std::string kBadRunIds[] = {
    "",
    std::string(NOW.substr(0, 39)),
    "3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812",
    "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f7081g",
    "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f708123",
};

TEST(Epoch, test_vector_now_is_the_seed_value) {
  EXPECT_EQ(NOW, "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812");
  EXPECT_EQ(NOW.size(), 40u);
  EXPECT_EQ(Epoch::run_id_len, 40u);
}

TEST(Epoch, run_ids_are_40_lowercase_hex) {
  EXPECT_TRUE(Epoch::valid_run_id(NOW));
  EXPECT_TRUE(Epoch::valid_run_id("3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812"));
  EXPECT_TRUE(Epoch::valid_run_id(OTHER));
  EXPECT_TRUE(Epoch::valid_run_id("0123456789abcdefabcdef0123456789abcdef01"));
}

TEST(Epoch, rejects_empty_short_uppercase_nonhex_and_long_run_ids) {
  EXPECT_FALSE(Epoch::valid_run_id(""));
  EXPECT_FALSE(Epoch::valid_run_id(NOW.substr(0, 39)));
  EXPECT_FALSE(Epoch::valid_run_id("3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812"));
  EXPECT_FALSE(Epoch::valid_run_id("3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f7081g"));
  EXPECT_FALSE(Epoch::valid_run_id("3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f708123"));
  for (const auto& bad : kBadRunIds) EXPECT_FALSE(Epoch::valid_run_id(bad)) << bad;
}

TEST(Epoch, rejects_run_ids_with_other_bytes) {
  EXPECT_FALSE(Epoch::valid_run_id(std::string(39, 'a') + '\0'));
  EXPECT_FALSE(Epoch::valid_run_id(std::string(39, 'a') + ' '));
  EXPECT_FALSE(Epoch::valid_run_id(std::string(39, 'a') + '-'));
  EXPECT_FALSE(Epoch::valid_run_id(std::string(39, 'a') + 'G'));
}

TEST(Epoch, counted_when_stamp_is_the_current_process) {
  EXPECT_FALSE(Epoch::exempt(NOW, NOW));
}

TEST(Epoch, exempt_when_stamp_missing) {
  EXPECT_TRUE(Epoch::exempt(std::nullopt, NOW));
}

TEST(Epoch, exempt_when_stamp_names_another_process) {
  EXPECT_TRUE(Epoch::exempt("0000000000000000000000000000000000000000", NOW));
}

TEST(Epoch, exempt_when_stamp_is_empty) {
  EXPECT_TRUE(Epoch::exempt("", NOW));
}

TEST(Epoch, exemption_compares_bytes_not_case_or_prefix) {
  EXPECT_TRUE(Epoch::exempt("3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812", NOW));
  EXPECT_TRUE(Epoch::exempt(NOW.substr(0, 39), NOW));
  EXPECT_TRUE(Epoch::exempt(std::string(NOW) + "0", NOW));
}

TEST(Epoch, current_before_load_refuses) {
  Epoch epoch;
  EXPECT_FALSE(epoch.loaded());
  auto current = epoch.current();
  ASSERT_FALSE(current.ok());
  EXPECT_EQ(current.error(), Err("ERR EMQ host call failed"));
}

TEST(Epoch, load_accepts_now_and_current_hands_it_out) {
  Epoch epoch;
  EXPECT_TRUE(epoch.load(std::string(NOW)).ok());
  EXPECT_TRUE(epoch.loaded());
  auto current = epoch.current();
  ASSERT_TRUE(current.ok());
  EXPECT_EQ(current.value(), NOW);
}

TEST(Epoch, load_refuses_failed_read) {
  Epoch epoch;
  Status status = epoch.load(Outcome<std::string>(Err("ERR INFO server unavailable")));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error(), Err("ERR EMQ host call failed"));
  EXPECT_FALSE(epoch.loaded());
  EXPECT_FALSE(epoch.current().ok());
}

TEST(Epoch, load_refuses_malformed_value) {
  for (const auto& bad : kBadRunIds) {
    Epoch epoch;
    Status status = epoch.load(bad);
    ASSERT_FALSE(status.ok()) << bad;
    EXPECT_EQ(status.error(), Err("ERR EMQ host call failed")) << bad;
    EXPECT_FALSE(epoch.loaded()) << bad;
    auto current = epoch.current();
    ASSERT_FALSE(current.ok()) << bad;
    EXPECT_EQ(current.error(), Err("ERR EMQ host call failed")) << bad;
  }
}

// A refused load leaves nothing behind: the next good load takes its own value. And a
// second load whose read fails or is malformed refuses, though a value is cached (the
// module's reload then fails: EMQ §2, anything but a good read refuses the load).
TEST(Epoch, a_refused_load_caches_nothing_and_a_refused_reload_still_refuses) {
  for (const auto& bad : kBadRunIds) {
    Epoch epoch;
    ASSERT_FALSE(epoch.load(bad).ok()) << bad;
    ASSERT_TRUE(epoch.load(std::string(NOW)).ok()) << bad;
    ASSERT_TRUE(epoch.current().ok());
    EXPECT_EQ(epoch.current().value(), NOW) << bad;
    EXPECT_FALSE(epoch.load(bad).ok()) << "a second load on " << bad;
    EXPECT_FALSE(epoch.load(Outcome<std::string>(Err("ERR INFO server unavailable"))).ok());
  }
}

TEST(Epoch, second_load_keeps_first_value) {
  Epoch epoch;
  ASSERT_TRUE(epoch.load(std::string(NOW)).ok());
  EXPECT_TRUE(epoch.load(std::string(OTHER)).ok());
  ASSERT_TRUE(epoch.current().ok());
  EXPECT_EQ(epoch.current().value(), NOW);
}

TEST(Epoch, failed_second_load_keeps_first_value) {
  Epoch epoch;
  ASSERT_TRUE(epoch.load(std::string(NOW)).ok());
  Status failed_read = epoch.load(Outcome<std::string>(Err("ERR no server section")));
  EXPECT_EQ(failed_read.error(), Err("ERR EMQ host call failed"));
  Status malformed = epoch.load(std::string("3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812"));
  EXPECT_EQ(malformed.error(), Err("ERR EMQ host call failed"));
  ASSERT_TRUE(epoch.current().ok());
  EXPECT_EQ(epoch.current().value(), NOW);
}

TEST(Epoch, each_process_object_holds_its_own_epoch) {
  Epoch first, second;
  ASSERT_TRUE(first.load(std::string(NOW)).ok());
  ASSERT_TRUE(second.load(std::string(OTHER)).ok());
  EXPECT_EQ(first.current().value(), NOW);
  EXPECT_EQ(second.current().value(), OTHER);
}

// ---- the epoch of a simulated server process

TEST(EpochOfServer, start_loads_run_id_into_the_incarnation) {
  ServerUnderTest s;
  const sim::Incarnation& inc = s.server.incarnation();
  EXPECT_EQ(inc.number, 1);
  EXPECT_EQ(inc.run_id, NOW);
  EXPECT_TRUE(inc.module_loaded);
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(NOW));
}

TEST(EpochOfServer, restart_draws_a_new_epoch_and_keeps_the_data) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j1", "p"}), Int(1));
  const std::string before = s.dump();
  s.restart(std::string(OTHER));
  EXPECT_EQ(s.server.incarnation().number, 2);
  EXPECT_EQ(s.server.incarnation().run_id, OTHER);
  EXPECT_EQ(s.call({"EMQ.EPOCH"}), Bulk(OTHER));
  EXPECT_EQ(s.dump(), before);
}

TEST(EpochOfServer, failed_run_id_read_leaves_the_module_unloaded) {
  ServerUnderTest s;
  s.restart(Outcome<std::string>(Err("ERR INFO failed")));
  const sim::Incarnation& inc = s.server.incarnation();
  EXPECT_EQ(inc.number, 2);
  EXPECT_EQ(inc.run_id, "");
  EXPECT_FALSE(inc.module_loaded);
  EXPECT_FALSE(inc.epoch.loaded());
}

TEST(EpochOfServer, malformed_run_id_leaves_the_module_unloaded) {
  for (const auto& bad : kBadRunIds) {
    ServerUnderTest s(bad);
    EXPECT_FALSE(s.server.incarnation().module_loaded) << bad;
    EXPECT_EQ(s.server.incarnation().run_id, bad);
    EXPECT_FALSE(s.server.epoch().current().ok()) << bad;
  }
}

}  // namespace
}  // namespace trafikey::test
