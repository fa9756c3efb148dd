// The model of EMQ.md, rule by rule: one test per row of §4's verb table and per step of
// §5's sweep, plus the keys of §1, the lease window of §3, the refusals of §6 and the
// plain commands an operator uses. Read next to the spec page.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "properties/model/model.h"

namespace trafikey::properties::model {
namespace {

constexpr std::string_view NOW = "3f2c0d8e9b1a4c5d6e7f8091a2b3c4d5e6f70812";
constexpr std::string_view OLD = "0000000000000000000000000000000000000000";

class EmqModel : public ::testing::Test {
 protected:
  Expectation call(std::initializer_list<std::string_view> argv) {
    const std::vector<std::string_view> v(argv);
    Expectation e = m.call(Args(v.data(), v.size()), ctx);
    m.end_call(m.calls() + 1);
    return e;
  }
  // The one reply the model expects.
  Reply reply(std::initializer_list<std::string_view> argv) {
    Expectation e = call(argv);
    EXPECT_EQ(e.replies.size(), 1u) << e.describe();
    EXPECT_TRUE(e.range_suffixes.empty());
    return e.replies.empty() ? Reply::nil() : e.replies[0];
  }
  std::string row(std::string_view id) {
    const auto* v = m.data().find(row_key("q", id));
    if (!v || v->index() != 1) return "(none)";
    auto fields = std::get<1>(*v);
    std::sort(fields.begin(), fields.end());
    std::string s;
    for (const auto& [f, x] : fields) s += (s.empty() ? "" : " ") + f + "=" + x;
    return s;
  }
  std::string zset(std::string_view key) {
    const auto* v = m.data().find(key);
    if (!v || v->index() != 2) return "(none)";
    std::string s;
    for (const auto& [score, member] : std::get<2>(*v)->order) {
      s += (s.empty() ? "" : " ") + member + "@" + sim::format_score(score);
    }
    return s;
  }
  static Reply I(std::int64_t n) { return Reply::integer(n); }
  static Reply B(std::string_view s) { return Reply::bulk(s); }
  static Reply E(std::string_view s) { return Reply::error(s); }
  static Reply A(std::vector<Reply> items = {}) { return Reply::array(std::move(items)); }
  static Reply Claimed(std::string_view id, std::int64_t att, std::string_view payload) {
    return A({B(id), I(att), B(payload)});
  }
  static Reply Sweep(std::vector<std::string> rec, std::vector<std::string> dead,
                     std::vector<std::string> ghosts, std::vector<std::string> lanes) {
    auto list = [](const std::vector<std::string>& ids) {
      Reply r = Reply::array();
      for (const auto& id : ids) r.items().push_back(Reply::bulk(id));
      return r;
    };
    return A({B("recovered"), list(rec), B("dead"), list(dead), B("ghosts"), list(ghosts), B("lanes"), list(lanes)});
  }
  void add_and_claim(std::string_view id, std::string_view lease = "1000") {
    ASSERT_EQ(reply({"EMQ.ADD", "q", id, "p"}), I(1));
    ASSERT_EQ(reply({"EMQ.CLAIM", "q", lease}).items().size(), 1u);
  }

