// Wire 2 (shared spec EMQ §8): a lease token that no rollback can reissue. One test per
// bullet of the section, with the spec's own examples.
#include <gtest/gtest.h>

#include <string>

#include "core/tests/server_under_test.h"
#include "sim/executor_scripts.h"

namespace trafikey::test {
namespace {

const std::string wire1_text = "ERR EMQ attempts must be an integer in 1..9223372036854775807";
std::string grant(std::string_view run_id, std::int64_t n) { return std::string(run_id) + "-" + std::to_string(n); }
std::string token(std::int64_t attempts, const std::string& grant_id) { return std::to_string(attempts) + "-" + grant_id; }

// [id, attempts, payload, token]: a WIRE 2 reply item.
Reply Claimed2(std::string_view id, std::int64_t attempts, std::string_view payload, const std::string& t) {
  return Arr({Bulk(std::string(id)), Int(attempts), Bulk(std::string(payload)), Bulk(t)});
}

// The grant id: the granting process's run_id, '-', a number that strictly increases over
// every grant the process makes and starts above the server's time in microseconds at the
// module's load (the server here loaded at server time 0: first number 1000).
TEST(Wire2, a_grant_id_is_the_run_id_and_a_number_above_the_load_time_that_only_grows) {
  ServerUnderTest s;  // loaded at server time 0, now 1000
  for (std::string id : {"a", "b", "c"}) ASSERT_EQ(s.call({"EMQ.ADD", "q", id, "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100", "COUNT", "2"}), Arr({Claimed("a", 1, "p"), Claimed("b", 1, "p")}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:a", "lease"}), Bulk(grant(NOW, 1000)));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:b", "lease"}), Bulk(grant(NOW, 1001)));
  // a reload in the same process keeps counting up (it never starts over)
  s.set_now_ms(0);  // at a time whose microseconds are below the numbers taken
  s.server.reload(std::string(NOW));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("c", 1, "p")}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:c", "lease"}), Bulk(grant(NOW, 1002)));
  // a reload later than the numbers taken moves above its own time
  s.set_now_ms(5000);
  s.server.reload(std::string(NOW));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "d", "p"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "100"}), Arr({Claimed("d", 1, "p")}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:d", "lease"}), Bulk(grant(NOW, 5001000)));
}

// CLAIM writes `lease` on every grant, both wires, in the HSET of state, attempts and
// lease_epoch; WIRE 2 adds [.., token] to each item. A wire 1 call answers byte for byte
// as before.
TEST(Wire2, claim_writes_the_grant_id_on_both_wires_and_wire_2_hands_out_the_token) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "a", "pa"}), Int(1));
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "b", "pb"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "WIRE", "1"}), Arr({Claimed("a", 1, "pa")}));
  EXPECT_EQ(s.writes().at(1), "HSET emq:{q}:job:a state active attempts 1 lease_epoch " + std::string(NOW) +
                                  " lease " + grant(NOW, 1000));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "wire", "2", "COUNT", "5"}),
            Arr({Claimed2("b", 1, "pb", token(1, grant(NOW, 1001)))}));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "WIRE", "3"}), Err("ERR EMQ wire must be an integer in 1..2"));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "WIRE", "2", "WIRE", "2"}), Err("ERR EMQ syntax error"));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "COUNT", "1", "WIRE", "2", "X"}), Err("ERR EMQ wrong number of arguments"));
  EXPECT_EQ(s.call({"EMQ.CLAIM", "q", "100", "WIRE"}), Err("ERR EMQ syntax error"));
}

// The lease verbs take either token; a token of neither shape is refused with the wire 1
// text, before anything is read.
TEST(Wire2, a_token_of_the_wrong_shape_is_refused_with_the_wire_1_text) {
  ServerUnderTest s;
  const std::string hex40(40, 'a');
  for (const std::string& bad : std::vector<std::string>{"1-x", "1-" + hex40, "01-" + hex40 + "-5", "1-" + hex40 + "-05",
                                "1-" + std::string(39, 'a') + "-5", "1-" + std::string(40, 'A') + "-5",
                                "-1", "1-" + hex40 + "-", "1-" + hex40 + "-5x", "12345678901234567890-" + hex40 + "-5"}) {
    EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", bad}), Err(wire1_text)) << bad;
    EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j", bad, "100"}), Err(wire1_text)) << bad;
    EXPECT_EQ(s.call({"EMQ.FAIL", "q", "j", bad, "why"}), Err(wire1_text)) << bad;
    EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "100", "j", bad}), Err(wire1_text)) << bad;
  }
  // the right shape on a job that does not exist: not live, 0
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", "1-" + hex40 + "-5"}), Int(0));
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", "9999999999999999999-" + hex40 + "-5"}), Int(0))
      << "an attempts part past INT64_MAX has the shape; no row can match it";
}

