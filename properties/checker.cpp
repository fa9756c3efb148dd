// The checker's walk of a run: before each call what its judgement needs, after it the
// call's own rules (verb.atomic, the sweep, the lease verbs, a CLAIM's token) and then the
// jobs it touched, through the model or directly (checker.h); the other files named
// properties/checker_*.cpp hold the rest, one concept each.
#include "properties/checker.h"

#include <algorithm>
#include <cstring>

#include "core/args.h"
#include "core/text.h"
#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

namespace {

constexpr std::size_t violations_max = 20;

// A lease verb's token (EMQ §3, §8): its attempts (a wire 1 token whole, a wire 2 token's
// first part; -1 when not a number) and, for a wire 2 token, its grant id (else empty).
std::int64_t token_attempts(std::string_view token) {
  const std::size_t dash = token.find('-', 1);
  return parse_int64(dash == std::string_view::npos ? token : token.substr(0, dash)).value_or(-1);
}
std::string_view wire2_grant(std::string_view token) {
  const std::size_t dash = token.find('-', 1);
  return dash == std::string_view::npos ? std::string_view() : token.substr(dash + 1);
}
}  // namespace

void Checker::fail(std::string_view id, const World& world, std::string facts) {
  // Past the cap, only an invariant not yet named: where a call breaks one invariant for
  // a hundred jobs, the others it breaks (the model's own verdict among them) still say so.
  if (violations_.size() >= violations_max &&
      std::any_of(violations_.begin(), violations_.end(), [&](const Violation& v) { return v.invariant == id; })) {
    return;
  }
  Violation v;
  v.invariant = id;
  if (current_) {
    v.call = current_->index;
    v.history_line = current_->history_line;
  }
  v.true_ms = world.true_ms();
  v.facts = std::move(facts);
  violations_.push_back(std::move(v));
}

void Checker::WorldFindings::judged(std::string_view invariant) {
  for (std::size_t i = 0; i < trafikey::invariant_ids.size(); ++i) {
    if (trafikey::invariant_ids[i] == invariant) checker_.judge(i);
  }
}

const std::map<std::string, std::int64_t>& Checker::judged() const {
  judged_.clear();
  for (std::size_t i = 0; i < judged_counts_.size(); ++i) {
    if (judged_counts_[i] > 0) judged_.emplace(trafikey::invariant_ids[i], judged_counts_[i]);
  }
  return judged_;
}

// ---- before a call: remember what the judgement needs

void Checker::record_call(const World& world, Args argv) {
  lane_->call.store(world.calls() + 1, std::memory_order_relaxed);
  lane_->true_ms.store(world.true_ms(), std::memory_order_relaxed);
  if (!record_argv_) return;
  std::size_t n = 0;
  for (std::string_view a : argv) {
    if (n > 0 && n < FlightLane::argv_max) lane_->argv[n++] = ' ';
    const std::size_t take = std::min(a.size(), FlightLane::argv_max - n);
    std::memcpy(lane_->argv + n, a.data(), take);
    n += take;
  }
  lane_->argv_size.store(static_cast<std::uint32_t>(n), std::memory_order_relaxed);
}

