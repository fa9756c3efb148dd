#include "sim/plan.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <nlohmann/json.hpp>

#include "core/keys.h"
#include "sim/name_table.h"
#include "sim/prng.h"

namespace trafikey::sim {

namespace {
constexpr std::array persistence_names{"always", "everysec", "snapshot", "none"};
// One row a fault kind, in FaultKind order.
constexpr std::array<Named<FaultKind>, fault_kind_count> fault_kind_table{{
    {FaultKind::restart, "restart"},
    {FaultKind::failover, "failover"},
    {FaultKind::clock_step, "clock_step"},
    {FaultKind::clock_rate, "clock_rate"},
    {FaultKind::worker_clock, "worker_clock"},
    {FaultKind::worker_death, "worker_death"},
    {FaultKind::worker_pause, "worker_pause"},
    {FaultKind::lost_reply, "lost_reply"},
    {FaultKind::epoch_fail, "epoch_fail"},
    {FaultKind::epoch_malformed, "epoch_malformed"},
    {FaultKind::row_delete, "row_delete"},
    {FaultKind::lane_mark, "lane_mark"},
    {FaultKind::upgrade, "upgrade"},
    {FaultKind::reload, "reload"},
    {FaultKind::failback, "failback"},
}};
static_assert(covers_the_enum(fault_kind_table), "sim/plan.cpp: the table must name every FaultKind, in order");
constexpr std::array<std::string_view, fault_kind_count> fault_names = names_of(fault_kind_table);
}  // namespace

std::string_view persistence_name(Persistence mode) {
  return persistence_names[static_cast<std::size_t>(mode)];
}

std::optional<Persistence> parse_persistence(std::string_view name) {
  for (std::size_t i = 0; i < persistence_names.size(); ++i) {
    if (name == persistence_names[i]) return static_cast<Persistence>(i);
  }
  return std::nullopt;
}

std::span<const std::string_view> fault_kind_names() { return fault_names; }

std::string_view fault_name(FaultKind kind) { return fault_names[static_cast<std::size_t>(kind)]; }

std::optional<FaultKind> parse_fault_kind(std::string_view name) {
  for (std::size_t i = 0; i < fault_names.size(); ++i) {
    if (name == fault_names[i]) return static_cast<FaultKind>(i);
  }
  return std::nullopt;
}

namespace {
template <std::size_t... I>
FaultPayload payload_at(std::size_t index, std::index_sequence<I...>) {
  FaultPayload payload;
  static_cast<void>(((index == I && (payload.emplace<I>(), true)) || ...));
  return payload;
}
}  // namespace

FaultPayload fault_payload(FaultKind kind) {
  return payload_at(static_cast<std::size_t>(kind), std::make_index_sequence<fault_kind_count>{});
}

std::int64_t RunPlan::liveness_bound_ms() const {
  std::int64_t backward_ms = 0;
  for (const auto& f : faults) {
    if (const auto* step = std::get_if<fault::ClockStep>(&f.what); step && step->delta_ms < 0) backward_ms -= step->delta_ms;
  }
  std::int64_t slowest_per_mille = 1000;
  for (const auto& w : workers) slowest_per_mille = std::min(slowest_per_mille, w.rate_per_mille);
  const auto lanes = static_cast<std::int64_t>(std::max<std::size_t>(1, workers.size())) * claim_count;
  const std::int64_t rounds = (jobs + lanes - 1) / lanes + 1;
  const std::int64_t attempts = max_failures + max_stalled + 1;
  const std::int64_t attempt_ms =
      (work_max_ms + lease_ms) * 1000 / std::max<std::int64_t>(1, slowest_per_mille) +
      sweep_interval_ms + poll_ms * std::max(1, queues);  // a worker cycles over the queues
  // Twice the worst case of rounds x attempts, plus leases already running and every
  // backward clock step (INVARIANTS "known limits").
  return 2 * rounds * attempts * attempt_ms + lease_ms + backward_ms;
}

const std::vector<FaultGroup>& fault_groups() {
  static const std::vector<FaultGroup> groups{
      {"clock", {FaultKind::clock_step, FaultKind::clock_rate, FaultKind::worker_clock}},
      {"death", {FaultKind::worker_death}},
      {"pause", {FaultKind::worker_pause}},
      {"epoch", {FaultKind::epoch_fail, FaultKind::epoch_malformed}},
      {"ghost", {FaultKind::row_delete}},
      {"lane", {FaultKind::lane_mark}},
  };
  return groups;
}

std::optional<std::vector<FaultKind>> parse_fault_list(std::string_view csv, std::string* error) {
  std::vector<FaultKind> kinds;
  while (!csv.empty()) {
    const auto comma = csv.find(',');
    std::string_view name = csv.substr(0, comma);
    csv = comma == std::string_view::npos ? std::string_view{} : csv.substr(comma + 1);
    if (name.empty()) continue;
    if (name == "lost-reply") name = "lost_reply";  // the old spelling
    if (auto kind = parse_fault_kind(name)) {
      kinds.push_back(*kind);
      continue;
    }
    const auto& groups = fault_groups();
    const auto group = std::find_if(groups.begin(), groups.end(), [&](const FaultGroup& g) { return g.name == name; });
    if (group == groups.end()) {
      if (error) *error = "unknown fault kind '" + std::string(name) + "'";
      return std::nullopt;
    }
    kinds.insert(kinds.end(), group->kinds.begin(), group->kinds.end());
  }
  return kinds;
}

std::string fault_list_help() {
  std::string text = "kinds: ";
  for (std::size_t i = 0; i < fault_names.size(); ++i) {
    if (i > 0) text += ", ";
    text += fault_names[i];
  }
  text += "; groups: ";
  for (const auto& group : fault_groups()) {
    if (&group != &fault_groups().front()) text += "; ";
    text += std::string(group.name) + " = ";
    for (std::size_t i = 0; i < group.kinds.size(); ++i) {
      if (i > 0) text += ',';
      text += fault_name(group.kinds[i]);
    }
  }
  return text;
}

RunPlan draw_plan(const PlanChoices& choices) {
  std::uint64_t state = choices.seed;
  Prng p(splitmix64(state) ^ 0x706c616eULL);  // "plan": a stream apart from the run's own
  RunPlan plan;
  plan.seed = choices.seed;
  plan.jobs = choices.jobs.value_or(static_cast<int>(p.between(4, 24)));
  const int workers = choices.workers.value_or(static_cast<int>(p.between(1, 4)));
  plan.safety_ms = choices.safety_ms.value_or(15000);
  plan.persistence = choices.persistence.value_or(Persistence::always);
  plan.add_spread_ms = std::max<std::int64_t>(1, std::min<std::int64_t>(2000, plan.safety_ms / 4));
  plan.claim_count = static_cast<int>(p.between(1, 3));
  plan.lease_ms = p.between(500, 2000);
  plan.extend_at_per_mille = p.between(300, 700);
  plan.use_extends = p.chance(500);
  plan.work_min_ms = p.between(20, 200);
  plan.work_max_ms = p.between(plan.work_min_ms, plan.lease_ms * 3);
  plan.fail_per_mille = p.between(0, 300);
  plan.max_failures = static_cast<int>(p.between(1, 4));
  plan.max_stalled = static_cast<int>(p.between(1, 3));
  plan.sweep_interval_ms = p.between(200, 1000);
  plan.snapshot_interval_ms = p.between(1000, 5000);

  const auto enabled = [&](FaultKind k) {
    return std::find(choices.fault_kinds.begin(), choices.fault_kinds.end(), k) !=
           choices.fault_kinds.end();
  };
  plan.workers.assign(static_cast<std::size_t>(workers), WorkerClock{});
  if (enabled(FaultKind::worker_clock)) {
    for (auto& w : plan.workers) w = {p.between(-10000, 10000), p.between(900, 1100)};
  }
  const auto at_ms = [&] { return p.between(0, std::max<std::int64_t>(0, plan.safety_ms - 1)); };
  const auto some_worker = [&] { return static_cast<int>(p.between(0, workers - 1)); };
  // What a fault of `kind` carries, drawn.
  const auto draw_payload = [&](FaultKind kind) -> FaultPayload {
    switch (kind) {
      case FaultKind::clock_step: return fault::ClockStep{p.between(100, 3000) * (p.chance(500) ? 1 : -1)};
      case FaultKind::clock_rate: return fault::ClockRate{p.between(500, 1500)};
      case FaultKind::worker_clock:
        return fault::WorkerClockStep{some_worker(), p.between(100, 3000) * (p.chance(500) ? 1 : -1)};
      case FaultKind::worker_death: return fault::WorkerDeath{some_worker()};
      case FaultKind::worker_pause: return fault::WorkerPause{some_worker(), p.between(500, 5000)};
      case FaultKind::lost_reply: return fault::LostReply{static_cast<int>(p.between(0, workers))};
      case FaultKind::upgrade: return fault::Upgrade{some_worker()};
      case FaultKind::row_delete: return fault::RowDelete{static_cast<int>(p.between(1, std::max(1, plan.jobs)))};
      case FaultKind::lane_mark: return fault::LaneMark{static_cast<int>(p.between(1, std::max(1, plan.jobs)))};
      default: return fault_payload(kind);  // carries nothing
    }
  };
  for (FaultKind kind : choices.fault_kinds) {
    const auto count = p.between(1, 3);
    for (std::int64_t i = 0; i < count; ++i) {
      const Fault f{at_ms(), draw_payload(kind)};
      plan.faults.push_back(f);
      if (kind == FaultKind::epoch_fail || kind == FaultKind::epoch_malformed) {
        // an epoch fault acts on the next start: make sure one follows (stable sort keeps
        // it after the fault when both fall on the same ms)
        plan.faults.push_back({p.between(f.at_ms, plan.safety_ms - 1), fault::Restart{}});
      }
      if (kind == FaultKind::failback) {
        // a failback returns to the primary a failover demoted: make sure one comes first
        // (before it in the list, so the stable sort keeps it first on the same ms)
        plan.faults.insert(plan.faults.end() - 1, Fault{p.between(0, f.at_ms), fault::Failover{}});
      }
    }
  }
  // an upgrade needs a fleet that starts on the scripted executor
  if (enabled(FaultKind::upgrade)) plan.scripted_workers = workers;
  plan.queues = choices.queues;
  plan.wire2_workers = std::clamp(choices.wire2_workers, 0, workers);
  std::stable_sort(plan.faults.begin(), plan.faults.end(),
                   [](const Fault& a, const Fault& b) { return a.at_ms < b.at_ms; });
  return plan;
}

// ---- JSON


namespace {
// Plain printable ASCII but '"' and '\\': what nlohmann writes as it is (it escapes the
// rest in ways of its own, and refuses invalid UTF-8, so the rest goes through it).
bool json_plain(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

// Writes the plan's fields one after another: nlohmann's document of ~100 nodes cost more
// per history than a hundred simulated calls.
class PlanWriter {
 public:
  explicit PlanWriter(std::string& out) : out_(out) {}
  PlanWriter& raw(std::string_view text) {
    out_.append(text);
    return *this;
  }
  // `,"name":` (the first field of an object passes first = true: no comma)
  PlanWriter& field(std::string_view name, bool first = false) {
    if (!first) out_ += ',';
    out_ += '"';
    out_.append(name);
    out_.append("\":");
    return *this;
  }
  PlanWriter& number(std::int64_t n) {
    char digits[24];
    out_.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, n).ptr - digits));
    return *this;
  }
  PlanWriter& number(std::uint64_t n) {
    char digits[24];
    out_.append(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, n).ptr - digits));
    return *this;
  }
  PlanWriter& string(std::string_view text) {
    if (!json_plain(text)) {  // only a queue name could need it: escaped as nlohmann does
      out_.append(nlohmann::json(std::string(text)).dump());
      return *this;
    }
    out_ += '"';
    out_.append(text);
    out_ += '"';
    return *this;
  }

 private:
  std::string& out_;
};
}  // namespace

