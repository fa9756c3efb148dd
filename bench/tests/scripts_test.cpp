// The scripted executor (bench/scripts/*.lua) against the native verbs: for the same
// calls, the same replies, and the same keys and rows apart from lease_epoch and lease, which only
// the native verbs write (the seed: scripts write none). Issue 8, item 1.
//
// How the comparison is made exact although deadlines depend on time: every step runs the
// native call on queue "n" and the scripted call on queue "s" back to back, between two
// TIME reads of the same server (the step's bracket, in ms), and steps are spaced so that
// no two brackets overlap. A score is then replaced by what it must be:
//   active     "t<k>+lease" when score - lease_ms(step k) falls in step k's bracket
//   done/dead  "t<k>" when the score falls in step k's bracket
//   pending    the score itself (the INCR seq order)
// A score that matches no step, or more than one, stays raw and fails the comparison.
// After every step the two queues' zsets (members in order, labelled scores) and rows
// (HGETALL, fields sorted, lease_epoch and lease removed from the native rows) must print the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench/support.h"

namespace trafikey::bench {
namespace {

using namespace std::chrono_literals;

struct Step {
  std::string verb;               // CLAIM, EXTEND, COMPLETE
  std::vector<std::string> args;  // after q, as the native verb takes them
};

struct Bracket {
  std::int64_t from_ms = 0, to_ms = 0;
  std::int64_t lease_ms = 0;  // the lease the step granted or extended (0: none)
};

class ScriptedVsNative : public ::testing::Test {
 protected:
  ScriptedVsNative() : server_(module_server_config()), c_(server_.connect()) {
    scripts_ = read_scripts();
    load_scripts(c_, scripts_);
    epoch_ = c_.call({"EMQ.EPOCH"}).text();
  }

  static std::string key(const std::string& q, const std::string& name) {
    return "emq:{" + q + "}:" + name;
  }

  Reply native(const std::string& q, const Step& step) {
    std::vector<std::string> argv{"EMQ." + step.verb, q};
    argv.insert(argv.end(), step.args.begin(), step.args.end());
    return c_.call(argv);
  }

  // The same call as the script takes it: keys first, then the verb's arguments.
  Reply scripted(const std::string& q, const Step& step) {
    const auto& a = step.args;
    std::vector<std::string> argv;
    if (step.verb == "CLAIM") {
      // lease_ms [COUNT n]
      const std::string count = a.size() >= 3 ? a[2] : "1";
      argv = {"EVALSHA", scripts_.claim_sha, "2", key(q, "pending"), key(q, "active"), a[0], count};
    } else if (step.verb == "EXTEND") {
      // id attempts lease_ms
      argv = {"EVALSHA", scripts_.extend_sha, "2", key(q, "active"), key(q, "job:" + a[0]),
              a[0], a[1], a[2]};
    } else {
      // COMPLETE id attempts [result]
      argv = {"EVALSHA", scripts_.complete_sha, "3", key(q, "active"), key(q, "done"),
              key(q, "job:" + a[0])};
      argv.insert(argv.end(), a.begin(), a.end());
    }
    return c_.call(argv);
  }

  std::int64_t server_ms() {
    const Reply t = c_.call({"TIME"});
    return std::stoll(t.items()[0].text()) * 1000 + std::stoll(t.items()[1].text()) / 1000;
  }

  // Runs one step on both executors and checks the replies and the state.
  void step(const Step& s, const std::string& expected_reply) {
    SCOPED_TRACE(s.verb + " " + (s.args.empty() ? "" : s.args[0]));
    std::this_thread::sleep_for(3ms);  // brackets never share a millisecond
    Bracket b;
    b.from_ms = server_ms();
    const Reply rn = native("n", s);
    const Reply rs = scripted("s", s);
    b.to_ms = server_ms();
    const bool grants = (s.verb == "CLAIM" || s.verb == "EXTEND") && !rn.is_error();
    if (grants) b.lease_ms = std::stoll(s.verb == "CLAIM" ? s.args[0] : s.args[2]);
    brackets_.push_back(b);
    EXPECT_EQ(debug_string(rn), expected_reply);
    EXPECT_EQ(debug_string(rs), debug_string(rn)) << "the scripted reply differs";
    EXPECT_EQ(state("s"), state("n"));
  }