  Model m;
  Context ctx{1000, true, NOW, true, false, {}};
};

// ---- §1 keys and rows

TEST_F(EmqModel, keys_are_spelt_as_section_1_says) {
  EXPECT_EQ(pending_key("q"), "emq:{q}:pending");
  EXPECT_EQ(active_key("q"), "emq:{q}:active");
  EXPECT_EQ(done_key("q"), "emq:{q}:done");
  EXPECT_EQ(dead_key("q"), "emq:{q}:dead");
  EXPECT_EQ(seq_key("q"), "emq:{q}:seq");
  EXPECT_EQ(row_key("q", "j1"), "emq:{q}:job:j1");
  EXPECT_EQ(RowName(QueueNames("q"), "j1").view(), "emq:{q}:job:j1");
  const std::string long_id(100, 'x');
  EXPECT_EQ(RowName(QueueNames("q"), long_id).view(), "emq:{q}:job:" + long_id);
}

// The harness reads the server's keys by these names, not by core/keys.cpp: a row key's
// queue runs to the first '}', its id is every byte after ":job:".
TEST_F(EmqModel, keys_are_read_back_as_section_1_spells_them) {
  const auto row = parse_row_key("emq:{q}:job:{j} x");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->queue, "q");
  EXPECT_EQ(row->id, "{j} x");
  EXPECT_EQ(parse_row_key("emq:{q}:job:")->id, "");
  EXPECT_FALSE(parse_row_key("emq:{q}:pending"));
  EXPECT_FALSE(parse_row_key("emq:{q:job:j1"));
  EXPECT_FALSE(parse_row_key("emq:{a}b}:job:x"));  // no queue name holds a brace
  EXPECT_FALSE(parse_row_key("xmq:{q}:job:j1"));
  for (const char* set : {":pending", ":active", ":done", ":dead"}) {
    EXPECT_EQ(set_key_queue("emq:{q1}" + std::string(set)), "q1") << set;
  }
  EXPECT_FALSE(set_key_queue("emq:{q}:seq"));
  EXPECT_FALSE(set_key_queue("emq:{q}:pendingx"));
  EXPECT_FALSE(set_key_queue("emq:{}:pending"));  // an empty name is no queue's
  EXPECT_EQ(pending_key_queue("emq:{q}:pending"), "q");
  EXPECT_EQ(pending_key_queue("emq:{q}:active"), "");
  EXPECT_TRUE(queue_name_ok(std::string(200, 'q')));
  EXPECT_FALSE(queue_name_ok(std::string(201, 'q')));
  EXPECT_FALSE(queue_name_ok(std::string("a\0b", 3)));
  EXPECT_FALSE(queue_name_ok("a{b"));
  EXPECT_FALSE(queue_name_ok(""));
}

TEST_F(EmqModel, states_are_spelt_as_section_1_says) {
  EXPECT_EQ(state_name(JobState::pending), "pending");
  EXPECT_EQ(state_name(JobState::active), "active");
  EXPECT_EQ(state_name(JobState::done), "done");
  EXPECT_EQ(state_name(JobState::dead), "dead");
  for (const JobState s : all_job_states) EXPECT_EQ(parse_state(state_name(s)), s);
  EXPECT_FALSE(parse_state("Active"));
  EXPECT_FALSE(parse_state(""));
  EXPECT_EQ(model::transition_name(JobState::active, JobState::dead), "active->dead");
}

// ---- §4, one test per row of the verb table

TEST_F(EmqModel, add_writes_the_row_incr_seq_and_zadd_pending_then_answers_0_for_an_existing_row) {
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "hello"}), I(1));
  EXPECT_EQ(row("j1"), "attempts=0 failures=0 max_failures=3 payload=hello state=pending");
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j2", "x", "MAXFAILURES", "5"}), I(1));
  EXPECT_EQ(row("j2"), "attempts=0 failures=0 max_failures=5 payload=x state=pending");
  EXPECT_EQ(zset(pending_key("q")), "j1@1 j2@2");
  const std::string before = m.data().dump();
  const Expectation again = call({"EMQ.ADD", "q", "j1", "other"});
  EXPECT_TRUE(again.accepts(I(0)));
  EXPECT_FALSE(again.writes);
  EXPECT_EQ(m.data().dump(), before);
}

TEST_F(EmqModel, claim_hands_out_up_to_count_lowest_first_and_skips_ghosts_uncounted) {
  for (auto id : {"a", "b", "c", "d"}) reply({"EMQ.ADD", "q", id, std::string("p") + id});
  m.call(std::vector<std::string_view>{"DEL", row_key("q", "b")}, ctx);  // b becomes a ghost
  const Expectation e = call({"EMQ.CLAIM", "q", "500", "COUNT", "2"});
  ASSERT_EQ(e.replies.size(), 1u);
  EXPECT_EQ(e.replies[0], A({Claimed("a", 1, "pa"), Claimed("c", 1, "pc")}));
  EXPECT_NE(e.note.find("b was a ghost"), std::string::npos);
  EXPECT_EQ(zset(pending_key("q")), "d@4");  // b removed, not counted toward COUNT
  EXPECT_EQ(zset(active_key("q")), "a@1500 c@1500");
  EXPECT_EQ(row("a"), "attempts=1 failures=0 lease=" + std::string(NOW) + "-1 lease_epoch=" + std::string(NOW) +
                          " max_failures=3 payload=pa state=active");
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "500"}), A({Claimed("d", 1, "pd")}));  // COUNT default 1
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "500"}), A());                          // none: empty array
}

