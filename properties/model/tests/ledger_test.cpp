// The ledger on its own: fed hand-made calls (it trusts replies and never reads a
// server), truncate(n) must leave exactly the model of the calls up to n.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/executor_scripts.h"
#include "properties/model/ledger.h"

namespace trafikey::properties::model {
namespace {

using sim::executor_script_body;
using sim::executor_script_sha;
using sim::ExecutorScript;

Reply ids(const std::vector<std::string>& names) {
  std::vector<Reply> items;
  for (const auto& n : names) items.push_back(Reply::bulk(n));
  return Reply::array(std::move(items));
}

// A record views its actor and arguments: this keeps their bytes alive with it.
struct Owned {
  std::string actor;
  std::vector<std::string> args;
  std::vector<std::string_view> views;
  CallRecord rec;
};
using Call = std::unique_ptr<const Owned>;

Call record(std::int64_t index, int incarnation, std::string actor, std::vector<std::string> argv,
            Reply reply) {
  auto c = std::make_unique<Owned>();
  c->actor = std::move(actor);
  c->args = std::move(argv);
  c->views.assign(c->args.begin(), c->args.end());
  c->rec.index = index;
  c->rec.at = Instant{index * 10, index * 10 + 3, incarnation};
  c->rec.actor = c->actor;
  c->rec.argv = c->views;
  c->rec.reply = std::move(reply);
  return c;
}

// A deterministic mix of every verb the ledger models, with answers that move jobs,
// answers that do not, refusals, lower-case names and the plain DEL, SET and HSET.
std::vector<Call> calls(std::uint64_t seed, int count) {
  std::uint64_t state = seed;
  auto next = [&](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  auto id = [&] { return "j" + std::to_string(next(8)); };
  std::vector<Call> out;
  int incarnation = 1;
  for (int i = 1; i <= count; ++i) {
    if (next(20) == 0) ++incarnation;
    const std::string actor = "w" + std::to_string(next(3));
    const std::string queue = next(4) == 0 ? "r" : "q";
    const std::string row = "emq:{" + queue + "}:job:" + id();
    std::vector<std::string> argv;
    Reply reply = Reply::integer(1);
    switch (next(10)) {
      case 0:
        argv = {next(2) ? "EMQ.ADD" : "emq.add", queue, id(), "x", "MAXFAILURES", std::to_string(next(4))};
        reply = Reply::integer(static_cast<std::int64_t>(next(2)));
        break;
      case 1: {
        argv = {"EMQ.CLAIM", queue, std::to_string(100 + next(900))};
        std::vector<Reply> claimed;
        for (std::uint64_t n = next(3); n > 0; --n) {
          claimed.push_back(Reply::array({Reply::bulk(id()), Reply::integer(static_cast<std::int64_t>(next(9))),
                                          Reply::bulk("x")}));
        }
        reply = Reply::array(std::move(claimed));
        break;
      }
      case 2:
        argv = {"EMQ.EXTEND", queue, id(), "1", std::to_string(next(500))};
        reply = Reply::integer(static_cast<std::int64_t>(next(2)));
        break;
      case 3:
        argv = {"EMQ.EXTENDS", queue, "300", id(), "1", id(), "2"};
        reply = Reply::array({Reply::integer(static_cast<std::int64_t>(next(2))),
                              Reply::integer(static_cast<std::int64_t>(next(2)))});
        break;
      case 4:
        argv = {"EMQ.COMPLETE", queue, id(), "1"};
        reply = next(5) == 0 ? Reply::error("ERR EMQ no") : Reply::integer(1);
        break;
      case 5:
        argv = {"EMQ.FAIL", queue, id(), "1"};
        reply = Reply::integer(static_cast<std::int64_t>(next(3)));
        break;
      case 6:
        argv = {"EMQ.STALLED.CHECK", queue, "1"};
        reply = Reply::array({Reply::integer(0), ids({id()}), Reply::integer(0), ids({id(), id()}),
                              Reply::integer(0), ids({}), Reply::integer(0), ids({})});
        break;
      case 7:
        argv = next(3) == 0 ? std::vector<std::string>{"SET", row, "x"} : std::vector<std::string>{"DEL", row};
        break;
      case 8:
        argv = {"HSET", row, next(2) ? "group" : "note", "g"};
        reply = Reply::integer(static_cast<std::int64_t>(next(2)));
        break;
      default:
        argv = {"EMQ.LEN", queue};
        break;
    }
    out.push_back(record(i, incarnation, actor, std::move(argv), std::move(reply)));
  }
  return out;
}

TEST(Ledger, truncate_leaves_the_model_of_the_kept_calls) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto all = calls(seed, 120);
    for (std::int64_t cut : {0, 1, 17, 40, 77, 119, 120}) {
      Ledger truncated;
      Ledger prefix;
      for (const auto& c : all) {
        truncated.apply(c->rec);
        if (c->rec.index <= cut) prefix.apply(c->rec);
      }
      // a second, later cut replays what the first one kept
      truncated.truncate(cut + 30);
      truncated.truncate(cut);
      ASSERT_EQ(truncated.jobs(), prefix.jobs()) << "seed " << seed << " cut " << cut;
      ASSERT_EQ(truncated.ghosts(), prefix.ghosts()) << "seed " << seed << " cut " << cut;
      // and it goes on as if nothing had been lost
      for (const auto& c : calls(seed + 100, 40)) {
        CallRecord later = c->rec;
        later.index += 1000;
        truncated.apply(later);
        prefix.apply(later);
      }
      ASSERT_EQ(truncated.jobs(), prefix.jobs()) << "seed " << seed << " cut " << cut;
      ASSERT_EQ(truncated.ghosts(), prefix.ghosts()) << "seed " << seed << " cut " << cut;
    }
  }
}

TEST(Ledger, job_finds_what_jobs_lists) {
  Ledger ledger;
  for (const auto& c : calls(5, 200)) ledger.apply(c->rec);
  ASSERT_FALSE(ledger.jobs().empty());
  for (const auto& [key, job] : ledger.jobs()) {
    const JobTruth* found = ledger.job(key.first, key.second);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found, &job);
  }
  EXPECT_EQ(ledger.job("q", "nope"), nullptr);
  for (const auto& key : ledger.ghosts()) {
    if (!ledger.jobs().contains(key)) {
      EXPECT_EQ(ledger.job(key.first, key.second), nullptr);
    }
  }
}

