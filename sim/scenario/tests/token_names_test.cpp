// Token names (token_names.h): `@C/J` and `@C/J/N` name the wire 2 tokens a CLAIM reply
// handed C for J; the writer names every token it can, and a name means the same token
// to the runner as the token it replaced.
#include "sim/scenario/token_names.h"

#include <gtest/gtest.h>

#include "sim/scenario/parse.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {
namespace {

const std::string run1 = "5c017cf0d6fa2f3baec463746955b3584154a280";
const std::string run2 = "7a3a662cb7c1e246376332a92e84a72b227adff6";

Reply claimed(const std::string& id, std::int64_t attempts, const std::string& token) {
  return Reply::array({Reply::array({Reply::bulk(id), Reply::integer(attempts), Reply::bulk("p"), Reply::bulk(token)})});
}

TEST(TokenNames, a_name_is_the_latest_token_and_n_counts_the_grants) {
  TokenNames names;
  const std::string first = "1-" + run1 + "-1000", second = "2-" + run2 + "-7000";
  names.learn("w1", {"EMQ.CLAIM", "q", "100", "WIRE", "2"}, claimed("j1", 1, first));
  EXPECT_EQ(names.resolve("@w1/j1"), first);
  EXPECT_EQ(names.name_of(first), "@w1/j1");
  names.learn("w1", {"emq.claim", "q", "100", "wire", "2"}, claimed("j1", 2, second));
  EXPECT_EQ(names.resolve("@w1/j1"), second);
  EXPECT_EQ(names.resolve("@w1/j1/1"), first);
  EXPECT_EQ(names.resolve("@w1/j1/2"), second);
  EXPECT_EQ(names.name_of(first), "@w1/j1/1");
  EXPECT_EQ(names.name_of(second), "@w1/j1");
  // names of nothing handed out: not a token
  EXPECT_EQ(names.resolve("@w1/j1/3"), std::nullopt);
  EXPECT_EQ(names.resolve("@w2/j1"), std::nullopt);
  EXPECT_EQ(names.resolve("@w1/j2"), std::nullopt);
  EXPECT_EQ(names.resolve("w1/j1"), std::nullopt);
  // what resolves leaves every other word as written
  EXPECT_EQ(names.resolved(std::vector<std::string>{"EMQ.COMPLETE", "q", "j1", "@w1/j1/1", "@w9/j1"}),
            (std::vector<std::string>{"EMQ.COMPLETE", "q", "j1", first, "@w9/j1"}));
}

TEST(TokenNames, only_a_claims_wire_2_tokens_are_learnt) {
  TokenNames names;
  const std::string token = "1-" + run1 + "-1000";
  names.learn("w1", {"EMQ.JOB", "q", "j1"}, claimed("j1", 1, token));  // not a CLAIM
  names.learn("w1", {"EMQ.CLAIM", "q", "100"},
              Reply::array({Reply::array({Reply::bulk("j1"), Reply::integer(1), Reply::bulk("p")})}));  // wire 1
  names.learn("w1", {"EMQ.CLAIM", "q", "100"}, claimed("j1", 1, "17"));  // not a wire 2 token
  EXPECT_EQ(names.resolve("@w1/j1"), std::nullopt);
  EXPECT_EQ(names.name_of(token), std::nullopt);
}

// A job whose id cannot stand in a name keeps its tokens spelt out.
TEST(TokenNames, an_id_with_a_slash_keeps_its_token_spelt_out) {
  TokenNames names;
  const std::string token = "1-" + run1 + "-1000";
  names.learn("w1", {"EMQ.CLAIM", "q", "100", "WIRE", "2"}, claimed("a/2", 1, token));
  EXPECT_EQ(names.name_of(token), std::nullopt);
}

// The writer names the tokens of a file in a CLAIM's reply and in every later argument;
// the named file parses back, and resolving its names along the way gives back the
// original steps.
TEST(TokenNames, a_file_written_with_names_means_the_same_tokens) {
  const std::string first = "1-" + run1 + "-1000", second = "1-" + run2 + "-1501000";
  const std::string text = "scenario \"t\"\noption seed 1\n"
                           "at 0 w1: EMQ.CLAIM q 5000 WIRE 2 => [[j1 1 a " + first + "]]\n"
                           "at 1 restart\n"
                           "at 2 w2: EMQ.CLAIM q 5000 WIRE 2 => [[j1 1 a " + second + "]]\n"
                           "at 3 w1: EMQ.COMPLETE q j1 " + first + " ok => 0\n"
                           "at 3 w2: EMQ.COMPLETE q j1 " + second + " ok => 1\n";
  const auto parsed = parse_scenario(text, "t.scn");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  const Scenario named = name_tokens(parsed.value());
  const std::string written = write_scenario(named);
  EXPECT_NE(written.find("=> [[j1 1 a @w1/j1]]"), std::string::npos) << written;
  EXPECT_NE(written.find("w1: EMQ.COMPLETE q j1 @w1/j1 ok"), std::string::npos) << written;
  EXPECT_NE(written.find("w2: EMQ.COMPLETE q j1 @w2/j1 ok"), std::string::npos) << written;
  EXPECT_EQ(written.find(run1), std::string::npos) << written;
  const auto back = parse_scenario(written, "t.scn");
  ASSERT_TRUE(back.ok()) << back.error().message;
  // the runner's way: resolve the arguments, learn from the reply, resolve the pattern
  TokenNames names;
  for (std::size_t i = 0; i < back.value().steps.size(); ++i) {
    const auto* call = std::get_if<Call>(&back.value().steps[i].action);
    if (!call) continue;
    const auto& original = std::get<Call>(parsed.value().steps[i].action);
    EXPECT_EQ(names.resolved(call->argv), original.argv);
    if (original.argv[1] == "q" && original.argv[0] == "EMQ.CLAIM") {
      const std::string& token = original.expect->items[0].items[3].text;
      names.learn(call->client, names.resolved(call->argv), claimed("j1", 1, token));
    }
    EXPECT_EQ(names.resolved(*call->expect), *original.expect);
  }
}

}  // namespace
}  // namespace trafikey::scenario