TEST_F(EmqModel, extend_rescores_to_now_plus_lease_and_stamps_or_answers_0) {
  add_and_claim("j1");
  ctx.now_ms = 1200;
  ctx.run_id = OLD;  // any stamp: the extension's process stamps it
  EXPECT_EQ(reply({"EMQ.EXTEND", "q", "j1", "1", "3000"}), I(1));
  EXPECT_EQ(zset(active_key("q")), "j1@4200");
  EXPECT_NE(row("j1").find("lease_epoch=" + std::string(OLD)), std::string::npos);
  const std::string before = m.data().dump();
  EXPECT_TRUE(call({"EMQ.EXTEND", "q", "j1", "2", "3000"}).accepts(I(0)));  // wrong token
  EXPECT_EQ(m.data().dump(), before);
}

TEST_F(EmqModel, extends_answers_per_pair_with_one_deadline_for_every_live_pair) {
  add_and_claim("a");
  add_and_claim("b");
  ctx.now_ms = 1300;
  EXPECT_EQ(reply({"EMQ.EXTENDS", "q", "900", "a", "1", "b", "9", "zz", "1"}), A({I(1), I(0), I(0)}));
  EXPECT_EQ(zset(active_key("q")), "b@2000 a@2200");  // b (token 9 is stale) untouched
}

TEST_F(EmqModel, complete_moves_to_done_at_now_with_the_optional_result) {
  add_and_claim("j1");
  ctx.now_ms = 1400;
  EXPECT_EQ(reply({"EMQ.COMPLETE", "q", "j1", "1", "ok"}), I(1));
  EXPECT_EQ(zset(done_key("q")), "j1@1400");
  EXPECT_EQ(zset(active_key("q")), "(none)");
  EXPECT_NE(row("j1").find("result=ok state=done"), std::string::npos);
  EXPECT_TRUE(call({"EMQ.COMPLETE", "q", "j1", "1"}).accepts(I(0)));  // not live any more
}

TEST_F(EmqModel, fail_requeues_below_the_budget_and_dead_letters_at_it) {
  ASSERT_EQ(reply({"EMQ.ADD", "q", "j1", "p", "MAXFAILURES", "2"}), I(1));
  ASSERT_EQ(reply({"EMQ.CLAIM", "q", "1000"}).items().size(), 1u);
  EXPECT_EQ(reply({"EMQ.FAIL", "q", "j1", "1", "boom"}), I(1));
  EXPECT_EQ(zset(pending_key("q")), "j1@2");  // ZADD pending <INCR seq>
  EXPECT_NE(row("j1").find("error=boom failures=1"), std::string::npos);
  ASSERT_EQ(reply({"EMQ.CLAIM", "q", "1000"}), A({Claimed("j1", 2, "p")}));
  ctx.now_ms = 1500;
  EXPECT_EQ(reply({"EMQ.FAIL", "q", "j1", "2", "again"}), I(2));
  EXPECT_EQ(zset(dead_key("q")), "j1@1500");
  // (the test's context says no grant was taken before each call: both grants are n = 1)
  EXPECT_EQ(row("j1"), "attempts=2 dead_reason=failed error=again failures=2 lease=" + std::string(NOW) +
                           "-1 lease_epoch=" + std::string(NOW) +
                           " max_failures=2 payload=p state=dead");
  EXPECT_TRUE(call({"EMQ.FAIL", "q", "j1", "2", "late"}).accepts(I(0)));
}

TEST_F(EmqModel, stats_counts_the_four_sets) {
  add_and_claim("a");
  reply({"EMQ.ADD", "q", "b", "p"});
  EXPECT_EQ(reply({"EMQ.STATS", "q"}), A({B("pending"), I(1), B("active"), I(1), B("done"), I(0), B("dead"), I(0)}));
}

