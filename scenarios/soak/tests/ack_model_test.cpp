// The kill part's model of acknowledged replies: what a restart must keep, what the call in
// flight may have done, and the replies it refuses to believe.
#include <gtest/gtest.h>

#include "scenarios/soak/ack_model.h"

namespace trafikey::soak {
namespace {

const std::string epoch_a(40, 'a');
const std::string epoch_b(40, 'b');
constexpr CallWindow early{1000, 1002};
constexpr CallWindow late{900000, 900002};  // every lease of the tests has expired by then

Reply claimed(const std::string& id, std::int64_t attempts, const std::string& payload) {
  return Reply::array({Reply::array({Reply::bulk(id), Reply::integer(attempts), Reply::bulk(payload)})});
}

Reply sweep(std::vector<std::string> recovered, std::vector<std::string> dead) {
  auto list = [](const std::vector<std::string>& ids) {
    Reply r = Reply::array();
    for (const auto& id : ids) r.items().push_back(Reply::bulk(id));
    return r;
  };
  return Reply::array({Reply::bulk("recovered"), list(recovered), Reply::bulk("dead"), list(dead),
                       Reply::bulk("ghosts"), Reply::array(), Reply::bulk("lanes"), Reply::array()});
}

// One job held under a 10 s lease granted by epoch_a at `early`.
AckModel one_active_job(std::int64_t& transitions) {
  AckModel model("k");
  EXPECT_EQ(model.on_add({"EMQ.ADD", "k", "j1", "p1"}, Reply::integer(1), transitions), "");
  EXPECT_EQ(model.on_claim({"EMQ.CLAIM", "k", "10000", "COUNT", "1"}, claimed("j1", 1, "p1"), early, epoch_a, transitions), "");
  return model;
}

QueueState server_with(const std::string& id, const std::string& state, std::int64_t attempts, double score) {
  QueueState s;
  for (const auto& name : set_names()) s.sets[name];
  s.rows[id] = Row{{"state", state}, {"attempts", std::to_string(attempts)}, {"failures", "0"}, {"payload", "p1"}};
  s.sets[state][id] = score;
  s.seq = 1;
  return s;
}

TEST(AckModel, a_completion_the_client_saw_must_survive_the_restart) {
  std::int64_t transitions = 0;
  AckModel model = one_active_job(transitions);
  EXPECT_EQ(model.on_complete({"EMQ.COMPLETE", "k", "j1", "1"}, Reply::integer(1), {2000, 2001}, transitions), "");
  EXPECT_EQ(transitions, 3);
  EXPECT_FALSE(model.compare(server_with("j1", "active", 1, 11001), std::nullopt).empty());
  EXPECT_TRUE(model.compare(server_with("j1", "done", 1, 2000), std::nullopt).empty());
}

TEST(AckModel, a_completion_in_flight_may_or_may_not_have_happened) {
  std::int64_t transitions = 0;
  const AckModel model = one_active_job(transitions);
  const std::vector<std::string> in_flight{"EMQ.COMPLETE", "k", "j1", "1"};
  EXPECT_TRUE(model.compare(server_with("j1", "active", 1, 11001), in_flight).empty());
  EXPECT_TRUE(model.compare(server_with("j1", "done", 1, 2000), in_flight).empty());
  EXPECT_FALSE(model.compare(server_with("j1", "dead", 1, 2000), in_flight).empty());
}

TEST(AckModel, an_acknowledged_lease_keeps_its_deadline) {
  std::int64_t transitions = 0;
  const AckModel model = one_active_job(transitions);
  EXPECT_FALSE(model.compare(server_with("j1", "active", 1, 50), std::nullopt).empty());
}

TEST(AckModel, a_claim_must_hand_out_the_lowest_pending_first) {
  std::int64_t transitions = 0;
  AckModel model("k");
  model.on_add({"EMQ.ADD", "k", "j1", "p1"}, Reply::integer(1), transitions);
  model.on_add({"EMQ.ADD", "k", "j2", "p2"}, Reply::integer(1), transitions);
  EXPECT_NE(model.on_claim({"EMQ.CLAIM", "k", "100", "COUNT", "1"}, claimed("j2", 1, "p2"), early, epoch_a, transitions), "");
  EXPECT_EQ(model.on_claim({"EMQ.CLAIM", "k", "100", "COUNT", "1"}, claimed("j1", 1, "p1"), early, epoch_a, transitions), "");
}

TEST(AckModel, a_completion_of_an_expired_lease_must_answer_0) {
  std::int64_t transitions = 0;
  AckModel model = one_active_job(transitions);
  EXPECT_NE(model.on_complete({"EMQ.COMPLETE", "k", "j1", "1"}, Reply::integer(1), late, transitions), "");
}

TEST(AckModel, the_sweep_counts_a_lease_of_this_process) {
  std::int64_t transitions = 0;
  AckModel model = one_active_job(transitions);
  EXPECT_NE(model.on_sweep({"EMQ.STALLED.CHECK", "k", "1"}, sweep({"j1"}, {}), late, epoch_a, transitions), "");
  EXPECT_EQ(model.on_sweep({"EMQ.STALLED.CHECK", "k", "1"}, sweep({}, {"j1"}), late, epoch_a, transitions), "");
  EXPECT_EQ(model.jobs().at("j1").state, "dead");
  EXPECT_EQ(model.jobs().at("j1").stalled, 1);
}

TEST(AckModel, the_sweep_exempts_a_lease_of_another_process) {
  std::int64_t transitions = 0;
  AckModel model = one_active_job(transitions);
  EXPECT_NE(model.on_sweep({"EMQ.STALLED.CHECK", "k", "1"}, sweep({}, {"j1"}), late, epoch_b, transitions), "");
  EXPECT_EQ(model.on_sweep({"EMQ.STALLED.CHECK", "k", "1"}, sweep({"j1"}, {}), late, epoch_b, transitions), "");
  EXPECT_EQ(model.jobs().at("j1").state, "pending");
  EXPECT_EQ(model.jobs().at("j1").stalled, 0);
}

TEST(AckModel, the_sweep_must_not_leave_out_an_expired_lease) {
  std::int64_t transitions = 0;
  AckModel model = one_active_job(transitions);
  EXPECT_NE(model.on_sweep({"EMQ.STALLED.CHECK", "k", "3"}, sweep({}, {}), late, epoch_a, transitions), "");
}

TEST(AckModel, a_job_never_acknowledged_may_only_be_the_add_in_flight) {
  const AckModel model("k");
  const QueueState s = server_with("j9", "pending", 0, 1);
  EXPECT_FALSE(model.compare(s, std::nullopt).empty());
  EXPECT_TRUE(model.compare(s, std::vector<std::string>{"EMQ.ADD", "k", "j9", "p"}).empty());
}

}  // namespace
}  // namespace trafikey::soak
