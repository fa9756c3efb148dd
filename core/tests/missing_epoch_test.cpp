// A process without an epoch (shared spec EMQ §2): a server whose run_id read failed or was
// malformed refused the module's load and answers EMQ verbs as unknown commands; and a
// core-level host whose epoch is not loaded refuses every epoch reader and writer with
// "ERR EMQ host call failed" before any write.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/tests/server_under_test.h"

namespace trafikey::test {
namespace {

// a1 live (deadline 6000), x1 expired at 1500 (deadline 1010), p1 pending; now 1500.
void populate(ServerUnderTest& s) {
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a1", "pa"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "x1", "px"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "p1", "pp"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "5000"}), Arr({Claimed("a1", 1, "pa")}));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "10"}), Arr({Claimed("x1", 1, "px")}));
  s.set_now_ms(1500);
}

const std::vector<std::vector<std::string>> kEveryVerb{
    {"EMQ.ADD", "q", "new", "p"},
    {"EMQ.CLAIM", "q", "100"},
    {"EMQ.EXTEND", "q", "a1", "1", "100"},
    {"EMQ.EXTENDS", "q", "100", "a1", "1"},
    {"EMQ.COMPLETE", "q", "a1", "1"},
    {"EMQ.FAIL", "q", "a1", "1", "r"},
    {"EMQ.STALLED.CHECK", "q", "1"},
    {"EMQ.STATS", "q"},
    {"EMQ.JOB", "q", "a1"},
    {"EMQ.EPOCH"},
};

std::string unknown_text(const std::vector<std::string>& argv) {
  std::string text = "ERR unknown command '" + argv[0] + "', with args beginning with: ";
  for (std::size_t i = 1; i < argv.size(); ++i) text += "'" + argv[i] + "' ";
  return text;
}

void expect_every_verb_unknown(ServerUnderTest& s) {
  for (const auto& argv : kEveryVerb) {
    const std::string before = s.dump();
    EXPECT_EQ(s.client_call(argv), Err(unknown_text(argv))) << argv[0];
    EXPECT_EQ(s.dump(), before) << argv[0];
  }
}

TEST(MissingEpoch, unknown_text_is_the_servers) {
  EXPECT_EQ(unknown_text({"EMQ.CLAIM", "q", "100"}),
            "ERR unknown command 'EMQ.CLAIM', with args beginning with: 'q' '100' ");
  EXPECT_EQ(unknown_text({"EMQ.EPOCH"}),
            "ERR unknown command 'EMQ.EPOCH', with args beginning with: ");
}

TEST(MissingEpoch, server_whose_run_id_read_failed_answers_emq_verbs_as_unknown) {
  ServerUnderTest s;
  populate(s);
  s.restart(Outcome<std::string>(Err("ERR INFO server failed")));
  ASSERT_FALSE(s.server.incarnation().module_loaded);
  expect_every_verb_unknown(s);
}

TEST(MissingEpoch, server_whose_run_id_was_malformed_answers_emq_verbs_as_unknown) {
  for (std::string bad : {"", "3F2C0D8E9B1A4C5D6E7F8091A2B3C4D5E6F70812",
                          "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f7081g",
                          "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f708123"}) {
    ServerUnderTest s;
    populate(s);
    s.restart(bad);
    ASSERT_FALSE(s.server.incarnation().module_loaded) << bad;
    expect_every_verb_unknown(s);
  }
}

TEST(MissingEpoch, first_process_with_failed_read_never_serves_emq) {
  ServerUnderTest s(NOW.substr(0, 39));
  EXPECT_FALSE(s.server.incarnation().module_loaded);
  expect_every_verb_unknown(s);
  EXPECT_EQ(s.dump(), "");
}

TEST(MissingEpoch, plain_commands_still_answer_without_the_module) {
  ServerUnderTest s;
  populate(s);
  s.restart(Outcome<std::string>(Err("ERR INFO server failed")));
  EXPECT_EQ(s.client_call({"HGET", "emq:{q}:job:a1", "lease_epoch"}), Bulk(NOW));
  EXPECT_EQ(s.client_call({"ZSCORE", "emq:{q}:active", "a1"}), Bulk("6000"));
}

TEST(MissingEpoch, next_process_with_a_good_read_serves_again) {
  ServerUnderTest s;
  populate(s);
  s.restart(Outcome<std::string>(Err("ERR INFO server failed")));
  s.restart(std::string(OTHER));
  EXPECT_EQ(s.server.incarnation().number, 3);
  EXPECT_EQ(s.client_call({"EMQ.EPOCH"}), Bulk(OTHER));
  EXPECT_EQ(s.client_call({"EMQ.EXTEND", "q", "a1", "1", "100"}), Int(1));
  EXPECT_EQ(s.client_call({"HGET", "emq:{q}:job:a1", "lease_epoch"}), Bulk(OTHER));
}

// ---- the core against a host whose epoch is not loaded

class CoreWithoutEpoch : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(CoreWithoutEpoch, refuses_with_host_call_failed_before_any_write) {
  ServerUnderTest s;
  populate(s);
  s.restart(Outcome<std::string>(Err("ERR INFO server failed")));
  ASSERT_FALSE(s.server.epoch().loaded());
  const std::string before = s.dump();
  EXPECT_EQ(s.core_call(GetParam()), Err("ERR EMQ host call failed"));
  EXPECT_EQ(s.dump(), before);
  EXPECT_TRUE(s.writes().empty());
  EXPECT_EQ(s.tracer.writers_taken, 0);
  // the same call under a process with an epoch writes: the refusal is the epoch's alone
  if (GetParam()[0] != "EMQ.EPOCH") {
    s.restart(std::string(NOW));
    EXPECT_FALSE(s.core_call(GetParam()).is_error());
    EXPECT_EQ(s.tracer.writers_taken, 1);
    EXPECT_NE(s.dump(), before);
  }
}

// Each of these would write on this data with an epoch: p1 is pending, a1 is live, x1 has
// expired under NOW.
INSTANTIATE_TEST_SUITE_P(
    EpochReadersAndWriters, CoreWithoutEpoch,
    ::testing::Values(std::vector<std::string>{"EMQ.CLAIM", "q", "100"},
                      std::vector<std::string>{"EMQ.EXTEND", "q", "a1", "1", "100"},
                      std::vector<std::string>{"EMQ.EXTENDS", "q", "100", "a1", "1"},
                      std::vector<std::string>{"EMQ.STALLED.CHECK", "q", "1"},
                      std::vector<std::string>{"EMQ.EPOCH"}),
    [](const ::testing::TestParamInfo<std::vector<std::string>>& info) {
      std::string name;
      for (char c : info.param[0].substr(4)) {
        name += (c == '.') ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      return name;
    });

}  // namespace
}  // namespace trafikey::test