TEST_F(EmqModel, job_answers_the_row_sorted_by_field_or_nil) {
  reply({"EMQ.ADD", "q", "j1", "p"});
  EXPECT_EQ(reply({"EMQ.JOB", "q", "j1"}), A({B("attempts"), B("0"), B("failures"), B("0"), B("max_failures"),
                                               B("3"), B("payload"), B("p"), B("state"), B("pending")}));
  EXPECT_EQ(reply({"EMQ.JOB", "q", "nope"}), Reply::nil());
}

TEST_F(EmqModel, epoch_answers_the_run_id) { EXPECT_EQ(reply({"EMQ.EPOCH"}), B(NOW)); }

// ---- §3 time and leases

TEST_F(EmqModel, a_lease_is_live_through_its_deadline_and_expired_after) {
  add_and_claim("j1");  // deadline 2000
  ctx.now_ms = 2000;    // deadline >= now: live
  EXPECT_EQ(reply({"EMQ.EXTEND", "q", "j1", "1", "10"}), I(1));
  ctx.now_ms = 2011;    // deadline 2010 < now: expired
  EXPECT_TRUE(call({"EMQ.COMPLETE", "q", "j1", "1"}).accepts(I(0)));
}

TEST_F(EmqModel, a_deadline_past_2_pow_53_minus_1_is_refused) {
  reply({"EMQ.ADD", "q", "j1", "p"});
  const std::string before = m.data().dump();
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "9007199254740991"}), E("ERR EMQ lease out of range"));
  EXPECT_EQ(m.data().dump(), before);
}

// ---- §5 the sweep: one test per step of the verdict

TEST_F(EmqModel, sweep_1_a_member_whose_row_is_not_a_hash_is_a_ghost_removed_from_active) {
  add_and_claim("j1");
  m.call(std::vector<std::string_view>{"DEL", row_key("q", "j1")}, ctx);
  ctx.now_ms = 2001;
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "2"}), Sweep({}, {}, {"j1"}, {}));
  EXPECT_EQ(zset(active_key("q")), "(none)");
}

TEST_F(EmqModel, sweep_2_a_row_with_group_is_a_lane_left_untouched) {
  add_and_claim("j1");
  m.call(std::vector<std::string_view>{"HSET", row_key("q", "j1"), "group", "g"}, ctx);
  ctx.now_ms = 2001;
  const std::string before = m.data().dump();
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "2"}), Sweep({}, {}, {}, {"j1"}));
  EXPECT_EQ(m.data().dump(), before);
}

TEST_F(EmqModel, sweep_3_an_exempt_lease_goes_back_to_pending_at_0_uncounted) {
  add_and_claim("j1");
  ctx.now_ms = 2001;
  ctx.run_id = OLD;  // another process sweeps
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "1"}), Sweep({"j1"}, {}, {}, {}));
  EXPECT_EQ(zset(pending_key("q")), "j1@0");
  EXPECT_EQ(row("j1").find("stalled"), std::string::npos);
  EXPECT_NE(row("j1").find("state=pending"), std::string::npos);
}

TEST_F(EmqModel, sweep_4_a_counted_stall_recovers_below_max_stalled_and_dead_letters_at_it) {
  add_and_claim("j1");
  ctx.now_ms = 2001;
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "2"}), Sweep({"j1"}, {}, {}, {}));
  EXPECT_NE(row("j1").find("stalled=1 state=pending"), std::string::npos);
  EXPECT_EQ(zset(pending_key("q")), "j1@0");
  ASSERT_EQ(reply({"EMQ.CLAIM", "q", "1000"}).items().size(), 1u);  // deadline 3001
  ctx.now_ms = 3002;
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "2"}), Sweep({}, {"j1"}, {}, {}));
  EXPECT_EQ(zset(dead_key("q")), "j1@3002");
  EXPECT_NE(row("j1").find("dead_reason=stalled"), std::string::npos);
  EXPECT_NE(row("j1").find("stalled=2 state=dead"), std::string::npos);
}

TEST_F(EmqModel, sweep_judges_only_expired_members_lowest_deadline_first_up_to_limit) {
  add_and_claim("a", "300");  // deadline 1300
  add_and_claim("b", "100");  // 1100
  add_and_claim("c", "900");  // 1900: not expired at 1500
  ctx.now_ms = 1500;
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "5", "LIMIT", "1"}), Sweep({"b"}, {}, {}, {}));
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "5"}), Sweep({"a"}, {}, {}, {}));
  ctx.now_ms = 1900;  // deadline == now is not expired
  EXPECT_EQ(reply({"EMQ.STALLED.CHECK", "q", "5"}), Sweep({}, {}, {}, {}));
}