TEST(Ledger, a_claim_records_holder_token_and_lease) {
  Ledger ledger;
  ledger.apply(record(1, 1, "p", {"EMQ.ADD", "q", "j1", "x", "MAXFAILURES", "5"}, Reply::integer(1))->rec);
  ledger.apply(record(2, 1, "w1", {"emq.claim", "q", "1000"},
                      Reply::array({Reply::array({Reply::bulk("j1"), Reply::integer(1), Reply::bulk("x")})}))->rec);
  const JobTruth* job = ledger.job("q", "j1");
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->state, JobState::active);
  EXPECT_EQ(job->token, 1);
  EXPECT_EQ(job->holder, "w1");
  EXPECT_EQ(job->max_failures, 5);
  ASSERT_TRUE(job->granted);
  EXPECT_EQ(job->deadline_server_ms, 23 + 1000);
  ledger.apply(record(3, 2, "op", {"HSET", "emq:{q}:job:j1", "group", "g"}, Reply::integer(1))->rec);
  EXPECT_TRUE(ledger.job("q", "j1")->lane);
  ledger.apply(record(4, 2, "op", {"DEL", "emq:{q}:job:j1"}, Reply::integer(1))->rec);
  EXPECT_EQ(ledger.job("q", "j1"), nullptr);
  EXPECT_TRUE(ledger.ghosts().contains({"q", "j1"}));
  ledger.truncate(3);
  EXPECT_NE(ledger.job("q", "j1"), nullptr);
  EXPECT_TRUE(ledger.ghosts().empty());
}