void Checker::before_call(const World& world, std::string_view, Args argv) {
  if (lane_) record_call(world, argv);
  // where the journals stand: what the call writes is what they hold after these
  touched_.ids.clear();
  touched_.queues.clear();
  touched_.everything = false;
  touched_jobs_.clear();
  new_queue_ = false;
  sim::UndoLog* journal = world.data().journal();
  server_from_ = journal ? journal->position() : -1;
  // verb.model compares what the two sides' writes made first (check_model)
  if (journal && with_model_ && !journal->keeps_new_values()) journal->keep_new_values(true);
  {  // the model runs whether or not verb.model is judged: its ledger is the ground truth
    model_from_ = model_.data().journal()->position();
    model::Context ctx;
    ctx.now_ms = world.server_ms();
    ctx.module_loaded = world.module_loaded();
    ctx.run_id = world.run_id();
    ctx.writable = world.server().role() == sim::Role::primary;
    ctx.replica = world.server().role() == sim::Role::replica;
    ctx.write_denied = world.write_denied_key();
    ctx.last_grant = world.server().epoch().last_grant();
    model_.call(argv, ctx, expect_);
  }
  before_jobs_.clear();
  wire2_before_.clear();
  sweep_.clear();
  sweep_ledger_.clear();
  // The verb as the model names it (the spec's spelling), once for both halves of the
  // judgement.
  verb_ = expect_.verb != EmqVerb::none ? expect_.verb : argv.empty() ? EmqVerb::none : model::verb_of(argv[0]);
  if (argv.size() < 2 || !model::queue_name_ok(argv[1])) return;
  if (argv[0].size() < 4 || !equals_ignore_case(argv[0].substr(0, 4), "EMQ.")) return;
  const std::string_view q = argv[1];
  // a queue first seen: its jobs (a scenario may have written some by hand) judged whole
  if (!known_queue(q)) {
    last_queue_ = &*queues_.try_emplace(std::string(q), q).first;
    new_queue_ = true;
  }
  const auto& ledger = model_.ledger();
  auto remember = [&](std::string_view id) {
    if (const JobTruth* job = ledger.job(q, id)) before_jobs_.emplace_back(std::string(id), judge::JobBefore::of(*job));
  };
  // queue.grant: what each wire 2 token's row held as its grant when the call came
  auto remember_grant = [&](std::string_view id, std::string_view token) {
    wire2_before_.push_back(wire2_grant(token).empty() ? std::nullopt : lease_of(world, q, id));
  };
  if (verb_ == EmqVerb::extend || verb_ == EmqVerb::complete || verb_ == EmqVerb::fail) {
    if (argv.size() > 2) remember(argv[2]);
    if (argv.size() > 3) remember_grant(argv[2], argv[3]);
  } else if (verb_ == EmqVerb::extends) {
    for (std::size_t i = 3; i < argv.size(); i += 2) remember(argv[i]);
    for (std::size_t i = 3; i + 1 < argv.size(); i += 2) remember_grant(argv[i], argv[i + 1]);
  } else if (verb_ == EmqVerb::sweep && world.module_loaded()) {
    const model::QueueNames& keys = known_queue(q)->second.keys;
    sim::capture_sweep(world.data(), argv, {keys.active, keys.row_prefix}, world.server_ms(), sweep_);
    // the model's view of each member the sweep must judge
    for (std::size_t i = 0; i < sweep_.due(); ++i) {
      const std::string& id = sweep_.expired[i];
      if (const JobTruth* job = ledger.job(q, id)) sweep_ledger_.emplace(id, judge::JobBefore::of(*job));
    }
  }
}

// ---- after a call

void Checker::after_call(const World& world, const CallRecord& call) {
  current_ = &call;
  // The model's ledger takes the call in first, as the model answered it: every judgement
  // below reads the jobs as they stand after it.
  accepted_ = expect_.accepts(call.reply);
  model_.settle(call, expect_, accepted_);
  // The verb as before_call found it (the spec's spelling), not an upper-cased copy
  // compared with each name.
  const auto is = [&](EmqVerb v) { return verb_ == v; };
  const Reply& r = call.reply;
  WorldFindings findings(*this, world);
  judge(id_of("verb.atomic"));
  judge::verb_atomic(call.argv, verb_, r, {call.writes, call.writes != 0}, findings);

  if (world.module_loaded() && !r.is_error() && call.argv.size() >= 2) {
    if (is(EmqVerb::sweep)) check_sweep(world, call);
    if (is(EmqVerb::extend) || is(EmqVerb::extends) || is(EmqVerb::complete) || is(EmqVerb::fail)) {
      check_lease_verb(world, call);
    }
    if (is(EmqVerb::claim) && r.kind() == Reply::Kind::array) {
      judge(id_of("queue.fence"));
      const auto& ghosts = model_.ledger().ghosts();
      for (const Reply& claimed : r.items()) {
        // [id, attempts, payload], and the wire 2 token under WIRE 2 (EMQ §8)
        const std::size_t n = claimed.items_if_array().size();
        if (n != 3 && n != 4) continue;
        const std::string_view id = claimed.items()[0].text();
        judge(id_of("queue.grant"));
        judge::grant_fresh(id, lease_of(world, call.argv[1], id).value_or(""),
                           std::string(id) + " by " + std::string(call.actor) + " at call " + std::to_string(call.index), grants_,
                           findings);
        // An id whose row an operator deleted (a ghost to the ledger) and wrote again by
        // hand: its attempts, and so its tokens, are the operator's, with no history to
        // fence against (two setups may write c with any attempts); verb.model still
        // checks the token is the row's attempts + 1.
        if (!ghosts.empty() && ghosts.contains(std::pair<std::string_view, std::string_view>(call.argv[1], id))) {
          continue;
        }
        const std::int64_t token = claimed.items()[1].as_integer();
        const std::string_view key = token_key(call.argv[1], id);
        auto it = tokens_.find(key);
        if (it == tokens_.end()) {
          tokens_.emplace(std::string(key), token);
          continue;
        }
        judge::claim_token(id, token, it->second, findings);
        it->second = token;
      }
    }
  }
  // The per-job judgements, through the model's equality where the model predicted the
  // call write for write (see through_model), else directly on what the call touched.
  if (through_model(world, call)) {
    current_ = nullptr;
    return;
  }
  collect_touched(world, call);
  // The model's own moves at this call must be edges of the graph: the ledger moves only
  // jobs the call names, all of them in touched_.
  judge(id_of("queue.transitions"));
  touched_jobs_.clear();
  for (const auto& [q, id] : touched_.ids) {
    const JobTruth* job = model_.ledger().job(q, id);
    touched_jobs_.push_back(job);  // check_touched judges the same jobs
    if (job) check_ledger_move(world, call, *job);
  }
  check_touched(world);
  // Last: where a named invariant breaks at this call too, it names the cause first.
  check_model(world, call);
  current_ = nullptr;
}