// ---- §2 and §6 refusals: each writes nothing

TEST_F(EmqModel, without_a_loaded_module_emq_verbs_are_unknown_commands) {
  ctx.module_loaded = false;
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "p"}),
            E("ERR unknown command 'EMQ.ADD', with args beginning with: 'q' 'j1' 'p' "));
  EXPECT_EQ(m.data().size(), 0u);
  // processCommand cuts each argument to 128 minus what it has printed so far ("'q' " is
  // 4 bytes: the next one keeps 124), found by the odd client's 200-byte names
  EXPECT_EQ(reply({"EMQ.JOB", "q", std::string(200, 'n')}),
            E("ERR unknown command 'EMQ.JOB', with args beginning with: 'q' '" + std::string(124, 'n') + "' "));
}

TEST_F(EmqModel, refusals_are_the_texts_of_section_6) {
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1"}), E("ERR EMQ wrong number of arguments"));
  EXPECT_EQ(reply({"EMQ.ADD", "a{b", "j1", "p"}), E("ERR EMQ bad queue name"));
  EXPECT_EQ(reply({"EMQ.ADD", "q", "", "p"}), E("ERR EMQ bad job id"));
  const Expectation e = call({"EMQ.CLAIM", "q", "0"});
  EXPECT_TRUE(e.accepts(E("ERR EMQ lease_ms must be an integer in 1..9007199254740991")));
  EXPECT_FALSE(e.accepts(E("ERR EMQ lease_ms must be an integer in 1..1000")));
  EXPECT_TRUE(call({"EMQ.CLAIM", "q", "10", "COUNT"}).accepts(E("ERR EMQ syntax error")));
  ctx.writable = false;
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "p"}), E("READONLY EMQ not a writable primary"));
  ctx.writable = true;
  m.call(std::vector<std::string_view>{"HSET", pending_key("q"), "f", "v"}, ctx);
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "10"}),
            E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(m.data().size(), 1u);
}

// §6: a key the caller may not write refuses a verb that would write it, naming it, and
// nothing is written; a call that would not write it (or nothing) goes on.
TEST_F(EmqModel, a_key_the_caller_may_not_write_refuses_the_verb_that_would_write_it) {
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "p"}), I(1));
  const std::string active = "emq:{q}:active";
  ctx.write_denied = active;
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "1000", "COUNT", "2"}), E("NOPERM EMQ no write access to " + active));
  EXPECT_NE(row("j1").find("state=pending"), std::string::npos) << "nothing written";
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j2", "p"}), I(1)) << "ADD writes no active";
  EXPECT_EQ(reply({"EMQ.EXTEND", "q", "j1", "1", "1000"}), I(0)) << "not live: writes nothing";
  ctx.write_denied = {};
  EXPECT_TRUE(call({"EMQ.CLAIM", "q", "1000"}).writes);
}

TEST_F(EmqModel, a_corrupt_integer_field_refuses) {
  reply({"EMQ.ADD", "q", "j1", "p"});
  m.call(std::vector<std::string_view>{"HSET", row_key("q", "j1"), "attempts", "x"}, ctx);
  EXPECT_EQ(reply({"EMQ.CLAIM", "q", "10"}), E("ERR EMQ corrupt job row"));
}

// ---- persistence: the model keeps a prefix of its own write stream

TEST_F(EmqModel, keep_calls_takes_the_dataset_back_to_the_end_of_a_call) {
  reply({"EMQ.ADD", "q", "a", "p"});  // call 1
  const std::string after_one = m.data().dump();
  reply({"EMQ.ADD", "q", "b", "p"});  // call 2
  reply({"EMQ.CLAIM", "q", "100"});   // call 3
  m.keep_calls(1);                    // calls 2 and 3 lost
  EXPECT_EQ(m.data().dump(), after_one);
  reply({"EMQ.ADD", "q", "c", "p"});  // call 4: numbers run on
  EXPECT_EQ(zset(pending_key("q")), "a@1 c@2");
  m.keep_calls(3);                    // kept through call 3: only a and nothing of 2, 3
  EXPECT_EQ(m.data().dump(), after_one);
  m.keep_calls(0);
  EXPECT_EQ(m.data().size(), 0u);
}