// SET of a row key is a DEL of the row to the ledger (its value is not a key). A DEL of a
// row the ledger does not hold makes a ghost too (an operator may put the id in a set by
// hand), until the ledger holds a job of that id; a held job's ghost stays one.
TEST(Ledger, a_set_or_a_del_of_a_row_makes_a_ghost_even_of_an_unheld_id) {
  Ledger ledger;
  ledger.apply(record(1, 1, "p", {"EMQ.ADD", "q", "j1", "x"}, Reply::integer(1))->rec);
  ledger.apply(record(2, 1, "op", {"set", "emq:{q}:job:j1", "emq:{q}:job:j2"}, Reply::simple("OK"))->rec);
  EXPECT_EQ(ledger.job("q", "j1"), nullptr);
  EXPECT_TRUE(ledger.ghosts().contains({"q", "j1"}));
  EXPECT_FALSE(ledger.ghosts().contains({"q", "j2"}));
  ledger.apply(record(3, 1, "op", {"DEL", "emq:{q}:job:g0", "emq:{q}:job:g1"}, Reply::integer(0))->rec);
  EXPECT_TRUE(ledger.ghosts().contains({"q", "g0"}));
  EXPECT_TRUE(ledger.ghosts().contains({"q", "g1"}));
  ledger.apply(record(4, 1, "p", {"EMQ.ADD", "q", "g0", "x"}, Reply::integer(1))->rec);
  ledger.apply(record(5, 1, "p", {"EMQ.ADD", "q", "j1", "x"}, Reply::integer(1))->rec);
  EXPECT_FALSE(ledger.ghosts().contains({"q", "g0"}));  // held now: a job like any other
  EXPECT_TRUE(ledger.ghosts().contains({"q", "g1"}));
  EXPECT_TRUE(ledger.ghosts().contains({"q", "j1"}));   // its id may still sit in a set
  ledger.truncate(3);
  EXPECT_TRUE(ledger.ghosts().contains({"q", "g0"}));
  EXPECT_EQ(ledger.job("q", "g0"), nullptr);
}

// The scripted executor's calls (bench/scripts/*.lua, by EVALSHA digest or EVAL body) move
// jobs as the verbs they stand for, but stamp nothing: a grant without a stamp.
TEST(Ledger, the_scripted_executor_grants_extends_and_completes_without_a_stamp) {
  Ledger ledger;
  ledger.apply(record(1, 1, "p", {"EMQ.ADD", "q", "j1", "x"}, Reply::integer(1))->rec);
  ledger.apply(record(2, 1, "p", {"EMQ.ADD", "q", "j2", "y"}, Reply::integer(1))->rec);
  const auto claimed = [](const char* id) {
    return Reply::array({Reply::array({Reply::bulk(id), Reply::integer(1), Reply::bulk("x")})});
  };
  // EVALSHA of claim.lua, any case of the digest
  std::string sha(executor_script_sha(ExecutorScript::claim));
  sha[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sha[0])));
  ledger.apply(record(3, 1, "w1", {"EVALSHA", sha, "2", "emq:{q}:pending", "emq:{q}:active", "1000", "1"},
                      claimed("j1"))->rec);
  const JobTruth* job = ledger.job("q", "j1");
  ASSERT_NE(job, nullptr);
  EXPECT_EQ(job->state, JobState::active);
  EXPECT_EQ(job->token, 1);
  EXPECT_EQ(job->holder, "w1");
  ASSERT_TRUE(job->granted);
  EXPECT_TRUE(job->granted->scripted);
  EXPECT_FALSE(job->stamp) << "claim.lua writes no lease_epoch";
  EXPECT_EQ(job->deadline_server_ms, 33 + 1000);
  // EVAL of extend.lua's body: the deadline moves, still no stamp
  ledger.apply(record(4, 1, "w1",
                      {"EVAL", std::string(executor_script_body(ExecutorScript::extend)), "2", "emq:{q}:active",
                       "emq:{q}:job:j1", "j1", "1", "2000"},
                      Reply::integer(1))->rec);
  EXPECT_EQ(ledger.job("q", "j1")->deadline_server_ms, 43 + 2000);
  EXPECT_FALSE(ledger.job("q", "j1")->stamp);
  // a native EXTEND of the same lease (the worker was upgraded) stamps it
  ledger.apply(record(5, 1, "w1", {"EMQ.EXTEND", "q", "j1", "1", "500"}, Reply::integer(1))->rec);
  ASSERT_TRUE(ledger.job("q", "j1")->stamp);
  EXPECT_EQ(ledger.job("q", "j1")->stamp->incarnation, 1);
  ledger.apply(record(6, 1, "w1",
                      {"EVALSHA", std::string(executor_script_sha(ExecutorScript::complete)), "3", "emq:{q}:active",
                       "emq:{q}:done", "emq:{q}:job:j1", "j1", "1", "ok"},
                      Reply::integer(1))->rec);
  EXPECT_EQ(ledger.job("q", "j1")->state, JobState::done);
  // a 0 from complete.lua, and any other script, move nothing
  ledger.apply(record(7, 1, "w2",
                      {"EVALSHA", std::string(executor_script_sha(ExecutorScript::complete)), "3", "emq:{q}:active",
                       "emq:{q}:done", "emq:{q}:job:j2", "j2", "1", "ok"},
                      Reply::integer(0))->rec);
  ledger.apply(record(8, 1, "w2", {"EVAL", "return 1", "2", "emq:{q}:pending", "emq:{q}:active", "1000", "1"},
                      claimed("j2"))->rec);
  EXPECT_EQ(ledger.job("q", "j2")->state, JobState::pending);
  // persistence loss takes the scripted moves back like any other
  ledger.truncate(3);
  EXPECT_EQ(ledger.job("q", "j1")->state, JobState::active);
  EXPECT_EQ(ledger.job("q", "j1")->deadline_server_ms, 33 + 1000);
  ledger.truncate(2);
  EXPECT_EQ(ledger.job("q", "j1")->state, JobState::pending);
}

