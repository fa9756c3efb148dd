#include "reports/history_model.h"

#include "core/keys.h"
#include "core/text.h"
#include "sim/executor_scripts.h"
#include "sim/history.h"
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

// "emq:{q}:job:<id>" -> {q, id} (EMQ §1), through core's one key-name scheme.
std::optional<JobKey> row_key(const std::string& key) {
  const auto row = parse_row_key(key);
  if (!row) return std::nullopt;
  return JobKey{std::string(row->queue), std::string(row->id)};
}

bool is_int(const Json& v, std::int64_t value) {
  return v.is_number_integer() && v.get<std::int64_t>() == value;
}

// Replays one history into a RunModel (see the header for what is modelled).
class Builder {
 public:
  explicit Builder(RunModel& m) : m_(m) {}

  void call(const CallLine& c);
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
  void grant(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token, std::int64_t lease_ms);
  void extend(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
              std::int64_t lease_ms);
  void finish_call(const CallLine& c, std::string_view verb, bool completes, const JobKey& job,
                   std::int64_t token);
  void scripted(const CallLine& c);
  void rollback(std::int64_t kept, const At& at);

  RunModel& m_;
  std::map<JobKey, Row> rows_;
  std::set<JobKey> seen_;
  std::vector<Undo> undo_;
  std::int64_t call_ = 0;
  std::map<std::string, std::string> sweep_queue_;  // actor -> queue of its last sweep
};

void Builder::grant(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
                    std::int64_t lease_ms) {
  transition(job, "pending", "active", verb == "EMQ.CLAIM" ? "CLAIM" : verb);
  end_lease(open_lease(job, std::nullopt), LeaseEnd::superseded, c.at);
  Lease l;
  l.job = job;
  l.token = token;
  l.lease_ms = lease_ms;
  l.segments.push_back({c.at, c.index, std::string(verb), c.actor, c.at.server_ms + lease_ms, std::nullopt,
                        c.lost, false});
  m_.leases.push_back(std::move(l));
  Row& r = change(job);
  r.s.state = "active";
  r.s.attempts = token;
  r.lease = static_cast<int>(m_.leases.size() - 1);
}

void Builder::extend(const CallLine& c, std::string_view verb, const JobKey& job, std::int64_t token,
                     std::int64_t lease_ms) {
  row(job);
  if (Lease* l = open_lease(job, token)) {
    l->segments.push_back({c.at, c.index, std::string(verb), c.actor, c.at.server_ms + lease_ms, std::nullopt,
                           c.lost, false});
  }
}

void Builder::finish_call(const CallLine& c, std::string_view verb, bool completes, const JobKey& job,
                          std::int64_t token) {
  Lease* l = open_lease(job, token);
  if (completes) {
    transition(job, "active", "done", verb == "EMQ.COMPLETE" ? "COMPLETE 1" : std::string(verb) + " 1");
    end_lease(l, LeaseEnd::completed, c.at);
    change(job).s.state = "done";
    return;
  }
  const bool dead = is_int(c.reply, 2);
  transition(job, "active", dead ? "dead" : "pending", dead ? "FAIL 2" : "FAIL 1");
  end_lease(l, dead ? LeaseEnd::failed_dead : LeaseEnd::requeued, c.at);
  Row& r = change(job);
  r.s.state = dead ? "dead" : "pending";
  ++r.s.failures;
}