TEST_F(EmqModel, plain_commands_act_as_the_server_does) {
  EXPECT_EQ(reply({"HSET", "k", "f", "v", "g", "w"}), I(2));
  EXPECT_EQ(reply({"HGET", "k", "f"}), B("v"));
  EXPECT_EQ(reply({"TYPE", "k"}), Reply::simple("hash"));
  EXPECT_EQ(reply({"ZADD", "z", "1", "m"}), I(1));
  EXPECT_EQ(reply({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), A({B("m"), B("1")}));
  EXPECT_EQ(reply({"DEL", "k", "nope"}), I(1));
  EXPECT_EQ(reply({"INCR", "z"}), E("WRONGTYPE Operation against a key holding the wrong kind of value"));
  EXPECT_EQ(reply({"SET", "z", "7"}), Reply::simple("OK"));  // over a zset: any type goes
  EXPECT_EQ(reply({"TYPE", "z"}), Reply::simple("string"));
  EXPECT_EQ(reply({"SET", "z", "8", "NX"}), E("ERR syntax error"));
  EXPECT_EQ(reply({"NOPE"}), E("ERR unknown command 'NOPE', with args beginning with: "));
}

// §6: a seq that INCR refuses refuses ADD and FAIL's requeue, before any write; one below
// int64's top still adds, at that score.
TEST_F(EmqModel, a_seq_incr_refuses_refuses_add_and_the_requeue) {
  const std::string seq = seq_key("q");
  const Reply not_integer = E("ERR value is not an integer or out of range");
  for (std::string_view value : {"9223372036854775807", "x", ""}) {
    ASSERT_EQ(reply({"SET", seq, value}), Reply::simple("OK"));
    const std::string before = m.data().dump();
    EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "p"}), not_integer) << value;
    EXPECT_EQ(m.data().dump(), before);
  }
  ASSERT_EQ(reply({"SET", seq, "9223372036854775806"}), Reply::simple("OK"));
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "p"}), I(1));
  EXPECT_EQ(zset(pending_key("q")), "j1@9.2233720368547758e+18");
  ASSERT_EQ(reply({"EMQ.CLAIM", "q", "1000"}).items().size(), 1u);
  const std::string before = m.data().dump();
  EXPECT_EQ(reply({"EMQ.FAIL", "q", "j1", "1", "r"}), not_integer);
  EXPECT_EQ(m.data().dump(), before);
}

// Scripts (the scripted executor's path): EVAL runs on the model's own dataset through its
// plain commands; a script's writes carry no stamp; the cache belongs to the process.
TEST_F(EmqModel, a_script_runs_on_the_models_own_dataset_and_its_cache_is_the_processes) {
  ctx.now_ms = 1000;
  EXPECT_EQ(reply({"EMQ.ADD", "q", "j1", "hello"}), I(1));
  const std::string body =
      "redis.call('ZREM', KEYS[1], ARGV[1]) "
      "redis.call('HSET', KEYS[2], 'state', 'active', 'attempts', '1') "
      "local t = redis.call('TIME') "
      "return redis.call('ZADD', KEYS[3], tonumber(t[1]) * 1000 + 500, ARGV[1])";
  const std::string pending = pending_key("q"), row_j1 = row_key("q", "j1"), active = active_key("q");
  const std::int64_t from = m.data().journal()->position();
  const Expectation e = call({"EVAL", body, "3", pending, row_j1, active, "j1"});
  ASSERT_EQ(e.replies.size(), 1u);
  EXPECT_EQ(e.replies[0], I(1));
  EXPECT_TRUE(e.writes);
  // the keys the checker compares after the call: those the model's journal wrote
  std::vector<std::string> written;
  m.data().journal()->each_since(from, [&](sim::UndoLog::Wrote, std::string_view key, std::string_view) {
    if (written.empty() || written.back() != key) written.emplace_back(key);
  });
  EXPECT_EQ(written, (std::vector<std::string>{pending, row_j1, active}));
  EXPECT_EQ(row("j1"), "attempts=1 failures=0 max_failures=3 payload=hello state=active")
      << "no lease_epoch: the scripted executor writes no stamp";
  EXPECT_EQ(zset(active), "j1@1500");
  const std::string sha = sim::Scripting::sha1_hex(body);
  EXPECT_EQ(reply({"SCRIPT", "EXISTS", sha}), A({I(1)})) << "EVAL cached it";
  EXPECT_EQ(reply({"EVAL", "return redis.call('FLUSHALL')", "0"}),
            E("ERR Unknown Redis command called from script"));
  m.serve_process(2);
  EXPECT_EQ(reply({"EVALSHA", sha, "3", pending, row_j1, active, "j1"}),
            E("NOSCRIPT No matching script. Please use EVAL."));
  EXPECT_EQ(reply({"SCRIPT", "EXISTS", sha}), A({I(0)})) << "a new process's cache is empty";
  m.serve_process(0);  // a failback to the process that cached it
  EXPECT_EQ(reply({"SCRIPT", "EXISTS", sha}), A({I(1)})) << "the process that served before has its cache back";
}

