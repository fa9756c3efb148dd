// plan_json writes the plan itself (no JSON document): its text must stay byte for byte
// what the nlohmann document printed, since every history starts with it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan.h"
#include "sim/prng.h"
#include "sim/run.h"

namespace trafikey::sim {
namespace {

// A fault's "amount" and "target" as the plan's JSON holds them, spelt out here apart from
// plan.cpp: the kind's number or 0, its worker, actor or job number or -1.
std::pair<std::int64_t, int> amount_and_target(const Fault& f) {
  if (const auto* x = std::get_if<fault::ClockStep>(&f.what)) return {x->delta_ms, -1};
  if (const auto* x = std::get_if<fault::ClockRate>(&f.what)) return {x->rate_per_mille, -1};
  if (const auto* x = std::get_if<fault::WorkerClockStep>(&f.what)) return {x->delta_ms, x->worker};
  if (const auto* x = std::get_if<fault::WorkerDeath>(&f.what)) return {0, x->worker};
  if (const auto* x = std::get_if<fault::WorkerPause>(&f.what)) return {x->pause_ms, x->worker};
  if (const auto* x = std::get_if<fault::LostReply>(&f.what)) return {0, x->actor};
  if (const auto* x = std::get_if<fault::RowDelete>(&f.what)) return {0, x->job_number};
  if (const auto* x = std::get_if<fault::LaneMark>(&f.what)) return {0, x->job_number};
  if (const auto* x = std::get_if<fault::Upgrade>(&f.what)) return {0, x->worker};
  return {0, -1};
}

// The text as the nlohmann document printed it before plan_json wrote it directly: the
// reference, byte for byte.
std::string nlohmann_json(const RunPlan& plan) {
  nlohmann::ordered_json j;
  j["seed"] = plan.seed;
  j["queue"] = plan.queue;
  j["jobs"] = plan.jobs;
  j["add_spread_ms"] = plan.add_spread_ms;
  auto& workers = j["workers"] = nlohmann::ordered_json::array();
  for (const auto& w : plan.workers) {
    workers.push_back({{"offset_ms", w.offset_ms}, {"rate_per_mille", w.rate_per_mille}});
  }
  j["claim_count"] = plan.claim_count;
  j["lease_ms"] = plan.lease_ms;
  j["extend_at_per_mille"] = plan.extend_at_per_mille;
  j["use_extends"] = plan.use_extends;
  j["work_min_ms"] = plan.work_min_ms;
  j["work_max_ms"] = plan.work_max_ms;
  j["fail_per_mille"] = plan.fail_per_mille;
  j["retry_per_mille"] = plan.retry_per_mille;
  j["poll_ms"] = plan.poll_ms;
  j["max_failures"] = plan.max_failures;
  j["max_stalled"] = plan.max_stalled;
  j["sweep_interval_ms"] = plan.sweep_interval_ms;
  j["persistence"] = persistence_name(plan.persistence);
  j["snapshot_interval_ms"] = plan.snapshot_interval_ms;
  j["replication_lag_ms"] = plan.replication_lag_ms;
  j["safety_ms"] = plan.safety_ms;
  auto& faults = j["faults"] = nlohmann::ordered_json::array();
  for (const auto& f : plan.faults) {
    const auto [amount, target] = amount_and_target(f);
    faults.push_back({{"at_ms", f.at_ms}, {"kind", fault_name(f.kind())}, {"amount", amount}, {"target", target}});
  }
  j["sweep_limit"] = plan.sweep_limit;
  j["claim_overask"] = plan.claim_overask;
  j["max_failures_vary"] = plan.max_failures_vary;
  j["near_epoch_per_mille"] = plan.near_epoch_per_mille;
  j["time_quantum_ms"] = plan.time_quantum_ms;
  return j.dump();
}

constexpr std::array all_kinds{FaultKind::restart,      FaultKind::failover,     FaultKind::clock_step,
                               FaultKind::clock_rate,   FaultKind::worker_clock, FaultKind::worker_death,
                               FaultKind::worker_pause, FaultKind::lost_reply,   FaultKind::epoch_fail,
                               FaultKind::epoch_malformed, FaultKind::row_delete, FaultKind::lane_mark};

TEST(Plan, json_matches_the_nlohmann_document_on_drawn_plans) {
  Prng p(2024);
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    PlanChoices c;
    c.seed = seed * 7919;
    if (p.chance(500)) c.jobs = static_cast<int>(p.between(0, 300));
    if (p.chance(500)) c.workers = static_cast<int>(p.between(1, 8));
    if (p.chance(300)) c.safety_ms = p.between(0, 100000);
    c.persistence = static_cast<Persistence>(p.between(0, 3));
    for (FaultKind k : all_kinds) {
      if (p.chance(400)) c.fault_kinds.push_back(k);
    }
    const RunPlan plan = draw_plan(c);
    ASSERT_EQ(plan_json(plan), nlohmann_json(plan)) << "seed " << c.seed;
  }
}

TEST(Plan, json_matches_the_nlohmann_document_at_the_edges) {
  RunPlan plan;
  EXPECT_EQ(plan_json(plan), nlohmann_json(plan));
  plan.workers.clear();
  plan.faults.clear();
  EXPECT_EQ(plan_json(plan), nlohmann_json(plan)) << "empty arrays";
  plan.seed = std::numeric_limits<std::uint64_t>::max();
  plan.jobs = std::numeric_limits<int>::min();
  plan.lease_ms = std::numeric_limits<std::int64_t>::min();
  plan.work_max_ms = std::numeric_limits<std::int64_t>::max();
  plan.use_extends = false;
  plan.workers = {WorkerClock{-1, 0}, WorkerClock{std::numeric_limits<std::int64_t>::min(), -7}};
  plan.faults = {Fault{-5, fault::ClockStep{std::numeric_limits<std::int64_t>::max()}},
                 Fault{0, fault::LostReply{std::numeric_limits<int>::max()}},
                 Fault{1, fault::WorkerPause{std::numeric_limits<int>::min(), std::numeric_limits<std::int64_t>::min()}}};
  EXPECT_EQ(plan_json(plan), nlohmann_json(plan)) << "extreme numbers";
  // Queue names: plain ones are written directly, the rest fall back; either way the same.
  for (const std::string& queue : std::vector<std::string>{"q", "a b~!", "emq-1", "x\"y", "back\\slash", std::string("nul\0", 4),
                                  "tab\t", "del\x7f", "\xc3\xa9t\xc3\xa9"}) {
    plan.queue = queue;
    EXPECT_EQ(plan_json(plan), nlohmann_json(plan)) << queue;
  }
}

TEST(Plan, json_text_is_as_documented) {
  RunPlan plan;
  plan.workers = {WorkerClock{-3, 999}};
  plan.faults = {Fault{7, fault::ClockStep{-250}}};
  EXPECT_EQ(plan_json(plan),
            "{\"seed\":1,\"queue\":\"q\",\"jobs\":12,\"add_spread_ms\":2000,"
            "\"workers\":[{\"offset_ms\":-3,\"rate_per_mille\":999}],\"claim_count\":2,"
            "\"lease_ms\":1000,\"extend_at_per_mille\":500,\"use_extends\":true,\"work_min_ms\":100,"
            "\"work_max_ms\":2500,\"fail_per_mille\":150,\"retry_per_mille\":500,\"poll_ms\":150,"
            "\"max_failures\":3,\"max_stalled\":2,\"sweep_interval_ms\":400,\"persistence\":\"always\","
            "\"snapshot_interval_ms\":3000,\"replication_lag_ms\":250,\"safety_ms\":15000,"
            "\"faults\":[{\"at_ms\":7,\"kind\":\"clock_step\",\"amount\":-250,\"target\":-1}],"
            "\"sweep_limit\":0,\"claim_overask\":0,\"max_failures_vary\":false,"
            "\"near_epoch_per_mille\":0,\"time_quantum_ms\":0}");
}

// Several queues: the field is written only when not 1 (a one-queue plan prints as it
// did before the field existed), reads back, names its queues q, q2, q3 and maps job jN
// to queue (N-1) % queues; out-of-range counts are refused, naming the field.
TEST(Plan, several_queues_are_written_only_when_more_than_one) {
  RunPlan plan;
  EXPECT_EQ(plan_json(plan).find("queues"), std::string::npos);
  plan.queues = 3;
  const std::string text = plan_json(plan);
  EXPECT_TRUE(text.ends_with(",\"time_quantum_ms\":0,\"queues\":3}")) << text;
  std::string error;
  const auto back = parse_plan(text, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, plan);
  EXPECT_EQ(plan.queue_name(0), "q");
  EXPECT_EQ(plan.queue_name(1), "q2");
  EXPECT_EQ(plan.queue_name(2), "q3");
  EXPECT_EQ(plan.queue_of_job(1), 0);
  EXPECT_EQ(plan.queue_of_job(2), 1);
  EXPECT_EQ(plan.queue_of_job(3), 2);
  EXPECT_EQ(plan.queue_of_job(4), 0);
  EXPECT_EQ(validate_plan(plan), "");
  for (int bad : {0, 10}) {
    plan.queues = bad;
    EXPECT_EQ(validate_plan(plan), "plan: queues must be in 1..9") << bad;
  }
  const auto wrong = parse_plan(R"({"queues":"two"})", &error);
  EXPECT_FALSE(wrong);
}

// The adversarial client: written (as "odd_calls") only when not 0, read back, 0..1000 (validate names the field).
TEST(Plan, adversarial_calls_are_written_only_when_some) {
  RunPlan plan;
  EXPECT_EQ(plan_json(plan).find("odd_calls"), std::string::npos);
  plan.adversarial_calls = 12;
  const std::string text = plan_json(plan);
  EXPECT_TRUE(text.ends_with(",\"time_quantum_ms\":0,\"odd_calls\":12}")) << text;
  std::string error;
  const auto back = parse_plan(text, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, plan);
  EXPECT_EQ(validate_plan(plan), "");
  for (int bad : {-1, 1001}) {
    plan.adversarial_calls = bad;
    EXPECT_EQ(validate_plan(plan), "plan: odd_calls must be in 0..1000") << bad;
  }
}

// A long-lived queue: written only when not 0, read back, 0..2^62 (validate names the
// field); the run sets every queue's seq to it before anything else (an operator's SET), so
// the first ADD orders its job one past it.
TEST(Plan, seq_start_is_written_only_when_set_and_orders_the_first_add_past_it) {
  RunPlan plan;
  EXPECT_EQ(plan_json(plan).find("seq_start"), std::string::npos);
  plan.seq_start = 16777216;
  const std::string text = plan_json(plan);
  EXPECT_TRUE(text.ends_with(",\"time_quantum_ms\":0,\"seq_start\":16777216}")) << text;
  std::string error;
  const auto back = parse_plan(text, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, plan);
  EXPECT_EQ(validate_plan(plan), "");
  for (std::int64_t bad : {std::int64_t{-1}, (std::int64_t{1} << 62) + 1}) {
    plan.seq_start = bad;
    EXPECT_EQ(validate_plan(plan), "plan: seq_start must be in 0..2^62") << bad;
  }
  plan.seq_start = 16777216;
  plan.seed = 3;
  plan.jobs = 2;
  plan.queues = 2;
  plan.safety_ms = 2000;
  const RunSummary a = run_plan(plan);
  EXPECT_EQ(a.fingerprint, run_plan(plan).fingerprint);
  EXPECT_NE(a.history.find("SET\",\"emq:{q}:seq\",\"16777216\""), std::string::npos) << a.history.substr(0, 2000);
  EXPECT_NE(a.history.find("SET\",\"emq:{q2}:seq\",\"16777216\""), std::string::npos);
  EXPECT_GT(a.situations.count("order-past-float-integers"), 0u);
}

// A run with an adversarial client sends its calls as actor x, and the same plan gives the same
// history; the draws of the catalog are the run's own.
TEST(Plan, an_adversarial_client_calls_as_x_and_stays_deterministic) {
  RunPlan plan;
  plan.seed = 7;
  plan.jobs = 4;
  plan.safety_ms = 3000;
  plan.adversarial_calls = 20;
  const RunSummary a = run_plan(plan);
  const RunSummary b = run_plan(plan);
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_NE(a.history.find("\"actor\":\"x\""), std::string::npos);
  EXPECT_GT(a.situations.count("odd-call-refused") + a.situations.count("odd-call-read"), 0u);
}

// Each fault kind carries exactly its fields: every kind, with values in each field it has,
// reads back from its JSON as it was written.
TEST(Plan, every_fault_kind_reads_back_with_its_fields) {
  RunPlan plan;
  plan.faults = {Fault{1, fault::Restart{}},          Fault{2, fault::Failover{}},
                 Fault{3, fault::ClockStep{-40}},      Fault{4, fault::ClockRate{900}},
                 Fault{5, fault::WorkerClockStep{2, 70}}, Fault{6, fault::WorkerDeath{1}},
                 Fault{7, fault::WorkerPause{0, 500}}, Fault{8, fault::LostReply{3}},
                 Fault{9, fault::EpochFail{}},         Fault{10, fault::EpochMalformed{}},
                 Fault{11, fault::RowDelete{4}},       Fault{12, fault::LaneMark{5}},
                 Fault{13, fault::Upgrade{1}},         Fault{14, fault::Reload{}},
                 Fault{15, fault::Failback{}}};
  ASSERT_EQ(plan.faults.size(), fault_kind_count);
  for (std::size_t i = 0; i < fault_kind_count; ++i) EXPECT_EQ(plan.faults[i].kind(), static_cast<FaultKind>(i));
  std::string error;
  const auto back = parse_plan(plan_json(plan), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(*back, plan);
  EXPECT_NE(plan_json(plan).find("{\"at_ms\":7,\"kind\":\"worker_pause\",\"amount\":500,\"target\":0}"),
            std::string::npos);
}

// A field a kind does not carry holds its default in the JSON (amount 0, target -1), as
// plan_json writes it; any other value is refused, naming the field.
TEST(Plan, a_fault_field_its_kind_does_not_carry_is_refused) {
  RunPlan plan;
  plan.faults = {Fault{1, fault::Restart{}}};
  const std::string text = plan_json(plan);
  const std::string written = "\"kind\":\"restart\",\"amount\":0,\"target\":-1";
  ASSERT_NE(text.find(written), std::string::npos) << text;
  std::string error;
  std::string with_amount = text;
  with_amount.replace(text.find(written), written.size(), "\"kind\":\"restart\",\"amount\":5,\"target\":-1");
  EXPECT_FALSE(parse_plan(with_amount, &error));
  EXPECT_EQ(error, "plan: faults.amount of restart must be 0: restart carries no amount");
  std::string with_target = text;
  with_target.replace(text.find(written), written.size(), "\"kind\":\"restart\",\"amount\":0,\"target\":2");
  EXPECT_FALSE(parse_plan(with_target, &error));
  EXPECT_EQ(error, "plan: faults.target of restart must be -1: restart carries no target");
  plan.faults = {Fault{1, fault::ClockRate{1200}}};
  std::string rate = plan_json(plan);
  const std::string rate_written = "\"amount\":1200,\"target\":-1";
  rate.replace(rate.find(rate_written), rate_written.size(), "\"amount\":1200,\"target\":0");
  EXPECT_FALSE(parse_plan(rate, &error));
  EXPECT_EQ(error, "plan: faults.target of clock_rate must be -1: clock_rate carries no target");
}

// --faults: every kind by its own name, the groups, the old spelling lost-reply; a bad
// name is refused and named.
TEST(FaultList, every_kind_parses_by_its_own_name) {
  for (std::string_view name : fault_kind_names()) {
    const auto parsed = parse_fault_list(name);
    ASSERT_TRUE(parsed) << name;
    EXPECT_EQ(*parsed, std::vector<FaultKind>{*parse_fault_kind(name)}) << name;
    EXPECT_EQ(fault_name(parsed->front()), name);
  }
}

TEST(FaultList, groups_stand_for_their_kinds_in_order) {
  using K = FaultKind;
  EXPECT_EQ(*parse_fault_list("clock"), (std::vector<K>{K::clock_step, K::clock_rate, K::worker_clock}));
  EXPECT_EQ(*parse_fault_list("epoch"), (std::vector<K>{K::epoch_fail, K::epoch_malformed}));
  EXPECT_EQ(*parse_fault_list("restart,failover,clock,death,pause,lost-reply,epoch,ghost,lane"),
            (std::vector<K>{K::restart, K::failover, K::clock_step, K::clock_rate, K::worker_clock,
                            K::worker_death, K::worker_pause, K::lost_reply, K::epoch_fail,
                            K::epoch_malformed, K::row_delete, K::lane_mark}));
  // a kind's own name and the group names mix
  EXPECT_EQ(*parse_fault_list("worker_death,lost_reply,ghost"),
            (std::vector<K>{K::worker_death, K::lost_reply, K::row_delete}));
  EXPECT_EQ(*parse_fault_list("lost-reply"), *parse_fault_list("lost_reply"));
  EXPECT_EQ(*parse_fault_list(""), std::vector<K>{});
}

TEST(FaultList, a_bad_name_is_refused_and_named) {
  std::string error;
  EXPECT_FALSE(parse_fault_list("restart,clock-step", &error));
  EXPECT_EQ(error, "unknown fault kind 'clock-step'");
  const std::string help = fault_list_help();
  for (std::string_view name : fault_kind_names()) EXPECT_NE(help.find(name), std::string::npos) << name;
  EXPECT_NE(help.find("clock = clock_step,clock_rate,worker_clock"), std::string::npos) << help;
}

}  // namespace
}  // namespace trafikey::sim