TEST(Ledger, jobs_are_listed_by_queue_then_id_in_byte_order) {
  Ledger ledger;
  std::int64_t index = 0;
  for (const char* queue : {"r", "q", "qq", "Q"}) {
    for (const char* id : {"j9", "j10", "j1", "a"}) {
      ++index;
      ledger.apply(record(index, 1, "p", {"EMQ.ADD", queue, id, "x"}, Reply::integer(1))->rec);
    }
  }
  std::vector<std::string> order;
  for (const auto& [key, job] : ledger.jobs()) order.push_back(key.first + "/" + key.second);
  EXPECT_EQ(order, (std::vector<std::string>{"Q/a", "Q/j1", "Q/j10", "Q/j9", "q/a", "q/j1", "q/j10", "q/j9",
                                             "qq/a", "qq/j1", "qq/j10", "qq/j9", "r/a", "r/j1", "r/j10", "r/j9"}));
  EXPECT_EQ(ledger.jobs().size(), 16U);
  EXPECT_TRUE(ledger.jobs().contains({"qq", "j10"}));
  EXPECT_FALSE(ledger.jobs().contains({"qq", "j2"}));
  EXPECT_FALSE(ledger.jobs().contains({"s", "a"}));
}

// Bytes compare unsigned, as std::string does: a high byte sorts after ASCII. A job the
// model forgets leaves the list and comes back in its place.
TEST(Ledger, jobs_order_bytes_unsigned_and_survive_forgetting) {
  Ledger ledger;
  std::int64_t index = 0;
  for (const char* id : {"\xff", "a", "\x01", "b"}) {
    ++index;
    ledger.apply(record(index, 1, "p", {"EMQ.ADD", "q", id, "x"}, Reply::integer(1))->rec);
  }
  auto listed = [&] {
    std::vector<std::string> order;
    for (const auto& [key, job] : ledger.jobs()) order.push_back(key.second);
    return order;
  };
  EXPECT_EQ(listed(), (std::vector<std::string>{"\x01", "a", "b", "\xff"}));
  ledger.apply(record(5, 1, "op", {"DEL", "emq:{q}:job:a"}, Reply::integer(1))->rec);
  EXPECT_EQ(listed(), (std::vector<std::string>{"\x01", "b", "\xff"}));
  EXPECT_FALSE(ledger.jobs().contains({"q", "a"}));
  ledger.truncate(4);
  EXPECT_EQ(listed(), (std::vector<std::string>{"\x01", "a", "b", "\xff"}));
  EXPECT_EQ(ledger.job("q", "a")->state, JobState::pending);
}

}  // namespace
}  // namespace trafikey::properties::model