  // Both queues get the same setup through the native verbs and plain commands.
  void both(const std::vector<std::string>& argv_with_q, const std::string& expected_reply) {
    for (const std::string q : {"n", "s"}) {
      std::vector<std::string> argv = argv_with_q;
      for (auto& a : argv) {
        if (a == "<q>") a = q;
        if (a.starts_with("<row>")) a = key(q, "job:" + a.substr(5));
      }
      EXPECT_EQ(debug_string(c_.call(argv)), expected_reply) << argv[0];
    }
  }

  std::string label(double score, bool deadline) const {
    std::vector<std::string> hits;
    for (std::size_t k = 0; k < brackets_.size(); ++k) {
      const Bracket& b = brackets_[k];
      if (deadline && b.lease_ms == 0) continue;
      const double at = score - (deadline ? static_cast<double>(b.lease_ms) : 0.0);
      if (at >= static_cast<double>(b.from_ms) && at <= static_cast<double>(b.to_ms)) {
        hits.push_back("t" + std::to_string(k) + (deadline ? "+lease" : ""));
      }
    }
    if (hits.size() == 1) return hits[0];
    return "unmatched:" + std::to_string(static_cast<long long>(score));
  }

  // One queue's zsets (labelled) and rows, printed; lease_epoch checked and removed.
  std::string state(const std::string& q) {
    std::string out;
    std::set<std::string> ids(known_ids_.begin(), known_ids_.end());
    for (const std::string name : {"pending", "active", "done", "dead"}) {
      out += name + ":";
      const Reply r = c_.call({"ZRANGE", key(q, name), "0", "-1", "WITHSCORES"});
      for (std::size_t i = 0; i + 1 < r.items().size(); i += 2) {
        const std::string& member = r.items()[i].text();
        const double score = std::stod(r.items()[i + 1].text());
        ids.insert(member);
        out += " " + member + "@";
        if (name == "pending") {
          out += r.items()[i + 1].text();
        } else {
          out += label(score, name == "active");
        }
      }
      out += "\n";
    }
    for (const auto& id : ids) {
      const Reply r = c_.call({"HGETALL", key(q, "job:" + id)});
      std::vector<std::pair<std::string, std::string>> fields;
      for (std::size_t i = 0; i + 1 < r.items().size(); i += 2) {
        fields.emplace_back(r.items()[i].text(), r.items()[i + 1].text());
      }
      std::sort(fields.begin(), fields.end());
      out += "row " + id + ":";
      for (const auto& [f, v] : fields) {
        if (f == "lease_epoch") {
          // native: the stamp of this process; scripted: never written
          EXPECT_EQ(q, "n") << "a script wrote lease_epoch on " << id;
          EXPECT_EQ(v, epoch_) << "row " << id;
          continue;
        }
        if (f == "lease") {
          // native: a grant id of this process (EMQ §8); scripted: never written
          EXPECT_EQ(q, "n") << "a script wrote lease on " << id;
          EXPECT_EQ(v.rfind(epoch_ + "-", 0), 0u) << "row " << id << ": " << v;
          continue;
        }
        out += " " + f + "=" + v;
      }
      if (q == "n" && std::any_of(fields.begin(), fields.end(), [](const auto& fv) {
            return fv.first == "attempts" && fv.second != "0";
          })) {
        EXPECT_TRUE(std::any_of(fields.begin(), fields.end(),
                                [](const auto& fv) { return fv.first == "lease_epoch"; }))
            << "a native claim left no lease_epoch on " << id;
      }
      out += "\n";
    }
    return out;
  }