void Builder::call(const CallLine& c) {
  call_ = c.index;
  ++m_.calls_by_verb[c.verb];
  if (c.lost) {
    ++m_.lost_replies;
    ++m_.fault_counts["lost_reply"];
  }
  if (c.reply.is_object() && c.reply.contains("error")) {
    ++m_.error_replies;
    return;
  }
  const Json& a = c.call;
  auto arg = [&](std::size_t i) { return i < a.size() ? str(a[i]) : std::string(); };
  auto num = [&](std::size_t i) { return i < a.size() ? to_int(a[i]) : std::nullopt; };
  if (c.verb == "EMQ.ADD" && a.size() >= 3) {
    if (!is_int(c.reply, 1)) return;
    const JobKey job{arg(1), arg(2)};
    Row& r = change(job);
    r = Row{};
    r.s.state = "pending";
    m_.added_true_ms.emplace(job, c.at.true_ms);
  } else if (c.verb == "EMQ.CLAIM" && a.size() >= 3 && c.reply.is_array()) {
    const std::int64_t lease_ms = num(2).value_or(0);
    for (const Json& item : c.reply) {
      if (!item.is_array() || item.size() < 2) continue;
      grant(c, c.verb, {arg(1), str(item[0])}, to_int(item[1]).value_or(0), lease_ms);
    }
  } else if (c.verb == "EMQ.EXTEND" && a.size() >= 5) {
    const JobKey job{arg(1), arg(2)};
    if (is_int(c.reply, 1)) extend(c, c.verb, job, num(3).value_or(0), num(4).value_or(0));
    if (is_int(c.reply, 0)) m_.refusals.push_back({c.at, job, c.verb, num(3).value_or(0)});
  } else if (c.verb == "EMQ.EXTENDS" && a.size() >= 5 && c.reply.is_array()) {
    for (std::size_t p = 0; 3 + 2 * p + 1 < a.size() && p < c.reply.size(); ++p) {
      const JobKey job{arg(1), arg(3 + 2 * p)};
      const std::int64_t token = num(4 + 2 * p).value_or(0);
      if (is_int(c.reply[p], 1)) extend(c, c.verb, job, token, num(2).value_or(0));
      if (is_int(c.reply[p], 0)) m_.refusals.push_back({c.at, job, c.verb, token});
    }
  } else if ((c.verb == "EMQ.COMPLETE" || c.verb == "EMQ.FAIL") && a.size() >= 4) {
    const JobKey job{arg(1), arg(2)};
    const std::int64_t token = num(3).value_or(0);
    row(job);
    if (is_int(c.reply, 1) || (c.verb == "EMQ.FAIL" && is_int(c.reply, 2))) {
      finish_call(c, c.verb, c.verb == "EMQ.COMPLETE", job, token);
    } else if (is_int(c.reply, 0)) {
      m_.refusals.push_back({c.at, job, c.verb, token});
    }
  } else if ((c.verb == "EVALSHA" || c.verb == "EVAL") && a.size() >= 3) {
    scripted(c);
  } else if (c.verb == "EMQ.STALLED.CHECK" && a.size() >= 2) {
    sweep_queue_[c.actor] = arg(1);
  } else if (c.verb == "DEL") {
    // An operator (or an old script) deleting a row: the id is left in its set, a ghost.
    for (std::size_t i = 1; i < a.size(); ++i) {
      if (auto job = row_key(arg(i))) {
        ++m_.fault_counts["row_delete"];
        change(*job).s.state = "deleted";
        m_.row_edits.push_back({c.at, *job, "row deleted by " + c.actor + " (DEL): the id is a ghost"});
      }
    }
  } else if (c.verb == "HSET" && a.size() >= 4) {
    // Writing `group` makes a lane row, which the sweep leaves alone (EMQ §5).
    for (std::size_t i = 2; i + 1 < a.size(); i += 2) {
      if (arg(i) != "group") continue;
      if (auto job = row_key(arg(1))) {
        ++m_.fault_counts["lane_mark"];
        row(*job);
        m_.row_edits.push_back({c.at, *job, "group written by " + c.actor + " (HSET): a lane row"});
      }
    }
  }
}