std::string Checker::verb_text(const CallRecord& call) const {
  return verb_ != EmqVerb::none ? std::string(model::verb_name(verb_)) : upper(call.argv.empty() ? "" : call.argv[0]);
}

void Checker::check_ledger_move(const World& world, const CallRecord& call, const JobTruth& job) {
  if (job.transitions.empty() || job.transitions.back().call != call.index) return;
  const auto& t = job.transitions.back();
  if (graph_.allowed(t.from, t.to)) return;
  fail("queue.transitions", world,
       verb_text(call) + " answered as if " + job.id + " moved " + model::transition_name(t.from, t.to) +
           ", which is not an edge of the state graph");
}

void Checker::check_lease_verb(const World& world, const CallRecord& call) {
  std::array<judge::LeasePair, 1> one{};
  std::vector<judge::LeasePair> many;
  std::span<const judge::LeasePair> pairs;
  const Reply& r = call.reply;
  if (verb_ == EmqVerb::extends) {
    if (r.kind() != Reply::Kind::array) return;
    for (std::size_t i = 0; 3 + 2 * i + 1 < call.argv.size() && i < r.items().size(); ++i) {
      many.push_back({call.argv[3 + 2 * i], token_attempts(call.argv[4 + 2 * i]), r.items()[i].as_integer()});
    }
    pairs = many;
  } else {
    if (r.kind() != Reply::Kind::integer || call.argv.size() < 4) return;
    one[0] = {call.argv[2], token_attempts(call.argv[3]), r.as_integer()};
    pairs = one;
  }
  judge(id_of("queue.fence"));
  WorldFindings findings(*this, world);
  // queue.grant: a pair that presented a wire 2 token moved the job only for its grant
  const std::size_t first_token = verb_ == EmqVerb::extends ? 4 : 3;
  std::span<judge::LeasePair> each(verb_ == EmqVerb::extends ? many.data() : one.data(), pairs.size());
  for (std::size_t i = 0; i < each.size() && i < wire2_before_.size(); ++i) {
    const std::string_view grant = wire2_grant(call.argv[first_token + 2 * i]);
    if (grant.empty()) continue;
    each[i].other_grant = !wire2_before_[i] || *wire2_before_[i] != grant;
    judge(id_of("queue.grant"));
    judge::wire2_answer(call.argv[0], each[i].id, grant, wire2_before_[i], each[i].answer, findings);
  }
  judge::lease_verb(call.argv[0], verb_ == EmqVerb::fail, pairs, before_jobs_, call.actor, call.at.server_ms,
                    findings);
}

std::optional<std::string> Checker::lease_of(const World& world, std::string_view q, std::string_view id) {
  bool wrong = false;
  const sim::Keyspace::Hash* row = world.data().hash_at(model::RowName(model::row_key(q, ""), id), wrong);
  const std::string* lease = row ? sim::Keyspace::hash_field(*row, "lease") : nullptr;
  return lease ? std::optional<std::string>(*lease) : std::nullopt;
}

void Checker::at_phase(const World& world, std::string_view name) {
  // The full scan of the jobs at the end, a cross-check of the per-call judgements. A phase
  // boundary between calls changes no row, set or ledger job: the jobs' judgements after
  // the last call that touched each still hold, and scanning them all again cost as much
  // as judging a few hundred calls.
  if (whole_scans_ || name == "end") check_state(world);
  // verb.model: the whole keyspace, at every phase end (a journal-free cross-check)
  check_model_keyspace(world, name == "end" ? std::string("at the end") : "when phase " + std::string(name) + " begins");
}

void Checker::check_drain(const World& world, std::string_view outcome, std::int64_t bound_ms) {
  judge(id_of("liveness.drain"));
  if (outcome == "drained") return;
  std::string stuck;
  for (const auto& [key, job] : model_.ledger().jobs()) {
    if (job.state == JobState::done || job.state == JobState::dead || job.lane) continue;
    if (!stuck.empty()) stuck += ", ";
    stuck += job.id + " (" + std::string(model::state_name(job.state)) + ")";
  }
  fail("liveness.drain", world, "jobs not done or dead " + std::to_string(bound_ms) +
                                    " ms after faults stopped: " + (stuck.empty() ? "none?" : stuck) +
                                    " [" + std::string(outcome) + "]");
}

}  // namespace trafikey::properties
