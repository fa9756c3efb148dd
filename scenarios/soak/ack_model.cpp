#include "scenarios/soak/ack_model.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/args.h"
#include "core/text.h"
#include "scenarios/soak/part_run.h"

namespace trafikey::soak {

namespace {

std::int64_t number(const std::string& text) { return parse_int64(text).value_or(-1); }

std::string expected_one_of(const Reply& reply, const std::string& what) {
  return "reply " + render_reply(reply) + " where the acknowledged history allows " + what;
}

// The fields a restart must keep, as a comparable tuple.
using Fields = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t>;
Fields fields_of(const ModelJob& job) { return {job.state, job.attempts, job.failures, job.stalled}; }
Fields fields_of(const Row& row) {
  const auto state = row.find("state");
  return {state == row.end() ? "" : state->second, QueueState::field(row, "attempts", -1),
          QueueState::field(row, "failures", -1), QueueState::field(row, "stalled", 0)};
}
std::string describe(const Fields& f) {
  return std::get<0>(f) + " attempts " + std::to_string(std::get<1>(f)) + " failures " + std::to_string(std::get<2>(f)) +
         " stalled " + std::to_string(std::get<3>(f));
}

}  // namespace

std::vector<std::string> AckModel::pending_order() const {
  std::vector<std::pair<double, std::string>> pending;
  for (const auto& [id, job] : jobs_) {
    if (job.state == "pending") pending.emplace_back(job.pending_score, id);
  }
  std::sort(pending.begin(), pending.end());
  std::vector<std::string> out;
  for (auto& p : pending) out.push_back(std::move(p.second));
  return out;
}

std::vector<std::string> AckModel::ids_in(const std::string& state) const {
  std::vector<std::string> out;
  for (const auto& [id, job] : jobs_) {
    if (job.state == state) out.push_back(id);
  }
  return out;
}

Liveness AckModel::liveness(const ModelJob& job, std::int64_t attempts, const CallWindow& at) const {
  if (job.state != "active" || job.attempts != attempts) return Liveness::expired;
  if (job.deadline_lo_ms >= at.answered_ms) return Liveness::live;
  if (job.deadline_hi_ms < at.sent_ms) return Liveness::expired;
  return Liveness::either;
}

std::string AckModel::on_add(const std::vector<std::string>& argv, const Reply& reply, std::int64_t& transitions) {
  const std::string& id = argv[2];
  const bool exists = jobs_.contains(id);
  if (reply != Reply::integer(exists ? 0 : 1)) return expected_one_of(reply, exists ? "0 (the row exists)" : "1");
  if (exists) return {};
  ModelJob job;
  job.state = "pending";
  job.payload = argv[3];
  job.max_failures = argv.size() >= 6 ? number(argv[5]) : 3;
  job.pending_score = static_cast<double>(++seq_);
  job.last_call = render_call(argv);
  jobs_[id] = job;
  ++transitions;
  return {};
}

std::string AckModel::on_claim(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                               const std::string& epoch, std::int64_t& transitions) {
  const std::int64_t lease_ms = number(argv[2]);
  const std::int64_t count = argv.size() >= 5 ? number(argv[4]) : 1;
  std::vector<std::string> order = pending_order();
  if (static_cast<std::int64_t>(order.size()) > count) order.resize(static_cast<std::size_t>(count));
  Reply want = Reply::array();
  for (const auto& id : order) {
    const ModelJob& job = jobs_.at(id);
    want.items().push_back(Reply::array({Reply::bulk(id), Reply::integer(job.attempts + 1), Reply::bulk(job.payload)}));
  }
  if (reply != want) return expected_one_of(reply, render_reply(want) + " (the lowest pending first)");
  for (const auto& id : order) {
    ModelJob& job = jobs_.at(id);
    job.state = "active";
    ++job.attempts;
    job.deadline_lo_ms = at.sent_ms + lease_ms;
    job.deadline_hi_ms = at.answered_ms + lease_ms;
    job.lease_epoch = epoch;
    job.last_call = render_call(argv);
    ++transitions;
  }
  return {};
}

// EXTEND and COMPLETE answer 1 for a live lease, 0 for one that is not; a lease whose
// deadline fell inside the call's window may be either. "" when `reply` fits.
std::string AckModel::check_zero_or_one(std::map<std::string, ModelJob>::iterator it,
                                        const std::vector<std::string>& argv, const Reply& reply,
                                        const CallWindow& at) const {
  const Liveness live = it == jobs_.end() ? Liveness::expired : liveness(it->second, number(argv[3]), at);
  const bool ok = reply == Reply::integer(0) ? live != Liveness::live
                  : reply == Reply::integer(1) ? live != Liveness::expired
                                               : false;
  if (ok) return {};
  return expected_one_of(reply, live == Liveness::live ? "1 (live)" : live == Liveness::expired ? "0 (not live)" : "0 or 1");
}

std::string AckModel::on_extend(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                                const std::string& epoch, std::int64_t& transitions) {
  auto it = jobs_.find(argv[2]);
  if (std::string wrong = check_zero_or_one(it, argv, reply, at); !wrong.empty()) return wrong;
  if (reply.as_integer() == 1) {
    const std::int64_t lease_ms = number(argv[4]);
    it->second.deadline_lo_ms = at.sent_ms + lease_ms;
    it->second.deadline_hi_ms = at.answered_ms + lease_ms;
    it->second.lease_epoch = epoch;
    it->second.last_call = render_call(argv);
    ++transitions;
  }
  return {};
}

std::string AckModel::on_complete(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                                  std::int64_t& transitions) {
  auto it = jobs_.find(argv[2]);
  if (std::string wrong = check_zero_or_one(it, argv, reply, at); !wrong.empty()) return wrong;
  if (reply.as_integer() == 1) {
    it->second.state = "done";
    it->second.last_call = render_call(argv);
    ++transitions;
  }
  return {};
}

std::string AckModel::on_fail(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                              std::int64_t& transitions) {
  auto it = jobs_.find(argv[2]);
  const Liveness live = it == jobs_.end() ? Liveness::expired : liveness(it->second, number(argv[3]), at);
  std::int64_t if_live = 0;
  if (live != Liveness::expired) if_live = it->second.failures + 1 < it->second.max_failures ? 1 : 2;
  const bool ok = reply == Reply::integer(0) ? live != Liveness::live
                  : reply.kind() == Reply::Kind::integer ? live != Liveness::expired && reply.as_integer() == if_live
                                                         : false;
  if (!ok) {
    return expected_one_of(reply, live == Liveness::expired ? "0 (not live)"
                                  : (live == Liveness::either ? "0 or " : "") + std::to_string(if_live));
  }
  if (reply.as_integer() == 0) return {};
  ModelJob& job = it->second;
  ++job.failures;
  if (reply.as_integer() == 1) {
    job.state = "pending";
    job.pending_score = static_cast<double>(++seq_);
  } else {
    job.state = "dead";
  }
  job.last_call = render_call(argv);
  ++transitions;
  return {};
}

std::string AckModel::on_sweep(const std::vector<std::string>& argv, const Reply& reply, const CallWindow& at,
                               const std::string& epoch, std::int64_t& transitions) {
  const std::int64_t max_stalled = number(argv[2]);
  const auto& items = reply.items_if_array();
  const auto list = [&](std::size_t i) { return items[i].kind() == Reply::Kind::array; };
  if (items.size() != 8 || items[0] != Reply::bulk("recovered") || items[2] != Reply::bulk("dead") ||
      items[4] != Reply::bulk("ghosts") || items[6] != Reply::bulk("lanes") || !list(1) || !list(3) || !list(5) ||
      !list(7)) {
    return "reply " + render_reply(reply) + " is not recovered [..] dead [..] ghosts [..] lanes [..]";
  }
  if (!items[5].items().empty() || !items[7].items().empty()) {
    return "reply " + render_reply(reply) + " lists ghosts or lanes in a queue that has neither";
  }
  std::map<std::string, std::string> listed;  // id -> "recovered" / "dead"
  for (const Reply& id : items[1].items()) listed[id.text()] = "recovered";
  for (const Reply& id : items[3].items()) {
    if (listed.contains(id.text())) return "reply " + render_reply(reply) + " lists " + id.text() + " twice";
    listed[id.text()] = "dead";
  }
  for (const auto& [id, job] : jobs_) {
    if (job.state != "active") continue;
    const Liveness live = liveness(job, job.attempts, at);
    if (live == Liveness::expired && !listed.contains(id)) {
      return "reply " + render_reply(reply) + " leaves out " + id + ", whose lease expired (" + job.last_call + ")";
    }
  }
  for (const auto& [id, verdict] : listed) {
    auto it = jobs_.find(id);
    if (it == jobs_.end() || it->second.state != "active") {
      return "reply " + render_reply(reply) + " sweeps " + id + ", which holds no lease";
    }
    ModelJob& job = it->second;
    if (liveness(job, job.attempts, at) == Liveness::live) {
      return "reply " + render_reply(reply) + " sweeps " + id + ", whose lease is live (" + job.last_call + ")";
    }
    // EMQ §5: a lease another process granted is exempt (back to pending, uncounted); one
    // this process granted is counted, and dead-lettered at max_stalled.
    const bool exempt = job.lease_epoch != epoch;
    const std::int64_t stalled = exempt ? job.stalled : job.stalled + 1;
    const std::string want = !exempt && stalled >= max_stalled ? "dead" : "recovered";
    if (verdict != want) {
      return "reply " + render_reply(reply) + " lists " + id + " as " + verdict + " but its lease (epoch " +
             job.lease_epoch + ", this server " + epoch + ", stalled " + std::to_string(job.stalled) + ") makes it " +
             want;
    }
    job.stalled = stalled;
    job.state = want == "dead" ? "dead" : "pending";
    job.pending_score = 0;
    job.last_call = render_call(argv);
    ++transitions;
  }
  return {};
}

std::vector<std::string> AckModel::compare(const QueueState& real,
                                           const std::optional<std::vector<std::string>>& in_flight) const {
  std::vector<std::string> problems;
  const std::string verb = in_flight ? upper((*in_flight)[0]) : "";
  const auto flight_arg = [&](std::size_t i) { return in_flight && in_flight->size() > i ? (*in_flight)[i] : ""; };
  std::vector<std::string> claimed_in_flight;
  for (const auto& [id, job] : jobs_) {
    const auto row = real.rows.find(id);
    if (row == real.rows.end()) {
      problems.push_back("job " + id + " is gone after the restart (acknowledged: " + job.last_call + ")");
      continue;
    }
    const Fields have = fields_of(row->second);
    const Fields acked = fields_of(job);
    if (have == acked) {
      // Unmoved: its order in pending, or its deadline, survived too.
      const auto& pending = real.sets.at("pending");
      if (job.state == "pending" && pending.contains(id) && pending.at(id) != job.pending_score) {
        problems.push_back("job " + id + " is pending with score " + std::to_string(pending.at(id)) + ", acknowledged " +
                           std::to_string(job.pending_score) + " (" + job.last_call + ")");
      }
      const auto& active = real.sets.at("active");
      const bool extended_in_flight = verb == "EMQ.EXTEND" && flight_arg(2) == id;
      if (job.state == "active" && active.contains(id) && !extended_in_flight &&
          (active.at(id) < static_cast<double>(job.deadline_lo_ms) ||
           active.at(id) > static_cast<double>(job.deadline_hi_ms))) {
        problems.push_back("job " + id + " has lease deadline " + std::to_string(active.at(id)) + ", acknowledged " +
                           std::to_string(job.deadline_lo_ms) + ".." + std::to_string(job.deadline_hi_ms) + " (" +
                           job.last_call + ")");
      }
      continue;
    }
    // What the call in flight could have done to this job.
    std::vector<Fields> allowed;
    const auto& [state, attempts, failures, stalled] = acked;
    const bool names_it = flight_arg(2) == id && number(flight_arg(3)) == attempts;
    if (verb == "EMQ.CLAIM" && state == "pending") allowed.push_back({"active", attempts + 1, failures, stalled});
    if (verb == "EMQ.COMPLETE" && names_it && state == "active") allowed.push_back({"done", attempts, failures, stalled});
    if (verb == "EMQ.FAIL" && names_it && state == "active") {
      allowed.push_back({"pending", attempts, failures + 1, stalled});
      allowed.push_back({"dead", attempts, failures + 1, stalled});
    }
    if (verb == "EMQ.STALLED.CHECK" && state == "active") {
      allowed.push_back({"pending", attempts, failures, stalled});
      allowed.push_back({"pending", attempts, failures, stalled + 1});
      allowed.push_back({"dead", attempts, failures, stalled + 1});
    }
    if (std::find(allowed.begin(), allowed.end(), have) == allowed.end()) {
      problems.push_back("job " + id + " is " + describe(have) + " after the restart; acknowledged " + describe(acked) +
                         " (" + job.last_call + ")" + (in_flight ? "; in flight: " + render_call(*in_flight) : ""));
    } else if (verb == "EMQ.CLAIM") {
      claimed_in_flight.push_back(id);
    }
  }
  if (!claimed_in_flight.empty()) {
    // The CLAIM in flight took the lowest pending ids, at most COUNT of them.
    std::vector<std::string> lowest = pending_order();
    lowest.resize(std::min(lowest.size(), claimed_in_flight.size()));
    std::sort(lowest.begin(), lowest.end());
    const std::int64_t count = in_flight->size() >= 5 ? number((*in_flight)[4]) : 1;
    if (lowest != claimed_in_flight || static_cast<std::int64_t>(claimed_in_flight.size()) > count) {
      problems.push_back("the CLAIM in flight (" + render_call(*in_flight) + ") took " +
                         std::to_string(claimed_in_flight.size()) + " jobs that are not the lowest pending");
    }
  }
  for (const auto& [id, row] : real.rows) {
    if (jobs_.contains(id)) continue;
    const bool added_in_flight = verb == "EMQ.ADD" && flight_arg(2) == id && fields_of(row) == Fields{"pending", 0, 0, 0};
    if (!added_in_flight) problems.push_back("job " + id + " is " + describe(fields_of(row)) + " but was never acknowledged");
  }
  const std::int64_t seq = real.seq.value_or(0);
  const bool may_incr = verb == "EMQ.ADD" || verb == "EMQ.FAIL";
  if (seq != seq_ && !(may_incr && seq == seq_ + 1)) {
    problems.push_back("seq is " + std::to_string(seq) + " after the restart, acknowledged " + std::to_string(seq_));
  }
  return problems;
}

void AckModel::adopt(const QueueState& real) {
  std::map<std::string, ModelJob> jobs;
  for (const auto& [id, row] : real.rows) {
    ModelJob job;
    const auto old = jobs_.find(id);
    if (old != jobs_.end()) job.last_call = old->second.last_call;
    std::tie(job.state, job.attempts, job.failures, job.stalled) = fields_of(row);
    job.max_failures = QueueState::field(row, "max_failures", 3);
    if (auto p = row.find("payload"); p != row.end()) job.payload = p->second;
    if (auto e = row.find("lease_epoch"); e != row.end()) job.lease_epoch = e->second;
    if (auto s = real.sets.at("pending").find(id); s != real.sets.at("pending").end()) job.pending_score = s->second;
    if (auto s = real.sets.at("active").find(id); s != real.sets.at("active").end()) {
      job.deadline_lo_ms = job.deadline_hi_ms = static_cast<std::int64_t>(std::llround(s->second));
    }
    jobs[id] = std::move(job);
  }
  jobs_ = std::move(jobs);
  seq_ = real.seq.value_or(0);
}

}  // namespace trafikey::soak