namespace {
// A fault's two fields as the plan's JSON holds them, whatever its kind: "amount", the kind's
// number or 0; "target", its worker, actor or job number or -1.
struct FaultJsonFields {
  std::int64_t amount = 0;
  int target = -1;
  bool operator==(const FaultJsonFields&) const = default;
};
// Each kind's fields: what it carries, and where the JSON keeps it.
FaultJsonFields fields_of(const fault::ClockStep& f) { return {f.delta_ms, -1}; }
FaultJsonFields fields_of(const fault::ClockRate& f) { return {f.rate_per_mille, -1}; }
FaultJsonFields fields_of(const fault::WorkerClockStep& f) { return {f.delta_ms, f.worker}; }
FaultJsonFields fields_of(const fault::WorkerDeath& f) { return {0, f.worker}; }
FaultJsonFields fields_of(const fault::WorkerPause& f) { return {f.pause_ms, f.worker}; }
FaultJsonFields fields_of(const fault::LostReply& f) { return {0, f.actor}; }
FaultJsonFields fields_of(const fault::RowDelete& f) { return {0, f.job_number}; }
FaultJsonFields fields_of(const fault::LaneMark& f) { return {0, f.job_number}; }
FaultJsonFields fields_of(const fault::Upgrade& f) { return {0, f.worker}; }
template <class Carries>
FaultJsonFields fields_of(const Carries&) { return {}; }  // a kind that carries nothing
void set_fields(fault::ClockStep& f, const FaultJsonFields& in) { f.delta_ms = in.amount; }
void set_fields(fault::ClockRate& f, const FaultJsonFields& in) { f.rate_per_mille = in.amount; }
void set_fields(fault::WorkerClockStep& f, const FaultJsonFields& in) { f = {in.target, in.amount}; }
void set_fields(fault::WorkerDeath& f, const FaultJsonFields& in) { f.worker = in.target; }
void set_fields(fault::WorkerPause& f, const FaultJsonFields& in) { f = {in.target, in.amount}; }
void set_fields(fault::LostReply& f, const FaultJsonFields& in) { f.actor = in.target; }
void set_fields(fault::RowDelete& f, const FaultJsonFields& in) { f.job_number = in.target; }
void set_fields(fault::LaneMark& f, const FaultJsonFields& in) { f.job_number = in.target; }
void set_fields(fault::Upgrade& f, const FaultJsonFields& in) { f.worker = in.target; }
template <class Carries>
void set_fields(Carries&, const FaultJsonFields&) {}

FaultJsonFields json_fields(const FaultPayload& what) {
  return std::visit([](const auto& f) { return fields_of(f); }, what);
}
}  // namespace

