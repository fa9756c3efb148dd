// One judge, three adapters (properties/judge/rules.h): the same snapshot of a queue,
// judged by the sim's checker (run_on_sim), by the real-server runner's checks
// (run_on_real, `check invariants`) and by the soak's audit (read_queue, audit_queue on a
// real server holding it), gives each exactly the findings judge_queue gives for what
// that adapter knows: the sim a ledger (which, for keys an operator wrote by hand, holds
// no job) and the run_ids; the real runner the run_ids but no ledger; the soak neither.
// Where two adapters know the same, their findings are the same, word for word.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "module/harness/real_server.h"
#include "properties/judge/rules.h"
#include "properties/model/ledger.h"
#include "scenarios/runner/run_real.h"
#include "scenarios/runner/run_sim.h"
#include "scenarios/soak/queue_audit.h"
#include "sim/scenario/parse.h"

namespace trafikey::scenario {
namespace {

namespace judge = properties::judge;

using Finding = std::pair<std::string, std::string>;  // invariant, facts
using Found = std::set<Finding>;

// A queue's keys, written by hand: each row in one HSET, then each member in one ZADD.
struct Snapshot {
  std::string name;
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> rows;
  std::vector<std::pair<std::string, std::string>> members;  // set, id
};

constexpr const char* queue = "q";

std::vector<std::vector<std::string>> writes(const Snapshot& s) {
  std::vector<std::vector<std::string>> out;
  for (const auto& [id, fields] : s.rows) {
    std::vector<std::string> argv{"HSET", "emq:{q}:job:" + id};
    for (const auto& [f, v] : fields) argv.insert(argv.end(), {f, v});
    out.push_back(argv);
  }
  for (const auto& [set, id] : s.members) out.push_back({"ZADD", "emq:{q}:" + set, "1", id});
  return out;
}

judge::QueueSnapshot snapshot_of(const Snapshot& s) {
  judge::QueueSnapshot out;
  out.queue = queue;
  for (const auto& [id, fields] : s.rows) out.rows[id] = judge::Row(fields.begin(), fields.end());
  for (JobState state : all_job_states) {
    for (const auto& [set, id] : s.members) {
      if (set == job_state_name(state)) out.members[id].push_back(state);
    }
  }
  return out;
}

Found judged(const Snapshot& s, const judge::QueueKnowledge& known) {
  struct Sink final : judge::Findings {
    Found found;
    void fail(std::string_view invariant, std::string facts) override {
      found.emplace(std::string(invariant), std::move(facts));
    }
  } sink;
  judge::judge_queue(snapshot_of(s), known, sink);
  return sink.found;
}

Scenario scenario_of(const Snapshot& s) {
  // EMQ.STATS names the queue: the runners judge the queues a file's EMQ verbs name
  std::string text = "scenario \"" + s.name + "\"\noption seed 1\nat 0 op: EMQ.STATS q\n";
  for (const auto& argv : writes(s)) {
    text += "at 0 op:";
    for (const std::string& word : argv) text += " " + word;
    text += "\n";
  }
  text += "at 0 check invariants\n";
  auto parsed = parse_scenario(text, s.name + ".scn");
  EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : to_string(parsed.error()));
  return parsed.ok() ? parsed.value() : Scenario{};
}

// A run's violations as (invariant, facts); a real server's facts carry a prefix naming
// the line ("ID (line N, t=T, real server): "), which is not the rule's.
Found found_by(const RunResult& r) {
  Found out;
  for (const auto& v : r.violations) {
    const std::string marker = "real server): ";
    const auto at = v.facts.find(marker);
    out.emplace(v.invariant, at == std::string::npos ? v.facts : v.facts.substr(at + marker.size()));
  }
  return out;
}

Found audited(const Snapshot& s) {
  real::RealServer server(real::ServerConfig{TRAFIKEY_MODULE_PATH, {}, {}, {}});
  real::ServerConnection c = server.connect();
  for (const auto& argv : writes(s)) EXPECT_FALSE(c.call(argv).is_error());
  Found out;
  for (const std::string& line : soak::audit_queue(queue, soak::read_queue(c, queue))) {
    const auto space = line.find(' ');
    const std::string marker = std::string(" in queue ") + queue + ": ";
    const auto at = line.find(marker);
    if (space == std::string::npos || at == std::string::npos) {
      ADD_FAILURE() << "an audit line that is no judge's finding: " << line;
      continue;
    }
    out.emplace(line.substr(0, space), line.substr(at + marker.size()));
  }
  return out;
}

const std::vector<Snapshot>& snapshots() {
  static const std::vector<Snapshot> all{
      {"sound",
       {{"j1", {{"state", "pending"}}}, {"j2", {{"state", "done"}}}, {"j3", {{"state", "dead"}, {"dead_reason", "failed"},
                                                                            {"failures", "3"}, {"max_failures", "3"}}}},
       {{"pending", "j1"}, {"done", "j2"}, {"dead", "j3"}}},
      {"conserve",
       {{"j1", {{"state", "pending"}}}, {"j3", {{"state", "done"}}}, {"j4", {{"state", "pending"}}}},
       {{"pending", "j1"}, {"done", "j1"}, {"pending", "j2"}, {"active", "j3"}}},
      {"budget",
       {{"j1", {{"state", "pending"}, {"failures", "5"}, {"max_failures", "3"}}},
        {"j2", {{"state", "dead"}, {"dead_reason", "failed"}, {"failures", "1"}, {"max_failures", "3"}}},
        {"j3", {{"state", "dead"}, {"dead_reason", "stalled"}, {"stalled", "0"}}},
        // a budget of 0 bounds nothing (a corrupt row), on every adapter alike
        {"j4", {{"state", "pending"}, {"failures", "9"}, {"max_failures", "0"}}}},
       {{"pending", "j1"}, {"dead", "j2"}, {"dead", "j3"}, {"pending", "j4"}}},
      {"stamp",
       {{"j1", {{"state", "active"}, {"lease_epoch", "0123456789abcdef0123456789abcdef01234567"}}}},
       {{"active", "j1"}}},
  };
  return all;
}

TEST(OneJudge, the_same_snapshot_gives_each_adapter_the_judges_findings_for_what_it_knows) {
  RealTarget target;
  target.server_bin = real::find_server_binary();
  target.module_path = TRAFIKEY_MODULE_PATH;
  const properties::model::Ledger no_jobs;  // the sim's ledger: keys written by hand are no job of it
  const std::vector<std::string> other_run_ids{"", "ffffffffffffffffffffffffffffffffffffffff"};
  std::size_t found_somewhere = 0;
  for (const Snapshot& s : snapshots()) {
    SCOPED_TRACE(s.name);
    const Scenario scenario = scenario_of(s);
    const Found sim = found_by(run_on_sim(scenario));
    const Found on_real = found_by(run_on_real(scenario, target));
    const Found soak = audited(s);
    EXPECT_EQ(sim, judged(s, {&no_jobs, &other_run_ids}));
    EXPECT_EQ(on_real, judged(s, {nullptr, &other_run_ids}));
    EXPECT_EQ(soak, judged(s, {}));
    found_somewhere += on_real.size();
  }
  // the snapshots break the rules: a judge that found nothing would pass the three above
  EXPECT_GE(found_somewhere, 8u);
}

TEST(OneJudge, conserve_and_budget_read_alike_on_the_three_adapters) {
  // What all three know (the keys), all three judge alike: the sim's and the soak's
  // findings of queue.conserve and queue.budget are the real runner's, word for word.
  RealTarget target;
  target.server_bin = real::find_server_binary();
  target.module_path = TRAFIKEY_MODULE_PATH;
  for (const char* name : {"conserve", "budget"}) {
    SCOPED_TRACE(name);
    const Snapshot& s = *std::find_if(snapshots().begin(), snapshots().end(),
                                      [&](const Snapshot& x) { return x.name == name; });
    const Scenario scenario = scenario_of(s);
    Found sim = found_by(run_on_sim(scenario));
    Found on_real = found_by(run_on_real(scenario, target));
    Found soak = audited(s);
    // Left out: the row in no set (a job only where no ledger says which rows are jobs)
    // and epoch.stamp (judged only where the run_ids are known and no ledger is)
    auto beyond_keys = [](const Finding& f) {
      return f.first == "epoch.stamp" || f.second.find("is in no set") != std::string::npos;
    };
    std::erase_if(on_real, beyond_keys);
    std::erase_if(soak, beyond_keys);
    EXPECT_FALSE(sim.empty());
    EXPECT_EQ(sim, on_real);
    EXPECT_EQ(sim, soak);
  }
}

TEST(OneJudge, a_real_server_names_the_parts_of_rules_it_cannot_judge) {
  RealTarget target;
  target.server_bin = real::find_server_binary();
  target.module_path = TRAFIKEY_MODULE_PATH;
  const RunResult r = run_on_real(scenario_of(snapshots().front()), target);
  EXPECT_EQ(r.status, CheckStatus::passed);
  ASSERT_TRUE(r.unjudged.contains("epoch.stamp"));
  ASSERT_TRUE(r.unjudged.contains("queue.budget"));
  EXPECT_EQ(r.unjudged.at("queue.budget"),
            std::vector<std::string>{"the stalled and failures counts each job's history charges (no ledger)"});
  EXPECT_TRUE(run_on_sim(scenario_of(snapshots().front())).unjudged.empty());
}

}  // namespace
}  // namespace trafikey::scenario