// The scripted executor's calls (bench/scripts/*.lua, by EVALSHA digest or EVAL body, with
// their keys and arguments as the scripts take them) are leases like the verbs they stand
// for, named after their script: claim.lua grants, extend.lua extends, complete.lua
// finishes. Any other script moves nothing here.
void Builder::scripted(const CallLine& c) {
  const Json& a = c.call;
  const std::string first = a[1].is_string() ? sim::history_bytes(a[1].get<std::string>()) : std::string();
  const sim::ExecutorScript which =
      c.verb == "EVALSHA" ? sim::executor_script_of_sha(first) : sim::executor_script_of_body(first);
  const std::optional<std::int64_t> numkeys = to_int(a[2]);
  std::vector<std::string> rest;
  for (std::size_t i = 3; i < a.size(); ++i) rest.push_back(str(a[i]));
  if (which == sim::ExecutorScript::claim && numkeys == 2 && rest.size() == 4 && c.reply.is_array()) {
    const auto q = key_queue(rest[0]);
    if (!q || rest[0] != QueueKeys(*q).pending()) return;
    const std::int64_t lease_ms = to_int(Json(rest[2])).value_or(0);
    for (const Json& item : c.reply) {
      if (!item.is_array() || item.size() < 2) continue;
      grant(c, "claim.lua", {std::string(*q), str(item[0])}, to_int(item[1]).value_or(0), lease_ms);
    }
  } else if (which == sim::ExecutorScript::extend && numkeys == 2 && rest.size() == 5) {
    const auto row = row_key(rest[1]);
    if (!row) return;
    const JobKey job{row->queue, rest[2]};
    const std::int64_t token = to_int(Json(rest[3])).value_or(0);
    if (is_int(c.reply, 1)) extend(c, "extend.lua", job, token, to_int(Json(rest[4])).value_or(0));
    if (is_int(c.reply, 0)) m_.refusals.push_back({c.at, job, "extend.lua", token});
  } else if (which == sim::ExecutorScript::complete && numkeys == 3 && rest.size() >= 5) {
    const auto row = row_key(rest[2]);
    if (!row) return;
    const JobKey job{row->queue, rest[3]};
    const std::int64_t token = to_int(Json(rest[4])).value_or(0);
    this->row(job);
    if (is_int(c.reply, 1)) finish_call(c, "complete.lua", true, job, token);
    if (is_int(c.reply, 0)) m_.refusals.push_back({c.at, job, "complete.lua", token});
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
  if (e.name != "start" && e.name != "restart" && e.name != "failover") return;
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

bool read_int(const Json& obj, const char* key, std::int64_t& out) {
  if (!obj.contains(key) || !obj[key].is_number_integer()) return false;
  out = obj[key].get<std::int64_t>();
  return true;
}

const char* const event_kinds[] = {"call", "fault", "verdict", "phase", "end"};

}  // namespace

std::optional<RunModel> parse_history(std::string_view text, std::string* error) {
  auto fail = [&](std::int64_t line, const std::string& what) -> std::optional<RunModel> {
    if (error) *error = "line " + std::to_string(line) + ": " + what;
    return std::nullopt;
  };
  RunModel m;
  m.fingerprint = sim::sha256_hex(text);
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    m.lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (m.lines.empty()) return fail(1, "empty file: expected a history header line");
  m.header = Json::parse(m.lines[0], nullptr, false);
  if (m.header.is_discarded() || !m.header.is_object() ||
      m.header.value("trafikey", "") != "history") {
    return fail(1, "not a trafikey history (expected a header {\"trafikey\":\"history\",...})");
  }
  m.kind = m.header.value("kind", "");

  // Pass 1: shape of every line, and the server clock trace (needed ahead of time to
  // place lease deadlines on the true-time axis).
  std::vector<Json> parsed;
  std::int64_t rate = 1000;
  for (std::size_t i = 1; i < m.lines.size(); ++i) {
    const std::int64_t line = static_cast<std::int64_t>(i) + 1;
    Json j = Json::parse(m.lines[i], nullptr, false);
    if (j.is_discarded()) return fail(line, "not valid JSON");
    if (!j.is_object()) return fail(line, "expected a JSON object");
    At at{line, 0, 0, 0};
    std::int64_t inc = 0;
    if (!read_int(j, "t", at.true_ms)) return fail(line, "field \"t\" (true time) must be an integer");
    if (!read_int(j, "st", at.server_ms)) return fail(line, "field \"st\" (server time) must be an integer");
    if (!read_int(j, "inc", inc)) return fail(line, "field \"inc\" (incarnation) must be an integer");
    if (!j.contains("actor") || !j["actor"].is_string()) return fail(line, "field \"actor\" must be a string");
    int kinds = 0;
    for (const char* k : event_kinds) kinds += j.contains(k) ? 1 : 0;
    if (kinds != 1) return fail(line, "expected exactly one of call, fault, verdict, phase, end");
    if (j.contains("call")) {
      if (!j["call"].is_array() || j["call"].empty() || !j["call"][0].is_string()) {
        return fail(line, "field \"call\" must be a non-empty array of strings");
      }
      if (!j.contains("reply")) return fail(line, "a call line needs a \"reply\"");
    }
    if (j.contains("fault") && !j["fault"].is_string()) return fail(line, "field \"fault\" must be a string");
    if (j.contains("verdict")) {
      std::int64_t stamp = 0;
      if (!j["verdict"].is_string() || !j.contains("job") || !j["job"].is_string() ||
          !read_int(j, "stamp_inc", stamp)) {
        return fail(line, "a verdict line needs string \"verdict\", string \"job\", integer \"stamp_inc\"");
      }
      const auto& names = sim::sweep_verdict_names;
      if (std::find(names.begin(), names.end(), j["verdict"].get<std::string>()) == names.end()) {
        std::string known;
        for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
        return fail(line, "unknown verdict \"" + j["verdict"].get<std::string>() + "\" (one of " + known + ")");
      }
    }
    if (j.value("fault", "") == "clock_rate") {
      std::int64_t r = 0;
      if (!read_int(j, "rate_per_mille", r)) return fail(line, "clock_rate needs integer \"rate_per_mille\"");
      rate = r;
    }
    m.clock.add(at.true_ms, at.server_ms, rate);
    parsed.push_back(std::move(j));
  }

  // Pass 2: replay.
  Builder b(m);
  std::int64_t calls = 0;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    Json& j = parsed[i];
    At at{static_cast<std::int64_t>(i) + 2, j["t"].get<std::int64_t>(), j["st"].get<std::int64_t>(),
          static_cast<int>(j["inc"].get<std::int64_t>())};
    const std::string actor = j["actor"].get<std::string>();
    m.end_true_ms = at.true_ms;
    if (j.contains("call")) {
      CallLine c;
      c.at = at;
      c.index = ++calls;
      c.actor = actor;
      c.call = j["call"];
      c.reply = j["reply"];
      c.lost = j.value("lost", false);
      c.verb = upper(c.call[0].get<std::string>());
      b.call(c);
      m.calls.push_back(std::move(c));
    } else if (j.contains("fault")) {
      WorldEvent e{at, j["fault"].get<std::string>(), Json::object()};
      bool after = false;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (after) e.fields[it.key()] = it.value();
        after = after || it.key() == "fault";
      }
      b.fault(e);
    } else if (j.contains("verdict")) {
      b.verdict(at, actor, j["job"].get<std::string>(), j["verdict"].get<std::string>(),
                static_cast<int>(j["stamp_inc"].get<std::int64_t>()));
    } else if (j.contains("phase")) {
      m.phases.push_back({at, str(j["phase"])});
    } else {
      m.end_outcome = str(j["end"]);
      m.end_fields = Json::object();
      bool after = false;
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (after) m.end_fields[it.key()] = it.value();
        after = after || it.key() == "end";
      }
    }
  }
  b.finish();
  return m;
}

}  // namespace trafikey::reports