  real::RealServer server_;
  real::ServerConnection c_;
  Scripts scripts_;
  std::string epoch_;
  std::vector<Bracket> brackets_;
  std::vector<std::string> known_ids_{"a", "b", "c", "d", "e", "f", "g", "zz"};
};

TEST_F(ScriptedVsNative, same_calls_leave_same_rows_apart_from_lease_epoch) {
  for (const std::string id : {"a", "b", "c", "d", "e", "f"}) {
    both({"EMQ.ADD", "<q>", id, "p" + id}, "1");
  }
  step({"CLAIM", {"60000", "COUNT", "2"}}, R"([["a" 1 "pa"] ["b" 1 "pb"]])");
  step({"CLAIM", {"60000"}}, R"([["c" 1 "pc"]])");
  step({"EXTEND", {"a", "1", "120000"}}, "1");
  step({"EXTEND", {"b", "2", "60000"}}, "0");   // not b's token
  step({"EXTEND", {"zz", "1", "60000"}}, "0");  // never added
  step({"COMPLETE", {"a", "1", "done-a"}}, "1");
  step({"COMPLETE", {"a", "1"}}, "0");          // no longer live
  step({"COMPLETE", {"b", "1"}}, "1");          // no result
  step({"COMPLETE", {"c", "1", std::string("r\0\xff", 3)}}, "1");

  // d's row vanishes while d waits in pending: a ghost, removed and not counted
  both({"DEL", "<row>d"}, "1");
  step({"CLAIM", {"60000", "COUNT", "3"}}, R"([["e" 1 "pe"] ["f" 1 "pf"]])");
  step({"CLAIM", {"60000"}}, "[]");

  // a failed job comes back with the next token
  both({"EMQ.FAIL", "<q>", "e", "1", "boom"}, "1");
  step({"CLAIM", {"60000"}}, R"([["e" 2 "pe"]])");
  step({"COMPLETE", {"e", "1"}}, "0");  // the old token
  step({"EXTEND", {"e", "2", "90000"}}, "1");
  step({"COMPLETE", {"e", "2", "ok"}}, "1");

  // a lease that ran out is not live for either executor
  both({"EMQ.ADD", "<q>", "g", "pg"}, "1");
  step({"CLAIM", {"30"}}, R"([["g" 1 "pg"]])");
  std::this_thread::sleep_for(80ms);
  step({"EXTEND", {"g", "1", "60000"}}, "0");
  step({"COMPLETE", {"g", "1"}}, "0");

  // refusals: the same texts, nothing written
  step({"CLAIM", {"0"}}, R"((error "ERR EMQ lease_ms must be an integer in 1..9007199254740991"))");
  step({"CLAIM", {"10", "COUNT", "1001"}}, R"((error "ERR EMQ count must be an integer in 1..1000"))");
  step({"EXTEND", {"f", "01", "100"}},
       R"((error "ERR EMQ attempts must be an integer in 1..9223372036854775807"))");
  step({"EXTEND", {"f", "1", "0"}}, R"((error "ERR EMQ lease_ms must be an integer in 1..9007199254740991"))");
  step({"COMPLETE", {"f", "x"}},
       R"((error "ERR EMQ attempts must be an integer in 1..9223372036854775807"))");
  step({"COMPLETE", {"f", "1", "done-f"}}, "1");
}

// What the missing stamp means (the seed): a scripted lease that runs out under a live
// server is exempt under the native sweep (back to pending, stalled not charged), where
// the same native lease is counted.
TEST_F(ScriptedVsNative, a_scripted_lease_is_exempt_under_the_native_sweep) {
  both({"EMQ.ADD", "<q>", "a", "pa"}, "1");
  step({"CLAIM", {"30"}}, R"([["a" 1 "pa"]])");
  std::this_thread::sleep_for(80ms);
  EXPECT_EQ(debug_string(c_.call({"EMQ.STALLED.CHECK", "n", "1"})),
            R"(["recovered" [] "dead" ["a"] "ghosts" [] "lanes" []])");
  EXPECT_EQ(debug_string(c_.call({"EMQ.STALLED.CHECK", "s", "1"})),
            R"(["recovered" ["a"] "dead" [] "ghosts" [] "lanes" []])");
  EXPECT_EQ(debug_string(c_.call({"HGET", key("s", "job:a"), "stalled"})), "nil");
}

}  // namespace
}  // namespace trafikey::bench