// Live under wire 2: the row's attempts equal the token's first part AND its `lease` the
// token's grant id. EXTEND and EXTENDS keep `lease`; COMPLETE leaves it on the row.
TEST(Wire2, a_wire_2_token_is_live_only_for_its_own_grant) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j", "p"}), Int(1));
  const std::string t = token(1, grant(NOW, 1000));
  ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000", "WIRE", "2"}), Arr({Claimed2("j", 1, "p", t)}));
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j", token(1, grant(NOW, 999)), "1000"}), Int(0)) << "another grant id";
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j", token(2, grant(NOW, 1000)), "1000"}), Int(0)) << "another attempts";
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j", token(1, grant(OTHER, 1000)), "1000"}), Int(0)) << "another process";
  EXPECT_EQ(s.call({"EMQ.EXTEND", "q", "j", t, "1000"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.EXTENDS", "q", "1000", "j", t, "j", "1"}), Arr({Int(1), Int(1)})) << "either token";
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j", "lease"}), Bulk(grant(NOW, 1000))) << "extensions keep it";
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", t}), Int(1));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j", "lease"}), Bulk(grant(NOW, 1000))) << "COMPLETE leaves it";
  // a row without `lease` (written before wire 2, or by hand) is never live for a wire 2 token
  ASSERT_EQ(s.call({"HSET", "emq:{q}:job:h", "state", "active", "attempts", "1"}), Int(2));
  ASSERT_EQ(s.call({"ZADD", "emq:{q}:active", "5000", "h"}), Int(1));
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "h", t}), Int(0));
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "h", "1"}), Int(1)) << "its wire 1 token is";
}

// What wire 2 removes: after a rollback (the row back as it was before the grant, a new
// process) the next CLAIM hands out attempts 1 again. The wire 1 holder's late COMPLETE is
// accepted while another worker runs the job; the wire 2 holder's is refused.
TEST(Wire2, a_token_a_rollback_reissued_in_wire_1_is_refused_in_wire_2) {
  for (const bool wire2 : {false, true}) {
    ServerUnderTest s;
    ASSERT_EQ(s.call({"EMQ.ADD", "q", "j", "p"}), Int(1));
    const Reply first = s.call({"EMQ.CLAIM", "q", "1000", "WIRE", wire2 ? "2" : "1"});
    const std::string held = wire2 ? first.items()[0].items()[3].text() : "1";
    // persistence loss: the claim's writes are gone, and a new process serves
    ASSERT_EQ(s.call({"HSET", "emq:{q}:job:j", "state", "pending", "attempts", "0"}), Int(0));
    ASSERT_EQ(s.call({"HDEL", "emq:{q}:job:j", "lease", "lease_epoch"}), Int(2));
    ASSERT_EQ(s.call({"ZREM", "emq:{q}:active", "j"}), Int(1));
    ASSERT_EQ(s.call({"ZADD", "emq:{q}:pending", "1", "j"}), Int(1));
    s.restart(std::string(OTHER));
    ASSERT_EQ(s.call({"EMQ.CLAIM", "q", "1000"}), Arr({Claimed("j", 1, "p")})) << "attempts 1 again";
    EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", held}), Int(wire2 ? 0 : 1)) << (wire2 ? "wire 2" : "wire 1");
  }
}

// A scripted claim (claim.lua writes no `lease`) after a wire 2 grant raises attempts,
// which the wire 2 token also carries: the wire 2 holder is fenced.
TEST(Wire2, a_scripted_claim_after_a_wire_2_grant_fences_the_wire_2_holder) {
  ServerUnderTest s;
  ASSERT_EQ(s.call({"EMQ.ADD", "q", "j", "p"}), Int(1));
  const Reply first = s.call({"EMQ.CLAIM", "q", "10", "WIRE", "2"});
  const std::string held = first.items()[0].items()[3].text();
  s.set_now_ms(1011);
  ASSERT_EQ(s.call({"EMQ.STALLED.CHECK", "q", "5"}), Swept({"j"}, {}));
  const std::string claim_lua(sim::executor_script_body(sim::ExecutorScript::claim));
  ASSERT_EQ(s.call({"EVAL", claim_lua, "2", "emq:{q}:pending", "emq:{q}:active", "1000", "1"}),
            Arr({Claimed("j", 2, "p")}));
  EXPECT_EQ(s.call({"HGET", "emq:{q}:job:j", "lease"}), Bulk(grant(NOW, 1000))) << "the script leaves `lease`";
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", held}), Int(0));
  EXPECT_EQ(s.call({"EMQ.COMPLETE", "q", "j", "2"}), Int(1)) << "the script's holder, by wire 1";
}

}  // namespace
}  // namespace trafikey::test