std::string plan_json(const RunPlan& plan) {
  std::string out;
  out.reserve(600 + 64 * plan.workers.size() + 80 * plan.faults.size());
  PlanWriter w(out);
  w.raw("{").field("seed", true).number(plan.seed);
  w.field("queue").string(plan.queue);
  w.field("jobs").number(std::int64_t{plan.jobs});
  w.field("add_spread_ms").number(plan.add_spread_ms);
  w.field("workers").raw("[");
  for (std::size_t i = 0; i < plan.workers.size(); ++i) {
    if (i) w.raw(",");
    w.raw("{").field("offset_ms", true).number(plan.workers[i].offset_ms);
    w.field("rate_per_mille").number(plan.workers[i].rate_per_mille).raw("}");
  }
  w.raw("]");
  w.field("claim_count").number(std::int64_t{plan.claim_count});
  w.field("lease_ms").number(plan.lease_ms);
  w.field("extend_at_per_mille").number(plan.extend_at_per_mille);
  w.field("use_extends").raw(plan.use_extends ? "true" : "false");
  w.field("work_min_ms").number(plan.work_min_ms);
  w.field("work_max_ms").number(plan.work_max_ms);
  w.field("fail_per_mille").number(plan.fail_per_mille);
  w.field("retry_per_mille").number(plan.retry_per_mille);
  w.field("poll_ms").number(plan.poll_ms);
  w.field("max_failures").number(std::int64_t{plan.max_failures});
  w.field("max_stalled").number(std::int64_t{plan.max_stalled});
  w.field("sweep_interval_ms").number(plan.sweep_interval_ms);
  w.field("persistence").string(persistence_name(plan.persistence));
  w.field("snapshot_interval_ms").number(plan.snapshot_interval_ms);
  w.field("replication_lag_ms").number(plan.replication_lag_ms);
  w.field("safety_ms").number(plan.safety_ms);
  w.field("faults").raw("[");
  for (std::size_t i = 0; i < plan.faults.size(); ++i) {
    const Fault& f = plan.faults[i];
    if (i) w.raw(",");
    w.raw("{").field("at_ms", true).number(f.at_ms);
    w.field("kind").string(fault_name(f.kind()));
    const FaultJsonFields fields = json_fields(f.what);
    w.field("amount").number(fields.amount);
    w.field("target").number(std::int64_t{fields.target}).raw("}");
  }
  w.raw("]");
  w.field("sweep_limit").number(std::int64_t{plan.sweep_limit});
  w.field("claim_overask").number(std::int64_t{plan.claim_overask});
  w.field("max_failures_vary").raw(plan.max_failures_vary ? "true" : "false");
  w.field("near_epoch_per_mille").number(plan.near_epoch_per_mille);
  w.field("time_quantum_ms").number(plan.time_quantum_ms);
  // Fields added since: written only when they leave their default, so that the plan
  // line, and so the history and its fingerprint, of a plan without them stays the same.
  if (plan.scripted_workers != 0) w.field("scripted_workers").number(std::int64_t{plan.scripted_workers});
  if (plan.queues != 1) w.field("queues").number(std::int64_t{plan.queues});
  if (plan.adversarial_calls != 0) w.field("odd_calls").number(std::int64_t{plan.adversarial_calls});
  if (plan.seq_start != 0) w.field("seq_start").number(plan.seq_start);
  if (plan.wire2_workers != 0) w.field("wire2_workers").number(std::int64_t{plan.wire2_workers});
  w.raw("}");
  return out;
}

