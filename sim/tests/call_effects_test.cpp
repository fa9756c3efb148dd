// The one decoder of call effects: for an argv and its reply, the moves of each job.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/call_effects.h"
#include "sim/executor_scripts.h"

namespace trafikey::sim {
namespace {

// "kind queue/id token amount carried state" for each move, to compare in one line.
std::vector<std::string> moves_of(std::vector<std::string_view> argv, const Reply& reply) {
  CallEffects effects;
  decode_call(argv, reply, effects);
  std::vector<std::string> out;
  constexpr const char* names[] = {"add", "grant", "extend", "complete", "requeue", "dead", "refused",
                                   "sweep_recovered", "sweep_dead", "sweep_ghost", "sweep_lane",
                                   "ghost", "lane", "row_written", "deadline"};
  for (const Move& m : effects.moves) {
    out.push_back(std::string(names[static_cast<int>(m.kind)]) + " " + std::string(m.queue) + "/" +
                  std::string(m.id) + " " + std::to_string(m.token) + " " + std::to_string(m.amount) + " " +
                  std::string(m.carried) + " " + std::string(m.state));
  }
  return out;
}

using Moves = std::vector<std::string>;

Reply claimed(std::string id, std::int64_t token) {
  return Reply::array({Reply::bulk(id), Reply::integer(token), Reply::bulk("p")});
}

TEST(CallEffects, each_verb_moves_the_jobs_its_reply_names) {
  EXPECT_EQ(moves_of({"EMQ.ADD", "q", "j1", "x"}, Reply::integer(1)), (Moves{"add q/j1 0 3  "}));
  EXPECT_EQ(moves_of({"EMQ.ADD", "q", "j1", "x", "MAX_FAILURES", "5"}, Reply::integer(1)), (Moves{"add q/j1 0 5  "}));
  EXPECT_EQ(moves_of({"EMQ.ADD", "q", "j1", "x"}, Reply::integer(0)), Moves{}) << "a duplicate adds nothing";
  EXPECT_EQ(moves_of({"emq.claim", "q", "1000", "COUNT", "2"}, Reply::array({claimed("j1", 1), claimed("j2", 3)})),
            (Moves{"grant q/j1 1 1000  ", "grant q/j2 3 1000  "}))
      << "whatever the case of the verb's name";
  EXPECT_EQ(moves_of({"EMQ.CLAIM", "q", "1000"}, Reply::array()), Moves{}) << "an idle claim";
  EXPECT_EQ(moves_of({"EMQ.EXTEND", "q", "j1", "4", "500"}, Reply::integer(1)), (Moves{"extend q/j1 0 500 4 "}));
  EXPECT_EQ(moves_of({"EMQ.EXTEND", "q", "j1", "4", "500"}, Reply::integer(0)), (Moves{"refused q/j1 0 0 4 "}));
  EXPECT_EQ(moves_of({"EMQ.EXTENDS", "q", "700", "j1", "1", "j2", "2", "j3", "3"},
                     Reply::array({Reply::integer(1), Reply::integer(0), Reply::integer(1)})),
            (Moves{"extend q/j1 0 700 1 ", "refused q/j2 0 0 2 ", "extend q/j3 0 700 3 "}));
  EXPECT_EQ(moves_of({"EMQ.COMPLETE", "q", "j1", "2"}, Reply::integer(1)), (Moves{"complete q/j1 0 0 2 "}));
  EXPECT_EQ(moves_of({"EMQ.COMPLETE", "q", "j1", "2"}, Reply::integer(0)), (Moves{"refused q/j1 0 0 2 "}));
  EXPECT_EQ(moves_of({"EMQ.FAIL", "q", "j1", "2"}, Reply::integer(1)), (Moves{"requeue q/j1 0 0 2 "}));
  EXPECT_EQ(moves_of({"EMQ.FAIL", "q", "j1", "2"}, Reply::integer(2)), (Moves{"dead q/j1 0 0 2 "}));
  const auto ids = [](std::vector<std::string> v) {
    Reply out = Reply::array();
    for (auto& id : v) out.items().push_back(Reply::bulk(id));
    return out;
  };
  EXPECT_EQ(moves_of({"EMQ.STALLED.CHECK", "q", "10"},
                     Reply::array({Reply::bulk("recovered"), ids({"a", "b"}), Reply::bulk("dead"), ids({"c"}),
                                   Reply::bulk("ghosts"), ids({"d"}), Reply::bulk("lanes"), ids({"e"})})),
            (Moves{"sweep_recovered q/a 0 0  ", "sweep_recovered q/b 0 0  ", "sweep_dead q/c 0 0  ",
                   "sweep_ghost q/d 0 0  ", "sweep_lane q/e 0 0  "}));
}

TEST(CallEffects, errors_readers_and_other_commands_move_nothing) {
  EXPECT_EQ(moves_of({"EMQ.COMPLETE", "q", "j1", "2"}, Reply::error("ERR no")), Moves{});
  EXPECT_EQ(moves_of({"EMQ.STATS", "q"}, Reply::array({Reply::integer(1)})), Moves{});
  EXPECT_EQ(moves_of({"EMQ.JOB", "q", "j1"}, Reply::array()), Moves{});
  EXPECT_EQ(moves_of({"GET", "emq:{q}:job:j1"}, Reply::nil()), Moves{});
  EXPECT_EQ(moves_of({"EMQ.CLAIM"}, Reply::array({claimed("j1", 1)})), Moves{}) << "no queue named";
  EXPECT_EQ(moves_of({"EMQ.CLAIM", "q", "100"}, Reply::array({Reply::array({Reply::bulk("j1"), Reply::integer(1)})})),
            Moves{})
      << "a claimed item that is not [id, token, payload]";
}

TEST(CallEffects, plain_writes_to_rows_are_ghosts_lanes_and_rows_set_up_by_hand) {
  EXPECT_EQ(moves_of({"DEL", "emq:{q}:job:j1", "other", "emq:{q}:job:j2"}, Reply::integer(2)),
            (Moves{"ghost q/j1 0 0  ", "ghost q/j2 0 0  "}));
  EXPECT_EQ(moves_of({"SET", "emq:{q}:job:j1", "x"}, Reply::simple("OK")), (Moves{"ghost q/j1 0 0  "}));
  EXPECT_EQ(moves_of({"HSET", "emq:{q}:job:j1", "state", "active", "attempts", "4"}, Reply::integer(2)),
            (Moves{"row_written q/j1 4 0  active"}));
  EXPECT_EQ(moves_of({"HSET", "emq:{q}:job:j1", "group", "g"}, Reply::integer(1)),
            (Moves{"row_written q/j1 0 0  ", "lane q/j1 0 0  "}));
  EXPECT_EQ(moves_of({"HSET", "emq:{q}:job:j1", "group", "g"}, Reply::integer(0)), (Moves{"row_written q/j1 0 0  "}))
      << "an HSET that wrote no new field marks no lane";
  EXPECT_EQ(moves_of({"ZADD", "emq:{q}:active", "1500", "j1", "x", "j2"}, Reply::integer(1)),
            (Moves{"deadline q/j1 0 1500  "}))
      << "a score that is not an integer sets no deadline";
  EXPECT_EQ(moves_of({"ZADD", "emq:{q}:pending", "1", "j1"}, Reply::integer(1)), Moves{});
  EXPECT_EQ(moves_of({"HSET", "emq:q:job:j1", "state", "active"}, Reply::integer(1)), Moves{})
      << "not a row key as EMQ §1 spells it";
}

TEST(CallEffects, the_scripted_executors_calls_move_jobs_as_the_verbs_they_stand_for) {
  const std::string claim_sha(executor_script_sha(ExecutorScript::claim));
  const std::string extend_body(executor_script_body(ExecutorScript::extend));
  const std::string complete_sha(executor_script_sha(ExecutorScript::complete));
  CallEffects effects;
  const std::vector<std::string_view> claim{"EVALSHA", claim_sha, "2", "emq:{q}:pending", "emq:{q}:active", "800", "1"};
  decode_call(claim, Reply::array({claimed("j1", 2)}), effects);
  ASSERT_EQ(effects.moves.size(), 1u);
  EXPECT_EQ(effects.mover, "claim.lua");
  EXPECT_EQ(effects.script, ExecutorScript::claim);
  EXPECT_EQ(effects.moves[0].kind, JobMove::grant);
  EXPECT_EQ(effects.moves[0].token, 2);
  EXPECT_EQ(effects.moves[0].amount, 800);
  EXPECT_EQ(moves_of({"EVAL", extend_body, "2", "emq:{q}:active", "emq:{q}:job:j1", "j1", "2", "900"},
                     Reply::integer(1)),
            (Moves{"extend q/j1 0 900 2 "}));
  EXPECT_EQ(moves_of({"EVALSHA", complete_sha, "3", "emq:{q}:active", "emq:{q}:done", "emq:{q}:job:j1", "j1", "2",
                      "1000"},
                     Reply::integer(0)),
            (Moves{"refused q/j1 0 0 2 "}));
  EXPECT_EQ(moves_of({"EVAL", "return 1", "0"}, Reply::integer(1)), Moves{}) << "any other script";
}

}  // namespace
}  // namespace trafikey::sim