// ---- the ledger: the model's record of each job, one ground truth

// settle() feeds the ledger the call as the model answered it: a server that answers
// otherwise (here a CLAIM that hands out j2 for j1, then a FAIL it should refuse) does
// not make its answer the truth; a server the model agrees with is followed, with the
// call's actor, incarnation and true time.
TEST_F(EmqModel, its_ledger_takes_each_call_in_as_the_model_answered_it) {
  auto settle = [&](std::int64_t index, std::initializer_list<std::string_view> argv, Reply server) {
    const std::vector<std::string_view> v(argv);
    const Expectation e = m.call(Args(v.data(), v.size()), ctx);
    sim::CallRecord rec;
    rec.index = index;
    rec.at = sim::Instant{index * 100, ctx.now_ms, 2};
    rec.actor = "w1";
    rec.argv = Args(v.data(), v.size());
    rec.reply = std::move(server);
    m.settle(rec, e);
  };
  settle(1, {"EMQ.ADD", "q", "j1", "p1"}, I(1));
  settle(2, {"EMQ.ADD", "q", "j2", "p2"}, I(1));
  settle(3, {"EMQ.CLAIM", "q", "1000"}, A({Claimed("j2", 1, "p2")}));  // the model gives j1
  const JobTruth* j1 = m.ledger().job("q", "j1");
  const JobTruth* j2 = m.ledger().job("q", "j2");
  ASSERT_TRUE(j1 && j2);
  EXPECT_EQ(j1->state, JobState::active);
  EXPECT_EQ(j1->token, 1);
  EXPECT_EQ(j1->holder, "w1");
  ASSERT_TRUE(j1->stamp);
  EXPECT_EQ(j1->stamp->incarnation, 2);
  EXPECT_EQ(j1->stamp->true_ms, 300);
  EXPECT_EQ(j1->deadline_server_ms, ctx.now_ms + 1000);
  EXPECT_EQ(j2->state, JobState::pending) << "the server's answer is not the truth";
  settle(4, {"EMQ.FAIL", "q", "j2", "1", "boom"}, I(1));  // the model refuses: j2 not active
  EXPECT_EQ(m.ledger().job("q", "j2")->failures, 0);
  EXPECT_EQ(m.ledger().job("q", "j2")->state, JobState::pending);
  settle(5, {"EMQ.COMPLETE", "q", "j1", "1", "ok"}, I(1));  // agreed: followed
  EXPECT_EQ(m.ledger().job("q", "j1")->state, JobState::done);
  ASSERT_EQ(m.ledger().job("q", "j1")->transitions.size(), 2u);
  EXPECT_EQ(m.ledger().job("q", "j1")->transitions[1].call, 5);
  // a restart that kept 3 calls takes the ledger back with the dataset
  m.keep_calls(3);
  EXPECT_EQ(m.ledger().job("q", "j1")->state, JobState::active);
  EXPECT_EQ(m.ledger().job("q", "j1")->transitions.size(), 1u);
}

}  // namespace
}  // namespace trafikey::properties::model