namespace {
template <class T>
bool take(const nlohmann::json& j, const char* field, T& out, std::string* error) {
  auto it = j.find(field);
  if (it == j.end()) {
    if (error) *error = std::string("plan: missing field '") + field + "'";
    return false;
  }
  try {
    out = it->get<T>();
  } catch (const nlohmann::json::exception&) {
    if (error) *error = std::string("plan: field '") + field + "' has the wrong type";
    return false;
  }
  return true;
}
// A field plan_json writes only when it leaves its default: absent, `out` keeps it.
template <class T>
bool take_optional(const nlohmann::json& j, const char* field, T& out, std::string* error) {
  return !j.contains(field) || take(j, field, out, error);
}
}  // namespace

std::optional<RunPlan> parse_plan(std::string_view json, std::string* error) {
  const auto j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    if (error) *error = "plan: not a JSON object";
    return std::nullopt;
  }
  RunPlan plan;
  std::string persistence;
  nlohmann::json workers, faults;
  const bool ok =
      take(j, "seed", plan.seed, error) && take(j, "queue", plan.queue, error) &&
      take(j, "jobs", plan.jobs, error) && take(j, "add_spread_ms", plan.add_spread_ms, error) &&
      take(j, "workers", workers, error) && take(j, "claim_count", plan.claim_count, error) &&
      take(j, "lease_ms", plan.lease_ms, error) &&
      take(j, "extend_at_per_mille", plan.extend_at_per_mille, error) &&
      take(j, "use_extends", plan.use_extends, error) &&
      take(j, "work_min_ms", plan.work_min_ms, error) &&
      take(j, "work_max_ms", plan.work_max_ms, error) &&
      take(j, "fail_per_mille", plan.fail_per_mille, error) &&
      take(j, "retry_per_mille", plan.retry_per_mille, error) &&
      take(j, "poll_ms", plan.poll_ms, error) &&
      take(j, "max_failures", plan.max_failures, error) &&
      take(j, "max_stalled", plan.max_stalled, error) &&
      take(j, "sweep_interval_ms", plan.sweep_interval_ms, error) &&
      take(j, "persistence", persistence, error) &&
      take(j, "snapshot_interval_ms", plan.snapshot_interval_ms, error) &&
      take(j, "replication_lag_ms", plan.replication_lag_ms, error) &&
      take(j, "safety_ms", plan.safety_ms, error) && take(j, "faults", faults, error) &&
      take(j, "sweep_limit", plan.sweep_limit, error) &&
      take(j, "claim_overask", plan.claim_overask, error) &&
      take(j, "max_failures_vary", plan.max_failures_vary, error) &&
      take(j, "near_epoch_per_mille", plan.near_epoch_per_mille, error) &&
      take(j, "time_quantum_ms", plan.time_quantum_ms, error) &&
      take_optional(j, "scripted_workers", plan.scripted_workers, error) &&
      take_optional(j, "queues", plan.queues, error) &&
      take_optional(j, "odd_calls", plan.adversarial_calls, error) &&
      take_optional(j, "seq_start", plan.seq_start, error) &&
      take_optional(j, "wire2_workers", plan.wire2_workers, error);
  if (!ok) return std::nullopt;
  auto mode = parse_persistence(persistence);
  if (!mode) {
    if (error) *error = "plan: unknown persistence '" + persistence + "'";
    return std::nullopt;
  }
  plan.persistence = *mode;
  if (!workers.is_array() || !faults.is_array()) {
    if (error) *error = "plan: 'workers' and 'faults' must be arrays";
    return std::nullopt;
  }
  plan.workers.clear();
  for (const auto& w : workers) {
    WorkerClock clock;
    if (!take(w, "offset_ms", clock.offset_ms, error) ||
        !take(w, "rate_per_mille", clock.rate_per_mille, error)) {
      return std::nullopt;
    }
    plan.workers.push_back(clock);
  }
  for (const auto& f : faults) {
    Fault fault;
    std::string kind;
    FaultJsonFields fields;
    if (!take(f, "at_ms", fault.at_ms, error) || !take(f, "kind", kind, error) ||
        !take(f, "amount", fields.amount, error) || !take(f, "target", fields.target, error)) {
      return std::nullopt;
    }
    auto k = parse_fault_kind(kind);
    if (!k) {
      if (error) *error = "plan: unknown fault kind '" + kind + "'";
      return std::nullopt;
    }
    fault.what = fault_payload(*k);
    std::visit([&](auto& what) { set_fields(what, fields); }, fault.what);
    // A field the kind does not carry holds its default, as plan_json writes it.
    const FaultJsonFields kept = json_fields(fault.what);
    if (kept != fields) {
      const std::string field = kept.amount != fields.amount ? "amount" : "target";
      if (error) {
        *error = "plan: faults." + field + " of " + kind + " must be " + (field == "amount" ? "0" : "-1") + ": " +
                 kind + " carries no " + field;
      }
      return std::nullopt;
    }
    plan.faults.push_back(fault);
  }
  return plan;
}

