// The adversarial client of a generated run (actor `x`, RunPlan::adversarial_calls): at each
// of its times it sends one call drawn from sim/adversarial_calls.h's catalogues, sometimes
// after an edge probe, sometimes a whole setup, sometimes a fleet call to a replica or under
// an ACL. Its calls go through Runner::call like every other, so the checker judges each.
#include <algorithm>

#include "core/keys.h"
#include "sim/runner.h"

namespace trafikey::sim::driver {

void Runner::on_adversarial_call() {
  if (liveness_) return;  // a safety-phase client only
  AdversaryTarget t = adversary_target(static_cast<int>(world_.prng().between(1, plan_.jobs)));
  // One adversarial call in ten comes after a probe of a live window's edge, drawn from the
  // probes' own stream (edge_prng_).
  if (edge_prng_.chance(100)) send_boundary_probe(t);
  read_target_row(t);
  // One in four sets up a corrupt row, a key of the wrong type or a pending list of ghosts on
  // a queue of its own (a setup costs up to a few hundred calls); one in twenty of the rest
  // sets up numbers and names at their edges.
  const bool corruption = world_.prng().chance(250);
  if (corruption || world_.prng().chance(50)) {
    send_setup(corruption ? draw_corruption_setup(world_.prng(), t) : draw_value_edges(world_.prng(), t));
    return;
  }
  // One in twenty of the rest is a fleet call sent to a replica, one in five of what remains
  // a fleet call under an ACL; the others one call of the catalogue of bad calls.
  if (world_.prng().chance(50)) {
    send_to_a_replica(t);
  } else if (world_.prng().chance(200)) {
    send_under_an_acl(t);
  } else {
    send_as_adversary(draw_adversarial_call(world_.prng(), t));
  }
}

AdversaryTarget Runner::adversary_target(int job) const {
  AdversaryTarget t;
  t.queue = queue_of_job(job);
  t.id = "j" + std::to_string(job);
  t.lease_ms = plan_.lease_ms;
  t.max_stalled = plan_.max_stalled;
  t.server_ms = world_.server_ms();
  t.run_id = world_.run_id();
  return t;
}

void Runner::read_target_row(AdversaryTarget& t) const {
  bool wrong = false;
  if (const Keyspace::Hash* row = world_.data().hash_at(QueueKeys(t.queue).row(t.id), wrong)) {
    const std::string* attempts = Keyspace::hash_field(*row, "attempts");
    const std::string* state = Keyspace::hash_field(*row, "state");
    const std::string* grant = Keyspace::hash_field(*row, "lease");
    t.grant = grant ? *grant : "";
    t.attempts = attempts ? parse_int64(*attempts).value_or(0) : 0;
    t.active = state && *state == "active";
    t.exists = true;
  }
}

// A lease written by hand at or next to now and the one verb that judges it
// (draw_boundary_probe: four calls on a queue of its own, which nothing else touches). A call
// refused (no module) ends it, with its closing DEL.
void Runner::send_boundary_probe(const AdversaryTarget& t) {
  const auto probe = draw_boundary_probe(edge_prng_, t);
  for (const auto& c : probe) {
    if (send_as_adversary(c).is_error() && &c != &probe.back()) {
      send_as_adversary(probe.back());
      break;
    }
  }
}

// A setup's calls in order, each {"@DENY", key} putting the call after it under an ACL that
// denies `key`. A setup call refused (no module, a replica) or an ADD that added nothing ends
// it: what follows would meet keys the setup did not make.
void Runner::send_setup(const std::vector<std::vector<std::string>>& calls) {
  std::string deny;
  for (const auto& c : calls) {
    if (c[0] == "@DENY") {  // the next call goes out under an ACL denying this key
      deny = c[1];
      continue;
    }
    if (!deny.empty()) world_.deny_writes(deny);
    const std::size_t ghosts = c[0] == "EMQ.CLAIM" ? ghosts_in_pending(c[1]) : 0;
    const bool ghost_id = c[0] == "EMQ.ADD" && id_in_a_set(c[1], c[2]);
    if ((c[0] == "EMQ.ADD" || c[0] == "EMQ.FAIL") && seq_at_top(c[1])) saw(Situation::add_or_fail_met_seq_at_top);
    const Reply& reply = send_as_adversary(c);
    if (!deny.empty()) {
      world_.deny_writes("");
      deny.clear();
    }
    if (reply.kind() == Reply::Kind::array) {
      if (ghosts > 100) saw(Situation::claim_met_over_100_ghosts);
      if (ghosts > 1000) saw(Situation::claim_met_over_1000_ghosts);
    }
    if (ghost_id && reply.kind() == Reply::Kind::integer && reply.as_integer() == 1) saw(Situation::add_of_a_ghost_id);
    if (reply.is_error() || (c[0] == "EMQ.ADD" && !(reply.kind() == Reply::Kind::integer && reply.as_integer() == 1))) {
      // the setup's closing DEL still goes out: every id it made stays in the set its state names
      if (&c != &calls.back() && calls.back()[0] == "DEL") send_as_adversary(calls.back());
      break;
    }
  }
}

// A well-formed call of the fleet's own sent to the server while it is a replica (EMQ §6:
// every writing verb meets the fence, READONLY EMQ, and writes nothing; the read verbs
// answer): the world never demotes a server otherwise.
void Runner::send_to_a_replica(const AdversaryTarget& t) {
  world_.set_replica(true);
  std::vector<std::string> replica_call = draw_fleet_call(world_.prng(), t);
  // an ADD of a new id, or (one time in two, when its row exists) of the target's own: an
  // ADD that would write nothing (0 on a primary) still meets the fence first
  if (replica_call[0] == "EMQ.ADD" && t.exists && world_.prng().chance(500)) replica_call[2] = t.id;
  const Reply& reply = send_as_adversary(replica_call);
  if (reply.is_error() && reply.text().starts_with("READONLY EMQ")) saw(Situation::write_refused_on_a_replica);
  world_.set_replica(false);
}

// A fleet call under an ACL that denies one of the keys it would write: EMQ §6, NOPERM EMQ
// and nothing written, where the world otherwise lets every caller write every key. Any of
// them, rows and seq, done and dead too: a verb that forgets to ask about one key writes it
// anyway, and only an ACL on that very key tells. Half the time, when the target holds a
// lease, a lease verb (the writes of a live lease's COMPLETE or FAIL are the ones the fleet's
// calls rarely meet denied).
void Runner::send_under_an_acl(const AdversaryTarget& t) {
  std::vector<std::string> fleet_call = draw_fleet_call(world_.prng(), t);
  if (t.active && world_.prng().chance(500)) {
    const std::string token = std::to_string(t.attempts), lease = std::to_string(t.lease_ms);
    switch (world_.prng().between(0, 3)) {
      case 0: fleet_call = {"EMQ.EXTEND", t.queue, t.id, token, lease}; break;
      case 1: fleet_call = extends_of_every_lease(t, token); break;
      case 2: fleet_call = {"EMQ.COMPLETE", t.queue, t.id, token, "ok"}; break;
      default: fleet_call = {"EMQ.FAIL", t.queue, t.id, token, "r"}; break;
    }
  } else if (world_.prng().chance(333) && expired_lease_in(t.queue)) {
    // a sweep that will judge an expired lease, so a row it writes may be the one denied
    fleet_call = {"EMQ.STALLED.CHECK", t.queue, std::to_string(t.max_stalled)};
  }
  const std::vector<std::string> keys = keys_written(t.queue, fleet_call);
  const std::string& denied = keys[static_cast<std::size_t>(world_.prng().between(0, static_cast<std::int64_t>(keys.size()) - 1))];
  world_.deny_writes(denied);
  const Reply& reply = send_as_adversary(fleet_call);
  if (reply.is_error() && reply.text().starts_with("NOPERM EMQ")) {
    saw(Situation::write_refused_by_acl);
    if (denied.find("}:job:") != std::string::npos) saw(Situation::write_refused_by_acl_on_a_row);
  }
  world_.deny_writes("");
}

std::size_t Runner::ghosts_in_pending(std::string_view q) const {
  if (!valid_queue_name(q)) return 0;
  const QueueKeys keys(q);
  bool wrong = false;
  const Keyspace::Zset* pending = world_.data().zset_at(keys.pending(), wrong);
  std::size_t ghosts = 0;
  if (pending) {
    for (const auto& [score, member] : pending->order) ghosts += world_.data().type(keys.row(member)) != KeyType::hash;
  }
  return ghosts;
}

bool Runner::seq_at_top(std::string_view q) const {
  if (!valid_queue_name(q)) return false;
  bool wrong = false;
  const std::string* seq = world_.data().string_at(QueueKeys(q).seq(), wrong);
  return seq && *seq == "9223372036854775807";
}

bool Runner::id_in_a_set(std::string_view q, std::string_view id) const {
  if (!valid_queue_name(q)) return false;
  const QueueKeys keys(q);
  if (world_.data().type(keys.row(id)) == KeyType::hash) return false;
  bool wrong = false;
  for (const std::string_view set : {keys.pending(), keys.active()}) {
    const Keyspace::Zset* z = world_.data().zset_at(set, wrong);
    if (z && z->scores.find(id)) return true;
  }
  return false;
}

// The keys a fleet call (draw_fleet_call) on `queue` may write, spelt as EMQ §1 names them
// (SpecKeys, as the corruption setups do), not by the core's QueueKeys: the queue's sets and seq as its verb
// writes them (EMQ §4), the rows of the ids it names, and for CLAIM and the sweep the rows
// of the first members they would take (the two lowest in pending; the two longest
// expired in active). Read from the dataset, never written; never empty.
std::vector<std::string> Runner::keys_written(const std::string& queue, const std::vector<std::string>& call) const {
  const std::string_view verb = call[0];
  const SpecKeys k(queue);
  auto key = [&](std::string_view suffix) { return k.key(suffix); };
  std::vector<std::string> keys;
  auto first_members = [&](std::string_view set) {
    bool wrong = false;
    const Keyspace::Zset* z = world_.data().zset_at(key(set), wrong);
    if (!z) return;
    int taken = 0;
    for (const auto& [score, member] : z->order) {
      if (taken++ == 2) break;
      keys.push_back(key("job:") + member);
    }
  };
  if (verb == "EMQ.ADD") {
    keys = {key("job:") + call[2], key("seq"), key("pending")};
  } else if (verb == "EMQ.CLAIM") {
    keys = {key("pending"), key("active")};
    first_members("pending");
  } else if (verb == "EMQ.EXTEND") {
    keys = {key("active"), key("job:") + call[2]};
  } else if (verb == "EMQ.EXTENDS") {
    keys = {key("active")};
    for (std::size_t i = 3; i + 1 < call.size(); i += 2) keys.push_back(key("job:") + call[i]);
  } else if (verb == "EMQ.COMPLETE") {
    keys = {key("active"), key("done"), key("job:") + call[2]};
  } else if (verb == "EMQ.FAIL") {
    keys = {key("active"), key("pending"), key("seq"), key("dead"), key("job:") + call[2]};
  } else if (verb == "EMQ.STALLED.CHECK") {
    keys = {key("active"), key("pending"), key("dead")};
    first_members("active");
  } else {
    keys = {key("pending")};  // a read verb: writes nothing, whatever is denied
  }
  return keys;
}

std::vector<std::string> Runner::extends_of_every_lease(const AdversaryTarget& t, const std::string& token) const {
  std::vector<std::string> call{"EMQ.EXTENDS", t.queue, std::to_string(t.lease_ms), t.id, token};
  bool wrong = false;
  const QueueKeys keys(t.queue);
  const Keyspace::Zset* active = world_.data().zset_at(keys.active(), wrong);
  if (!active) return call;
  for (const auto& [score, member] : active->order) {
    if (member == t.id) continue;
    const Keyspace::Hash* row = world_.data().hash_at(keys.row(member), wrong);
    const std::string* attempts = row ? Keyspace::hash_field(*row, "attempts") : nullptr;
    if (!attempts) continue;
    call.push_back(member);
    call.push_back(*attempts);
  }
  return call;
}

const Reply& Runner::send_as_adversary(const std::vector<std::string>& argv) {
  argv_.clear();
  for (const std::string& arg : argv) argv_.add(arg);
  return call("x", argv_).reply;
}

bool Runner::expired_lease_in(const std::string& queue) const {
  bool wrong = false;
  const Keyspace::Zset* active = world_.data().zset_at(QueueKeys(queue).active(), wrong);
  return active && !active->order.empty() && active->order.begin()->first < static_cast<double>(world_.server_ms());
}

}  // namespace trafikey::sim::driver
