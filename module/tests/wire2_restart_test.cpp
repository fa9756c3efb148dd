// Wire 2 against the rollback it was made for (EMQ §8; issue 35 item 6), on a real server:
// a claim is lost by a restart that loses writes, the job is claimed again with the same
// attempts, and the holder of the lost claim comes back late. The loss is made exact the
// way the scenario runner makes it for `everysec` (RealSession::restart_keeping): the
// server writes its AOF with `appendfsync always` and no rewrite, is SIGKILLed, and the
// file is cut back to the length it had before the claim (aof_cut_test.cpp).
//
//   wire 2  the late holder's token names a grant of the dead process: COMPLETE, EXTEND,
//           EXTENDS and FAIL answer 0 and leave the row as the new grant made it; the new
//           holder completes (scenarios/wire2/persistence-loss.scn, on a real server)
//   wire 1  the late holder's token is attempts 1, which the new grant reissued: its
//           COMPLETE is accepted and the new holder's answers 0, the documented limit
//           (scenarios/limits/persistence-loss.scn; INVARIANTS.md, known limits)
#include "module/tests/test_support.h"

namespace trafikey::real::test {
namespace {

const std::string orders_q = "orders";
const std::string j1_row = "emq:{orders}:job:j1";

// AOF on every answered write, never rewritten: its length after a call is exact.
ServerConfig cuttable() {
  return with_module({"--appendfsync", "always", "--auto-aof-rewrite-percentage", "0"});
}

// The token of a CLAIM ... WIRE 2 that granted j1 alone: [["j1" 1 "work" token]].
std::string wire2_token_of(const Reply& claim) {
  EXPECT_EQ(claim.kind(), Reply::Kind::array) << show(claim);
  const auto& items = claim.items_if_array();
  if (items.size() != 1 || items[0].items_if_array().size() != 4) {
    ADD_FAILURE() << "not one wire 2 item: " << show(claim);
    return {};
  }
  const auto& job = items[0].items();
  EXPECT_EQ(show(job[0]), R"("j1")");
  EXPECT_EQ(show(job[1]), "1");
  EXPECT_EQ(show(job[2]), R"("work")");
  EXPECT_EQ(job[3].kind(), Reply::Kind::bulk) << show(claim);
  return job[3].text();
}

// "<attempts>-<run_id>-<n>" -> its attempts part and its grant id "<run_id>-<n>".
std::pair<std::string, std::string> split_token(const std::string& token) {
  const std::size_t dash = token.find('-');
  if (dash == std::string::npos) return {token, {}};
  return {token.substr(0, dash), token.substr(dash + 1)};
}

// ADD j1, record the AOF, claim it (the claim the cut loses), SIGKILL, cut, start again.
// Returns the answer of the lost claim.
Reply claim_then_lose_the_claim(RealServer& server, const std::vector<std::string>& claim) {
  auto c = server.connect();
  EXPECT_EQ(show(c.call({"EMQ.ADD", orders_q, "j1", "work"})), "1");
  const std::uintmax_t before_claim = server.aof_length();
  EXPECT_GT(before_claim, 0u);
  Reply answer = c.call(claim);
  EXPECT_GT(server.aof_length(), before_claim) << "the claim reached the file before its answer";
  server.kill();
  server.cut_aof(before_claim);
  server.start();
  auto after = server.connect();
  EXPECT_EQ(show(after.call({"EMQ.JOB", orders_q, "j1"})),
            row({{"attempts", "0"}, {"failures", "0"}, {"max_failures", "3"}, {"payload", "work"},
                 {"state", "pending"}}))
      << "the restart lost the claim, and only the claim";
  return answer;
}

TEST(Wire2RealRestart, StaleHolderRefusedAfterWriteLosingRestart) {
  RealServer server(cuttable());
  std::string first_epoch;
  {
    auto first = server.connect();
    first_epoch = epoch_of(first);
  }
  const std::string t1 =
      wire2_token_of(claim_then_lose_the_claim(server, {"EMQ.CLAIM", orders_q, "60000", "WIRE", "2"}));
  auto c = server.connect();
  const std::string second_epoch = epoch_of(c);
  ASSERT_NE(second_epoch, first_epoch) << "a restart is a new process";

  const std::string t2 = wire2_token_of(c.call({"EMQ.CLAIM", orders_q, "60000", "WIRE", "2"}));
  const auto [attempts1, grant1] = split_token(t1);
  const auto [attempts2, grant2] = split_token(t2);
  EXPECT_EQ(attempts1, "1");
  EXPECT_EQ(attempts2, "1") << "the rollback reissued attempts 1";
  EXPECT_EQ(grant1.rfind(first_epoch + "-", 0), 0u) << t1;
  EXPECT_EQ(grant2.rfind(second_epoch + "-", 0), 0u) << t2;
  ASSERT_NE(t1, t2) << "but not the grant";

  const std::string granted = row({{"attempts", "1"}, {"failures", "0"}, {"lease", grant2},
                                   {"lease_epoch", second_epoch}, {"max_failures", "3"},
                                   {"payload", "work"}, {"state", "active"}});
  ASSERT_EQ(show(c.call({"EMQ.JOB", orders_q, "j1"})), granted);
  const std::string deadline = show(c.call({"ZSCORE", "emq:{orders}:active", "j1"}));
  const std::string keyspace = digest(c);

  // The holder of the lost grant comes back: every lease verb answers 0 and writes nothing.
  EXPECT_EQ(show(c.call({"EMQ.COMPLETE", orders_q, "j1", t1, "late"})), "0");
  EXPECT_EQ(show(c.call({"EMQ.EXTEND", orders_q, "j1", t1, "90000"})), "0");
  EXPECT_EQ(show(c.call({"EMQ.EXTENDS", orders_q, "90000", "j1", t1})), "[0]");
  EXPECT_EQ(show(c.call({"EMQ.FAIL", orders_q, "j1", t1, "late"})), "0");
  EXPECT_EQ(show(c.call({"EMQ.JOB", orders_q, "j1"})), granted) << "state active, lease = T2's grant id";
  EXPECT_EQ(show(c.call({"ZSCORE", "emq:{orders}:active", "j1"})), deadline);
  EXPECT_EQ(digest(c), keyspace) << "the refused calls wrote nothing";

  // The holder of the live grant completes.
  EXPECT_EQ(show(c.call({"EMQ.COMPLETE", orders_q, "j1", t2, "ok"})), "1");
  EXPECT_EQ(show(c.call({"HMGET", j1_row, "state", "result", "lease"})),
            show(Reply::array({Reply::bulk("done"), Reply::bulk("ok"), Reply::bulk(grant2)})));
}

TEST(Wire2RealRestart, Wire1StaleHolderAcceptedAfterWriteLosingRestart) {
  RealServer server(cuttable());
  EXPECT_EQ(show(claim_then_lose_the_claim(server, {"EMQ.CLAIM", orders_q, "60000"})),
            R"([["j1" 1 "work"]])");
  auto c = server.connect();
  ASSERT_EQ(show(c.call({"EMQ.CLAIM", orders_q, "60000"})), R"([["j1" 1 "work"]])")
      << "the rollback reissued attempts 1";

  // The documented limit of wire 1: the late holder's token is the new grant's token.
  EXPECT_EQ(show(c.call({"EMQ.COMPLETE", orders_q, "j1", "1", "late"})), "1");
  EXPECT_EQ(show(c.call({"HMGET", j1_row, "state", "result"})),
            show(Reply::array({Reply::bulk("done"), Reply::bulk("late")})));
  EXPECT_EQ(show(c.call({"EMQ.COMPLETE", orders_q, "j1", "1", "ok"})), "0")
      << "the live holder's completion is the one refused";
}

}  // namespace
}  // namespace trafikey::real::test