std::string validate_plan(const RunPlan& plan) {
  auto bad = [](std::string_view field, std::string_view rule) {
    return "plan: " + std::string(field) + " " + std::string(rule);
  };
  if (!valid_queue_name(plan.queue)) return bad("queue", "is not a valid queue name");
  if (plan.jobs < 0 || plan.jobs > 100000) return bad("jobs", "must be in 0..100000");
  if (plan.workers.empty() || plan.workers.size() > 1000) return bad("workers", "must hold 1..1000 entries");
  for (const auto& w : plan.workers) {
    if (w.rate_per_mille < 1 || w.rate_per_mille > 100000) return bad("workers.rate_per_mille", "must be in 1..100000");
  }
  if (plan.claim_count < 1 || plan.claim_count > 1000) return bad("claim_count", "must be in 1..1000");
  if (plan.lease_ms < 1 || plan.lease_ms > 86400000) return bad("lease_ms", "must be in 1..86400000");
  if (plan.extend_at_per_mille < 1 || plan.extend_at_per_mille > 1000) return bad("extend_at_per_mille", "must be in 1..1000");
  if (plan.work_min_ms < 0 || plan.work_max_ms < plan.work_min_ms) return bad("work_max_ms", "must be >= work_min_ms >= 0");
  if (plan.fail_per_mille < 0 || plan.fail_per_mille > 1000) return bad("fail_per_mille", "must be in 0..1000");
  if (plan.retry_per_mille < 0 || plan.retry_per_mille > 1000) return bad("retry_per_mille", "must be in 0..1000");
  if (plan.poll_ms < 1) return bad("poll_ms", "must be >= 1");
  if (plan.max_failures < 1 || plan.max_failures > 1000000) return bad("max_failures", "must be in 1..1000000");
  if (plan.max_stalled < 1 || plan.max_stalled > 1000000) return bad("max_stalled", "must be in 1..1000000");
  if (plan.sweep_interval_ms < 1) return bad("sweep_interval_ms", "must be >= 1");
  if (plan.snapshot_interval_ms < 1) return bad("snapshot_interval_ms", "must be >= 1");
  if (plan.replication_lag_ms < 1) return bad("replication_lag_ms", "must be >= 1");
  if (plan.safety_ms < 0 || plan.add_spread_ms < 1) return bad("safety_ms", "must be >= 0 (and add_spread_ms >= 1)");
  if (plan.sweep_limit < 0 || plan.sweep_limit > 10000) return bad("sweep_limit", "must be in 0..10000");
  if (plan.claim_overask < 0 || plan.claim_count + plan.claim_overask > 1000) return bad("claim_overask", "must be >= 0, with claim_count + it <= 1000");
  if (plan.near_epoch_per_mille < 0 || plan.near_epoch_per_mille > 1000) return bad("near_epoch_per_mille", "must be in 0..1000");
  if (plan.time_quantum_ms < 0) return bad("time_quantum_ms", "must be >= 0");
  if (plan.scripted_workers < 0 || plan.scripted_workers > static_cast<int>(plan.workers.size())) {
    return bad("scripted_workers", "must be in 0..the number of workers");
  }
  if (plan.wire2_workers < 0 || plan.wire2_workers > static_cast<int>(plan.workers.size())) {
    return bad("wire2_workers", "must be in 0..the number of workers");
  }
  if (plan.queues < 1 || plan.queues > 9) return bad("queues", "must be in 1..9");
  if (plan.adversarial_calls < 0 || plan.adversarial_calls > 1000) return bad("odd_calls", "must be in 0..1000");
  if (plan.seq_start < 0 || plan.seq_start > (std::int64_t{1} << 62)) return bad("seq_start", "must be in 0..2^62");
  if (!valid_queue_name(plan.queue_name(plan.queues - 1))) return bad("queue", "is too long for the queues' names");
  for (const auto& f : plan.faults) {
    if (f.at_ms < 0) return bad("faults.at_ms", "must be >= 0");
    if (const auto* rate = std::get_if<fault::ClockRate>(&f.what);
        rate && (rate->rate_per_mille < 1 || rate->rate_per_mille > 100000)) {
      return bad("faults.amount", "of clock_rate must be in 1..100000");
    }
    if (const auto* pause = std::get_if<fault::WorkerPause>(&f.what); pause && pause->pause_ms < 0) {
      return bad("faults.amount", "of worker_pause must be >= 0");
    }
  }
  return {};
}

}  // namespace trafikey::sim
