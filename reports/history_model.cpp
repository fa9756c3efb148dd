#include "reports/history_model.h"

#include "core/text.h"
#include "core/verbs/common.h"
#include "sim/call_effects.h"
#include "sim/history.h"
#include "sim/history_read.h"
#include "sim/sha256.h"
#include "sim/world.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace trafikey::reports {

std::string_view lease_end_name(LeaseEnd end) {
  switch (end) {
    case LeaseEnd::open: return "open";
    case LeaseEnd::completed: return "completed";
    case LeaseEnd::requeued: return "failed, requeued";
    case LeaseEnd::failed_dead: return "failed, dead";
    case LeaseEnd::swept: return "swept";
    case LeaseEnd::rolled_back: return "lost by persistence";
    case LeaseEnd::superseded: return "superseded";
  }
  return "?";
}

void ServerClockTrace::add(std::int64_t true_ms, std::int64_t server_ms, std::int64_t rate_per_mille) {
  points_.push_back({true_ms, server_ms, rate_per_mille});
}

std::optional<std::int64_t> ServerClockTrace::true_time_of(std::int64_t value_server_ms,
                                                           std::size_t from) const {
  for (std::size_t i = from; i < points_.size(); ++i) {
    const Point& p = points_[i];
    if (p.server_ms >= value_server_ms) return p.true_ms;
    if (p.rate_per_mille <= 0) continue;
    // Between two lines the clock is linear at the rate in force (steps are lines).
    const double wait_ms = std::ceil(static_cast<double>(value_server_ms - p.server_ms) * 1000.0 /
                                static_cast<double>(p.rate_per_mille));
    if (wait_ms > 1e15) return std::nullopt;  // beyond any drawing
    const std::int64_t reach_ms = p.true_ms + static_cast<std::int64_t>(wait_ms);
    if (i + 1 == points_.size() || reach_ms <= points_[i + 1].true_ms) return reach_ms;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> RunModel::seed() const {
  auto read = [](const Json& obj, const char* key) -> std::optional<std::uint64_t> {
    if (!obj.is_object() || !obj.contains(key)) return std::nullopt;
    const Json& v = obj[key];
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) {
      return static_cast<std::uint64_t>(v.get<std::int64_t>());
    }
    return std::nullopt;
  };
  if (header.contains("plan")) {
    if (auto s = read(header["plan"], "seed")) return s;
  }
  if (auto s = read(header, "seed")) return s;
  if (header.contains("options")) return read(header["options"], "seed");
  return std::nullopt;
}

std::string RunModel::job_label(const JobKey& job) const {
  return one_queue ? job.id : job.queue + "/" + job.id;
}

namespace {

std::optional<std::int64_t> to_int(const Json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return out;
}

std::string str(const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// `carried` when it is a wire 2 token (EMQ §8), read as the core reads a lease verb's token
// argument (one reader of its shape); "" for a wire 1 token or none.
std::string wire2_of(std::string_view carried) {
  const auto token = verbs::token_arg(carried);
  return token.ok() && token.value().wire2() ? std::string(carried) : std::string();
}

// What a move did with the token it handed out or carried, as the report lists it.
std::string_view wire2_answer(sim::JobMove kind) {
  switch (kind) {
    case sim::JobMove::grant: return "granted";
    case sim::JobMove::extend: return "extended";
    case sim::JobMove::complete: return "completed";
    case sim::JobMove::requeue: return "requeued";
    case sim::JobMove::dead: return "dead-lettered";
    case sim::JobMove::refused: return "refused";
    default: return {};
  }
}

// Replays one history into a RunModel (see the header for what is modelled).
class Builder {
 public:
  explicit Builder(RunModel& m) : m_(m) {}

  void call(const CallLine& c, const sim::HistoryLine& line);
  void fault(const WorldEvent& e);
  void verdict(const At& at, const std::string& actor, const std::string& id,
               const std::string& kind, int stamp_inc);
  void finish();

 private:
  struct Row {
    RowState s;
    int lease = -1;  // index into m_.leases of the row's lease
  };
  struct Undo {
    std::int64_t call;
    JobKey job;
    std::optional<Row> before;
  };

  Row& row(const JobKey& job) {
    if (seen_.insert(job).second) m_.jobs.push_back(job);
    return rows_[job];
  }
  // Records the row's value before the current call changes it (persistence rollback).
  Row& change(const JobKey& job) {
    row(job);
    auto it = rows_.find(job);
    undo_.push_back({call_, job, it->second});
    return it->second;
  }
  void transition(const JobKey& job, std::string_view from_default, std::string_view to,
                  std::string_view cause) {
    const Row& r = row(job);
    const std::string from = r.s.state.empty() ? std::string(from_default) : r.s.state;
    EdgeCount& e = m_.edges[{from, std::string(to)}];
    ++e.count;
    ++e.by_cause[std::string(cause)];
  }
  Lease* open_lease(const JobKey& job, std::optional<std::int64_t> token) {
    auto it = rows_.find(job);
    if (it == rows_.end() || it->second.lease < 0) return nullptr;
    Lease& l = m_.leases[static_cast<std::size_t>(it->second.lease)];
    if (l.end != LeaseEnd::open || (token && l.token != *token)) return nullptr;
    return &l;
  }
  void end_lease(Lease* l, LeaseEnd how, const At& at, std::string verdict = {}) {
    if (!l) return;
    l->end = how;
    l->ended = at;
    l->end_call = call_;
    l->end_verdict = std::move(verdict);
  }
  // `verb`: what the history calls the verb (EMQ.CLAIM, or claim.lua for the scripted
  // executor's call that stands for it)
  // `wire2`: the wire 2 token handed out or carried (EMQ §8); empty: wire 1
  void grant(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
             std::int64_t lease_ms, std::string wire2);
  void extend(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
              std::int64_t lease_ms, std::string wire2);
  void finish_call(const CallLine& c, std::string_view verb, sim::JobMove how, const JobKey& job,
                   std::int64_t token);
  void hand_row(const CallLine& c, const JobKey& job, const sim::Move& m);
  void hand_deadline(const JobKey& job, std::int64_t deadline_server_ms);
  void rollback(std::int64_t kept, const At& at);

  RunModel& m_;
  std::map<JobKey, Row> rows_;
  std::set<JobKey> seen_;
  std::vector<Undo> undo_;
  std::int64_t call_ = 0;
  std::map<std::string, std::string> sweep_queue_;  // actor -> queue of its last sweep
  sim::CallEffects effects_;  // the current call's moves (sim/call_effects.h)
};

void Builder::grant(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
                    std::int64_t lease_ms, std::string wire2) {
  transition(job, "pending", "active", verb == "EMQ.CLAIM" ? "CLAIM" : verb);
  end_lease(open_lease(job, std::nullopt), LeaseEnd::superseded, c.at);
  Lease l;
  l.job = job;
  l.token = token;
  l.lease_ms = lease_ms;
  l.segments.push_back({c.at, c.index, std::string(verb), c.actor, c.at.server_ms + lease_ms, std::nullopt,
                        c.lost, false, std::move(wire2)});
  m_.leases.push_back(std::move(l));
  Row& r = change(job);
  r.s.state = "active";
  r.s.attempts = token;
  r.lease = static_cast<int>(m_.leases.size() - 1);
}

void Builder::extend(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
                     std::int64_t lease_ms, std::string wire2) {
  row(job);
  if (Lease* l = open_lease(job, token)) {
    l->segments.push_back({c.at, c.index, std::string(verb), c.actor, c.at.server_ms + lease_ms, std::nullopt,
                           c.lost, false, std::move(wire2)});
  }
}

void Builder::finish_call(const CallLine& c, std::string_view verb, sim::JobMove how, const JobKey& job,
                          std::int64_t token) {
  Lease* l = open_lease(job, token);
  if (how == sim::JobMove::complete) {
    transition(job, "active", "done", verb == "EMQ.COMPLETE" ? "COMPLETE 1" : std::string(verb) + " 1");
    end_lease(l, LeaseEnd::completed, c.at);
    change(job).s.state = "done";
    return;
  }
  const bool dead = how == sim::JobMove::dead;
  transition(job, "active", dead ? "dead" : "pending", dead ? "FAIL 2" : "FAIL 1");
  end_lease(l, dead ? LeaseEnd::failed_dead : LeaseEnd::requeued, c.at);
  Row& r = change(job);
  r.s.state = dead ? "dead" : "pending";
  ++r.s.failures;
}

// A row written by a plain HSET (the adversarial client's probes set leases up by hand): a
// row written `active` holds a lease no CLAIM granted, drawn from here (its deadline is the
// server time of the write until a ZADD to the active set gives one), so that the verbs and
// the sweep that meet it later end a lease the timeline shows, as the ledger adopts it.
void Builder::hand_row(const CallLine& c, const JobKey& job, const sim::Move& m) {
  const std::string state(m.state);
  m_.row_edits.push_back({c.at, job,
                          "row written by " + c.actor + " (HSET" +
                              (state.empty() ? std::string() : " state " + sim::history_text(state)) +
                              "): set up by hand"});
  if (state != "active" && state != "pending" && state != "done" && state != "dead") {
    row(job);
    return;
  }
  if (state == "active") {
    end_lease(open_lease(job, std::nullopt), LeaseEnd::superseded, c.at);
    Lease l;
    l.job = job;
    l.token = m.token;
    l.segments.push_back({c.at, c.index, "HSET", c.actor, c.at.server_ms, std::nullopt, c.lost, false, {}});
    m_.leases.push_back(std::move(l));
  }
  Row& r = change(job);
  r.s.state = state;
  if (m.token) r.s.attempts = m.token;
  if (state == "active") r.lease = static_cast<int>(m_.leases.size() - 1);
}

// A ZADD to a queue's active set gives a lease set up by hand its deadline.
void Builder::hand_deadline(const JobKey& job, std::int64_t deadline_server_ms) {
  Lease* l = open_lease(job, std::nullopt);
  if (l && l->segments.size() == 1 && l->segments.front().verb == "HSET") {
    l->segments.front().deadline_server_ms = deadline_server_ms;
  }
}

void Builder::call(const CallLine& c, const sim::HistoryLine& line) {
  call_ = c.index;
  ++m_.calls_by_verb[c.verb];
  if (c.lost) {
    ++m_.lost_replies;
    ++m_.fault_counts["lost_reply"];
  }
  if (line.reply.is_error()) {
    ++m_.error_replies;
    return;
  }
  const std::vector<std::string_view> argv(line.argv.begin(), line.argv.end());
  sim::decode_call(argv, line.reply, effects_);
  if (effects_.verb == sim::spec::EmqVerb::sweep) sweep_queue_[c.actor] = sim::history_text(argv[1]);
  const std::string_view mover = effects_.mover;
  // a refused COMPLETE or FAIL still names its job's row
  const bool finishes = effects_.verb == sim::spec::EmqVerb::complete ||
                        effects_.verb == sim::spec::EmqVerb::fail ||
                        effects_.script == sim::ExecutorScript::complete;
  for (const sim::Move& m : effects_.moves) {
    const JobKey job{sim::history_text(m.queue), sim::history_text(m.id)};
    std::string wire2 = wire2_of(m.carried);
    if (!wire2.empty() && !wire2_answer(m.kind).empty()) {
      m_.wire2_uses.push_back({c.at, job, std::string(mover), wire2, std::string(wire2_answer(m.kind))});
    }
    switch (m.kind) {
      case sim::JobMove::add: {
        Row& r = change(job);
        r = Row{};
        r.s.state = "pending";
        m_.added_true_ms.emplace(job, c.at.true_ms);
        break;
      }
      case sim::JobMove::grant: grant(c, mover, job, m.token, m.amount, std::move(wire2)); break;
      case sim::JobMove::extend:
        extend(c, mover, job, m.carried_token().value_or(0), m.amount, std::move(wire2));
        break;
      case sim::JobMove::complete:
      case sim::JobMove::requeue:
      case sim::JobMove::dead:
        row(job);
        finish_call(c, mover, m.kind, job, m.carried_token().value_or(0));
        break;
      case sim::JobMove::refused:
        if (finishes) row(job);
        m_.refusals.push_back(
            {c.at, job, std::string(mover), m.carried_token().value_or(0), std::move(wire2)});
        break;
      case sim::JobMove::ghost:
        // An operator (or an old script) deleting a row: the id is left in its set, a ghost.
        ++m_.fault_counts["row_delete"];
        change(job).s.state = "deleted";
        m_.row_edits.push_back(
            {c.at, job, "row deleted by " + c.actor + " (" + std::string(mover) + "): the id is a ghost"});
        break;
      case sim::JobMove::lane:
        // Writing `group` makes a lane row, which the sweep leaves alone (EMQ §5).
        ++m_.fault_counts["lane_mark"];
        row(job);
        m_.row_edits.push_back({c.at, job, "group written by " + c.actor + " (HSET): a lane row"});
        break;
      case sim::JobMove::row_written: hand_row(c, job, m); break;
      case sim::JobMove::deadline: hand_deadline(job, m.amount); break;
      case sim::JobMove::sweep_recovered:
      case sim::JobMove::sweep_dead:
      case sim::JobMove::sweep_ghost:
      case sim::JobMove::sweep_lane:
        break;  // the world's verdict lines say what the sweep did to each (verdict())
    }
  }
}

void Builder::verdict(const At& at, const std::string& actor, const std::string& id,
                      const std::string& kind, int stamp_inc) {
  const JobKey job{sweep_queue_.count(actor) ? sweep_queue_[actor] : std::string(), id};
  row(job);
  m_.verdicts.push_back({at, actor, job, kind, stamp_inc});
  ++m_.verdict_counts[kind];
  using sim::SweepVerdict;
  const auto is = [&](SweepVerdict v) { return kind == sim::sweep_verdict_name(v); };
  if (is(SweepVerdict::lane)) return;  // left untouched (EMQ §5)
  Lease* l = open_lease(job, std::nullopt);
  end_lease(l, LeaseEnd::swept, at, kind);
  if (is(SweepVerdict::ghost)) {
    change(job).s.state = "ghost";
    return;
  }
  const bool dead = is(SweepVerdict::counted_dead);
  transition(job, "active", dead ? "dead" : "pending", kind);
  Row& r = change(job);
  r.s.state = dead ? "dead" : "pending";
  if (!is(SweepVerdict::exempt)) ++r.s.stalled;
}

void Builder::rollback(std::int64_t kept, const At& at) {
  while (!undo_.empty() && undo_.back().call > kept) {
    Undo& u = undo_.back();
    if (u.before) {
      rows_[u.job] = *u.before;
    } else {
      rows_.erase(u.job);
    }
    undo_.pop_back();
  }
  for (Lease& l : m_.leases) {
    if (l.end == LeaseEnd::rolled_back) continue;
    for (LeaseSegment& s : l.segments) s.rolled_back = s.rolled_back || s.call > kept;
    if (l.segments.front().call > kept) {
      l.end = LeaseEnd::rolled_back;
      l.ended = at;
      l.end_call = call_;
      l.end_verdict.clear();
    } else if (l.end != LeaseEnd::open && l.end_call > kept) {
      l.end = LeaseEnd::open;  // the call that ended it was lost: the lease is back
      l.end_verdict.clear();
    }
  }
}

void Builder::fault(const WorldEvent& e) {
  m_.events.push_back(e);
  ++m_.fault_counts[e.name];
  // a failback's span is an earlier process's again (its number; no new process)
  if (e.name != "start" && e.name != "restart" && e.name != "failover" && e.name != "failback") return;
  if (e.name == "failback" && !e.fields.value("standby", true)) return;  // nothing happened
  Incarnation inc;
  inc.number = e.at.inc;
  inc.started = e.at;
  inc.cause = e.name;
  inc.run_id = e.fields.contains("run_id") ? str(e.fields["run_id"]) : "";
  inc.module_loaded = e.fields.value("module", false);
  if (e.fields.contains("kept_calls")) inc.kept_calls = to_int(e.fields["kept_calls"]).value_or(-1);
  if (e.fields.contains("lost_calls")) inc.lost_calls = to_int(e.fields["lost_calls"]).value_or(0);
  m_.incarnations.push_back(inc);
  if (inc.kept_calls >= 0 && inc.kept_calls < call_) rollback(inc.kept_calls, e.at);
}

void Builder::finish() {
  for (const auto& [job, r] : rows_) {
    m_.final_rows[job] = r.s;
    // A job the history names whose row no reply showed (e.g. its ADD was rolled back by a
    // restart that lost it, or only refused calls name it): say so rather than "".
    if (r.s.state.empty()) m_.final_rows[job].state = "no row";
  }
  for (const JobKey& job : m_.jobs) m_.one_queue = m_.one_queue && job.queue == m_.jobs.front().queue;
  for (Lease& l : m_.leases) {
    for (LeaseSegment& s : l.segments) {
      s.deadline_true_ms = m_.clock.true_time_of(s.deadline_server_ms, static_cast<std::size_t>(s.at.line - 2));
    }
  }
}

}  // namespace

std::optional<RunModel> parse_history(std::string_view text, std::string* error) {
  auto read = sim::read_history(text, error);
  if (!read) return std::nullopt;
  RunModel m;
  m.fingerprint = sim::sha256_hex(text);
  m.lines.assign(read->lines.begin(), read->lines.end());
  m.header = std::move(read->header);
  m.kind = read->kind;

  // The server clock trace first: lease deadlines are placed on the true-time axis with it.
  std::int64_t rate = 1000;
  for (const sim::HistoryLine& line : read->events) {
    if (line.kind == sim::HistoryLine::Kind::fault && line.name == "clock_rate") rate = *line.integer("rate_per_mille");
    m.clock.add(line.at.true_ms, line.at.server_ms, rate);
  }

  Builder b(m);
  std::int64_t calls = 0;
  for (const sim::HistoryLine& line : read->events) {
    const At at{line.number, line.at.true_ms, line.at.server_ms, line.at.incarnation};
    m.end_true_ms = at.true_ms;
    switch (line.kind) {
      case sim::HistoryLine::Kind::call: {
        CallLine c;
        c.at = at;
        c.index = ++calls;
        c.actor = line.json["actor"].get<std::string>();
        c.call = line.json["call"];
        c.reply = line.json["reply"];
        c.lost = line.lost;
        c.verb = upper(c.call[0].get<std::string>());
        b.call(c, line);
        m.calls.push_back(std::move(c));
        break;
      }
      case sim::HistoryLine::Kind::fault: b.fault({at, line.name, line.fields}); break;
      case sim::HistoryLine::Kind::verdict:
        b.verdict(at, line.json["actor"].get<std::string>(), line.json["job"].get<std::string>(), line.name,
                  line.stamp_inc);
        break;
      case sim::HistoryLine::Kind::phase: m.phases.push_back({at, line.name}); break;
      case sim::HistoryLine::Kind::end:
        m.end_outcome = line.name;
        m.end_fields = line.fields;
        break;
    }
  }
  b.finish();
  return m;
}

}  // namespace trafikey::reports
