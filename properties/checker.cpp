#include "properties/checker.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "core/args.h"
#include "core/text.h"

namespace trafikey::properties {

using sim::CallRecord;
using model::JobTruth;
using model::EmqVerb;
using sim::Keyspace;
using sim::World;

bool judged_by_checker(std::string_view invariant) {
  return invariant != "sim.determinism" && invariant != "verb.replicated" &&
         invariant != "sim.differential";
}

const std::vector<InvariantInfo>& invariant_ids() {
  static const std::vector<InvariantInfo> ids = [] {
    std::vector<InvariantInfo> out;
    for (std::string_view id : trafikey::invariant_ids) out.push_back({id, judged_by_checker(id)});
    return out;
  }();
  return ids;
}

std::string Violation::describe() const {
  std::string s = invariant;
  if (call > 0) s += " at call " + std::to_string(call);
  if (history_line > 0) s += " (history line " + std::to_string(history_line) + ")";
  s += ", t=" + std::to_string(true_ms) + ": " + facts;
  return s;
}

std::string Violation::describe_line() const {
  std::string out;
  for (const char c : describe()) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (byte < 0x20 || byte >= 0x7f) {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

constexpr std::size_t violations_max = 20;


const std::string* field(const Keyspace& data, std::string_view row, std::string_view name) {
  bool wrong = false;
  const Keyspace::Hash* h = data.hash_at(row, wrong);
  return h ? Keyspace::hash_field(*h, name) : nullptr;
}


const Keyspace::Hash* row_of(const Keyspace& data, const model::QueueNames& keys, std::string_view id) {
  bool wrong = false;
  return data.hash_at(model::RowName(keys, id).view(), wrong);
}

constexpr std::array<JobState, 4> set_states{JobState::pending, JobState::active, JobState::done,
                                             JobState::dead};

// Appends `x` unless it is the last element already: a call writes one job's keys, and one
// key's fields, one after another, so most repeats are caught before any sort.
// (Pairs of strings and of views compare member by member.)
template <class A, class B>
bool same(const A& a, const B& b) {
  return a == b;
}
template <class A1, class A2, class B1, class B2>
bool same(const std::pair<A1, A2>& a, const std::pair<B1, B2>& b) {
  return a.first == b.first && a.second == b.second;
}
template <class Vector, class T>
void push_unless_last(Vector& v, const T& x) {
  if (v.empty() || !same(v.back(), x)) v.emplace_back(x);
}

// What one journal entry (sim/undo.h) touched: a job, by its row or its member of a set
// (job(queue, id)), or a set written whole (DEL, SET, or as a hash: queue(queue)).
template <class Job, class Queue>
void classify_write(sim::UndoLog::Wrote wrote, std::string_view key, std::string_view name, Job&& job,
                    Queue&& queue) {
  if (auto row = model::parse_row_key(key)) {
    job(row->queue, row->id);
  } else if (auto q = model::set_key_queue(key)) {
    if (wrote == sim::UndoLog::Wrote::member) {
      job(*q, name);
    } else {
      queue(*q);
    }
  }
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
    ctx.run_id = world.run_ids().back();
    ctx.writable = world.server().role() == sim::Role::primary;
    ctx.replica = world.server().role() == sim::Role::replica;
    ctx.write_denied = world.write_denied_key();
    model_.call(argv, ctx, expect_);
  }
  before_jobs_.clear();
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
  if (verb_ == EmqVerb::extend || verb_ == EmqVerb::complete || verb_ == EmqVerb::fail) {
    if (argv.size() > 2) remember(argv[2]);
  } else if (verb_ == EmqVerb::extends) {
    for (std::size_t i = 3; i < argv.size(); i += 2) remember(argv[i]);
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
        if (claimed.items_if_array().size() != 3) continue;
        const std::string_view id = claimed.items()[0].text();
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

void Checker::collect_touched(const World& world, const CallRecord& call) {
  auto& ids = touched_.ids;
  const Args argv = call.argv;
  if (new_queue_) touched_.queues.push_back(argv[1]);
  auto touch = [&](std::string_view q, std::string_view id) { push_unless_last(ids, std::pair(q, id)); };
  // What the ledger moved: the jobs it read from the argv and the reply (it tells which;
  // every word of them, as this once took, was many more lookups, none of them a job that
  // could have changed).
  model_.ledger().each_moved(call.index, touch);
  // What the server wrote, from its journal (the model's writes are read by check_model,
  // when they are not the server's).
  const sim::UndoLog* journal = world.data().journal();
  auto whole = [&](std::string_view q) { touched_.queues.push_back(q); };
  // A row's fields come one entry each, one after another: its job is touched once.
  std::string_view last_row;
  const bool told = journal && journal->each_since(server_from_, [&](sim::UndoLog::Wrote wrote,
                                                                      std::string_view key,
                                                                      std::string_view name) {
    if (wrote == sim::UndoLog::Wrote::field) {
      // the journal keeps a run's key once: the same bytes, mostly, before the same text
      if ((key.data() == last_row.data() && key.size() == last_row.size()) || key == last_row) return;
      last_row = key;
    }
    classify_write(wrote, key, name, touch, whole);
  });
  if (!told) touched_.everything = true;
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::sort(touched_.queues.begin(), touched_.queues.end());
  touched_.queues.erase(std::unique(touched_.queues.begin(), touched_.queues.end()), touched_.queues.end());
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

bool Checker::through_model(const World& world, const CallRecord& call) {
  // A reply the model accepts, to a call on a queue judged before.
  if (direct_ || !with_model_ || !accepted_ || new_queue_) return false;
  const sim::UndoLog* journal = world.data().journal();
  // Both sides made the same writes, in the same order, making the same values: the
  // keyspaces, equal before the call, are equal after it (check_model's common case).
  if (!journal || !journal->same_writes_since(server_from_, *model_.data().journal(), model_from_)) return false;
  // The rows' states the call wrote, the last of each row. Judged directly instead: a row
  // or a set written whole, a state deleted, and any write by an operator's plain command
  // or a script, which may leave a row outside every set, as only the sets tell (an EMQ
  // verb the model ran moves ids between sets and writes their rows' states together; a
  // call that writes nothing, such as any EMQ verb while the module is not loaded,
  // changes nothing).
  const bool verb = expect_.verb != EmqVerb::none;
  states_.clear();
  bool direct = false;
  journal->each_made_since(server_from_, [&](sim::UndoLog::Wrote wrote, std::string_view key,
                                             std::string_view name, const std::string_view* now) {
    direct = direct || !verb;
    if (direct) return;
    if (wrote == sim::UndoLog::Wrote::key) {
      direct = model::parse_row_key(key) || model::set_key_queue(key);
      return;
    }
    if (wrote != sim::UndoLog::Wrote::field || name != "state") return;
    if (!now) {
      direct = true;
      return;
    }
    for (auto& [row, state] : states_) {
      if (row == key) {
        state = *now;
        return;
      }
    }
    states_.emplace_back(key, *now);
  });
  if (direct) return false;
  // Established through the model: every judgement check_touched would make here reads
  // the server's rows and sets, now the model's own, and the model's ledger; on the same
  // history it gives the verdict it gives the model, which the model's audit (a checker
  // judging directly, set_direct) holds to every invariant. Judged directly still: the
  // model's own moves are edges, and the rows' states are followed (the shadow: each
  // change an edge, counted for coverage), as check_touched follows them.
  judge(id_of("queue.transitions"));
  const auto& ledger = model_.ledger();
  ledger.each_moved(call.index, [&](std::string_view q, std::string_view id) {
    if (const JobTruth* job = ledger.job(q, id)) check_ledger_move(world, call, *job);
  });
  judge(id_of("queue.conserve"));
  judge(id_of("epoch.stamp"));
  judge(id_of("queue.budget"));
  const auto& ghosts = ledger.ghosts();
  for (const auto& [key, state] : states_) {
    const auto row = model::parse_row_key(key);
    if (!row) continue;
    if (!ghosts.empty() && ghosts.contains(std::pair(row->queue, row->id))) continue;
    auto* known = known_queue(row->queue);
    if (!known) continue;
    follow(world, known->second.shadow, row->id, Shadow::Map::hash_of(row->id), state);
  }
  judge(id_of("verb.model"));
  ++through_model_calls_;
  return true;
}

void Checker::check_sweep(const World& world, const CallRecord& call) {
  judge(id_of("epoch.exempt"));
  judge(id_of("epoch.counted"));
  // What the model knew of each due member, and its row now.
  class Sight final : public judge::SweepSight {
   public:
    Sight(const Checker& checker, const World& world) : checker_(checker), world_(world) {}
    const judge::JobBefore* ledger_before(std::string_view id) const override {
      auto it = checker_.sweep_ledger_.find(std::string(id));
      return it == checker_.sweep_ledger_.end() ? nullptr : &it->second;
    }
    judge::SweptAfter row_after(std::string_view id) const override {
      bool wrong = false;
      const Keyspace::Hash* row = world_.data().hash_at(model::row_key(checker_.sweep_.queue, id), wrong);
      auto field = [&](std::string_view name) -> sim::Field {
        const std::string* v = row ? Keyspace::hash_field(*row, name) : nullptr;
        return v ? sim::Field(*v) : std::nullopt;
      };
      return {field("stalled"), field("state")};
    }

   private:
    const Checker& checker_;
    const World& world_;
  };
  const judge::SweepContext at{call.at.incarnation, call.at.true_ms, call.at.server_ms, &world.run_ids()};
  WorldFindings findings(*this, world);
  judge::judge_sweep(sweep_, call.reply, at, Sight(*this, world), findings);
}

void Checker::check_lease_verb(const World& world, const CallRecord& call) {
  std::array<judge::LeasePair, 1> one{};
  std::vector<judge::LeasePair> many;
  std::span<const judge::LeasePair> pairs;
  const Reply& r = call.reply;
  if (verb_ == EmqVerb::extends) {
    if (r.kind() != Reply::Kind::array) return;
    for (std::size_t i = 0; 3 + 2 * i + 1 < call.argv.size() && i < r.items().size(); ++i) {
      many.push_back({call.argv[3 + 2 * i], parse_int64(call.argv[4 + 2 * i]).value_or(-1), r.items()[i].as_integer()});
    }
    pairs = many;
  } else {
    if (r.kind() != Reply::Kind::integer || call.argv.size() < 4) return;
    one[0] = {call.argv[2], parse_int64(call.argv[3]).value_or(-1), r.as_integer()};
    pairs = one;
  }
  judge(id_of("queue.fence"));
  WorldFindings findings(*this, world);
  judge::lease_verb(call.argv[0], verb_ == EmqVerb::fail, pairs, before_jobs_, call.actor, call.at.server_ms,
                    findings);
}

// ---- after a start

void Checker::before_rollback(const World& world, std::int64_t position, std::int64_t kept_calls) {
  // Copied now: the rewind drops these journal entries and the ledger's events.
  rollback_.told = true;
  auto job = [&](std::string_view q, std::string_view id) { push_unless_last(rollback_.ids, std::pair(q, id)); };
  auto whole = [&](std::string_view) { rollback_.everything = true; };
  const sim::UndoLog* journal = world.data().journal();
  const bool told = journal && journal->each_since(position, [&](sim::UndoLog::Wrote wrote, std::string_view key,
                                                                 std::string_view name) {
    classify_write(wrote, key, name, job, whole);
    if (with_model_) push_unless_last(rollback_.keys, key);
  });
  if (!told) rollback_.everything = true;
  model_.ledger().each_moved_after(kept_calls, job);
}

void Checker::after_start(const World& world) {
  check_epoch_load(world);
  const std::string when = "at the start of incarnation " + std::to_string(world.incarnation()) + " on " +
                           std::to_string(world.kept_calls()) + " kept of " + std::to_string(world.calls()) +
                           " calls";
  // What the new process holds that was not judged already. Every call was judged (the
  // jobs and keys it touched), every earlier start what it took back, and the first start
  // everything, so the dataset as of the kept calls was judged when they ran; the model
  // truncated to them, its ledger with it, is the model as it stood then (its own write
  // stream, never the server's). So a start judges what the rollback took back: the keys the server's
  // journal and the model's undid, the jobs the ledger's lost events moved. Judged whole:
  // the first start, a start that emptied the dataset (persistence `none`), and any
  // rollback a journal cannot account for or that took a set back whole.
  bool whole = whole_scans_ || !started_ || rollback_.everything ||
               (!rollback_.told && world.kept_calls() != world.calls());
  if (with_model_) {
    // the model keeps what the world kept: the prefix of its own write stream
    auto job = [&](std::string_view q, std::string_view id) { push_unless_last(rollback_.ids, std::pair(q, id)); };
    auto all = [&](std::string_view) { whole = true; };
    const bool told = model_.data().journal()->each_since(
        model_.position_after(world.kept_calls()),
        [&](sim::UndoLog::Wrote wrote, std::string_view key, std::string_view name) {
          classify_write(wrote, key, name, job, all);
          push_unless_last(rollback_.keys, key);
        });
    if (!told) whole = true;
  }
  model_.keep_calls(world.kept_calls());
  model_.new_process();
  started_ = true;
  if (whole) {
    check_model_keyspace(world, when);
    // persistence may have rolled rows back: transitions restart from what was kept
    for (auto& [name, queue] : queues_) queue.shadow.clear();
    tokens_.clear();
    for (const auto& [key, job] : model_.ledger().jobs()) {
      if (job.token > 0) tokens_.emplace(std::string(token_key(key.first, key.second)), job.token);
      auto known = queues_.find(key.first);
      if (known == queues_.end()) continue;
      const std::string* state = field(world.data(), model::RowName(known->second.keys, job.id), "state");
      if (state) known->second.shadow.set(job.id, *state);
    }
    check_state(world);
  } else {
    judge_rollback(world, when);
  }
  rollback_.told = rollback_.everything = false;
  rollback_.ids.clear();
  rollback_.keys.clear();
}

void Checker::judge_rollback(const World& world, std::string_view when) {
  // verb.model: the keys either side undid
  if (with_model_) {
    judge(id_of("verb.model"));
    std::sort(rollback_.keys.begin(), rollback_.keys.end());
    rollback_.keys.erase(std::unique(rollback_.keys.begin(), rollback_.keys.end()), rollback_.keys.end());
    for (const std::string& key : rollback_.keys) {
      const std::string diff = model::compare_key(world.data(), model_.data(), key);
      if (diff.empty()) continue;
      fail("verb.model", world, "st=" + std::to_string(world.server_ms()) + ", " + std::string(when) +
                                    ": the keyspace differs from the model's: " + diff);
      break;
    }
  }
  // The jobs rolled back: transitions restart from what was kept, the highest token
  // granted is the kept one, and each is judged as after a call.
  std::sort(rollback_.ids.begin(), rollback_.ids.end());
  rollback_.ids.erase(std::unique(rollback_.ids.begin(), rollback_.ids.end()), rollback_.ids.end());
  touched_.ids.clear();
  touched_.queues.clear();
  touched_.everything = false;
  touched_jobs_.clear();
  for (const auto& [q, id] : rollback_.ids) {
    const JobTruth* job = model_.ledger().job(q, id);
    const std::string_view key = token_key(q, id);
    if (job && job->token > 0) {
      tokens_.insert_or_assign(std::string(key), job->token);
    } else if (auto it = tokens_.find(key); it != tokens_.end()) {
      tokens_.erase(it);
    }
    auto known = queues_.find(q);
    if (known != queues_.end()) {
      Shadow& shadow = known->second.shadow;
      const std::string* state = field(world.data(), model::RowName(known->second.keys, id), "state");
      if (state) {
        shadow.set(id, *state);
      } else {
        shadow.erase(id);
      }
    }
    touched_.ids.emplace_back(q, id);
  }
  check_touched(world);
}

void Checker::after_reload(const World& world) {
  // the same process: it must still answer EMQ.EPOCH with its own run_id
  check_epoch_load(world);
  check_state(world);
}

void Checker::check_epoch_load(const World& world) {
  judge(id_of("epoch.load"));
  const std::string& run_id = world.run_ids().back();
  const std::string_view epoch_call[] = {"EMQ.EPOCH"};
  const Reply answer = world.probe(epoch_call);
  WorldFindings findings(*this, world);
  judge::epoch_load(world.incarnation(), run_id, model::run_id_shape_ok(run_id) && !world.reload_refused(),
                    world.reload_refused(), answer, findings);
}

// ---- verb.model

void Checker::check_model(const World& world, const CallRecord& call) {
  if (!with_model_) return;
  judge(id_of("verb.model"));
  // The facts are spelt only when something differs.
  auto head = [&] {
    std::string text = "st=" + std::to_string(call.at.server_ms) + ":";
    for (std::string_view a : call.argv) text += ' ' + std::string(a);
    return text + " answered " + debug_string(call.reply);
  };
  auto note = [&]() -> std::string {
    const auto end = expect_.note.find_last_not_of("; ");
    return end == std::string::npos ? "" : " (" + expect_.note.substr(0, end + 1) + ")";
  };
  if (!accepted_) {
    fail("verb.model", world, head() + ", the model expected " + expect_.describe() + note());
    return;
  }
  if (touched_.everything) {  // the server's journal could not say what it wrote
    check_model_keyspace(world, head() + ", with the writes unknown");
    return;
  }
  // The two keyspaces were equal before the call (see below): when both sides made the
  // same writes, in the same order (none included), they are equal after it. The common
  // case, read from the two journals without a lookup; anything else is compared key by key.
  const sim::UndoLog& server_journal = *world.data().journal();
  const sim::UndoLog& model_journal = *model_.data().journal();
  if (server_journal.same_writes_since(server_from_, model_journal, model_from_)) return;
  // What each side wrote: the server's first, then the model's.
  writes_.clear();
  auto push = [&](sim::UndoLog::Wrote wrote, std::string_view key, std::string_view name) {
    writes_.push_back({key, name, wrote});
  };
  server_journal.each_since(server_from_, push);
  server_writes_ = writes_.size();
  model_journal.each_since(model_from_, push);
  // Before the call the two keyspaces were equal (or a difference was reported: the run
  // stops at it): the first start and the phase ends compare them whole, a later start
  // what its rollback undid, and every call since each key either side wrote. So after it
  // they can differ only in a key one side wrote (every write goes through a keyspace's
  // journal; touched_.everything above covers a journal that cannot tell).
  const Keyspace& server = world.data();
  const Keyspace& mine = model_.data();
  // Whether a key may differ, from a run of its writes [from, to): a sorted set that held
  // the same before the call differs only in its size or in a member one side wrote (an
  // O(jobs) compare per call otherwise). Anything else (a string, a row, a key written
  // whole, a key on one side only, of two types) is small or new and is compared whole.
  auto differs = [&](const Keyspace::Value* a, const Keyspace::Value* b, std::size_t from, std::size_t to) {
    if (!a || !b || a->index() != b->index() || a->index() == 0) return true;
    for (std::size_t i = from; i < to; ++i) {
      if (writes_[i].wrote == sim::UndoLog::Wrote::key) return true;
    }
    // a row: a dozen fields, compared whole in one pass (same_value looks at the same place
    // first), cheaper than looking each written field up on both sides
    if (a->index() == 1) return !model::same_value(a, b);
    const Keyspace::Zset& x = *std::get<2>(*a);
    const Keyspace::Zset& y = *std::get<2>(*b);
    if (x.order.size() != y.order.size()) return true;
    for (std::size_t i = from; i < to; ++i) {
      const auto* p = x.scores.find(writes_[i].name);
      const auto* q = y.scores.find(writes_[i].name);
      if ((p == nullptr) != (q == nullptr) || (p && p->second != q->second)) return true;
    }
    return false;
  };
  // By runs of writes to one key, in the journals' order (a call writes a key's fields
  // together): a key written in several runs is looked at once per run, each run's own
  // fields and members, which together are all of them. Cheaper than sorting the writes.
  // The model's writes mostly repeat the server's, run for run: a run of the model's that
  // names the same key and the same fields or members, in the same order, as the server's
  // run at the same place names nothing that run's look did not cover.
  std::size_t mirror = 0;  // start of the server's run at the same place as the model's
  for (std::size_t from = 0; from < writes_.size();) {
    const std::string_view key = writes_[from].key;
    const std::size_t end = from < server_writes_ ? server_writes_ : writes_.size();
    std::size_t to = from + 1;
    while (to < end && writes_[to].key == key) ++to;
    if (from >= server_writes_ && mirror < server_writes_) {
      std::size_t mirror_end = mirror + 1;  // the server's run [mirror, mirror_end)
      while (mirror_end < server_writes_ && writes_[mirror_end].key == writes_[mirror].key) ++mirror_end;
      bool same = mirror_end - mirror == to - from;
      for (std::size_t i = from, m = mirror; same && i < to; ++i, ++m) {
        same = writes_[m].key == writes_[i].key && writes_[m].name == writes_[i].name &&
               writes_[m].wrote == writes_[i].wrote;
      }
      mirror = mirror_end;  // the model's next run sits beside the server's next
      if (same) {
        from = to;
        continue;
      }
    }
    const bool maybe = differs(server.find(key), mine.find(key), from, to);
    from = to;
    if (!maybe) continue;
    std::string diff = model::compare_key(server, mine, key);
    if (diff.empty()) continue;
    fail("verb.model", world, head() + " as the model expected, but " + diff + note());
    return;
  }
}

void Checker::check_model_keyspace(const World& world, std::string_view when) {
  if (!with_model_) return;
  judge(id_of("verb.model"));
  // Equal when they hold as many keys and each of the server's is the model's: cheaper
  // than compare_all, which lists, sorts and merges both sides' keys; that spells a
  // difference out.
  const Keyspace& server = world.data();
  const Keyspace& mine = model_.data();
  if (server.size() == mine.size()) {
    bool equal = true;
    server.each_unordered([&](std::string_view key, const Keyspace::Value& value) {
      equal = equal && model::same_value(&value, mine.find(key));
    });
    if (equal) return;
  }
  const std::string diff = model::compare_all(server, mine);
  if (diff.empty()) return;
  fail("verb.model", world, "st=" + std::to_string(world.server_ms()) + ", " + std::string(when) +
                                ": the keyspace differs from the model's: " + diff);
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

// ---- the whole keyspace, and the jobs one call touched

std::pair<const std::string, Checker::QueueState>* Checker::known_queue(std::string_view q) {
  if (last_queue_ && last_queue_->first == q) return last_queue_;
  auto it = queues_.find(q);
  if (it == queues_.end()) return nullptr;
  last_queue_ = &*it;
  return last_queue_;
}

void Checker::check_state(const World& world) {
  judge(id_of("queue.conserve"));
  judge(id_of("epoch.stamp"));
  judge(id_of("queue.budget"));
  for (auto& [q, queue] : queues_) check_queue(world, q, queue, nullptr);
}

void Checker::check_touched(const World& world) {
  if (touched_.everything) {
    check_state(world);
    return;
  }
  judge(id_of("queue.conserve"));
  judge(id_of("epoch.stamp"));
  judge(id_of("queue.budget"));
  // queue by queue, in order (as check_state goes): whole, or the touched ids of it
  const auto& ids = touched_.ids;
  const auto& whole = touched_.queues;
  if (touched_jobs_.size() != ids.size()) {  // not looked up after a call (a rollback's jobs)
    touched_jobs_.clear();
    for (const auto& [q, id] : ids) touched_jobs_.push_back(model_.ledger().job(q, id));
  }
  auto& of_queue = of_queue_;
  auto& of_jobs = of_jobs_;
  std::size_t i = 0, w = 0;
  while (i < ids.size() || w < whole.size()) {
    std::string_view q;
    if (w < whole.size() && (i == ids.size() || whole[w] <= ids[i].first)) {
      q = whole[w];
    } else {
      q = ids[i].first;
    }
    const bool all = w < whole.size() && whole[w] == q;
    if (all) ++w;
    of_queue.clear();
    of_jobs.clear();
    for (; i < ids.size() && ids[i].first == q; ++i) {
      of_queue.push_back(ids[i].second);
      of_jobs.push_back(touched_jobs_[i]);
    }
    auto* known = known_queue(q);
    if (!known) continue;  // not a queue of this history's verbs
    check_queue(world, known->first, known->second, all ? nullptr : &of_queue, &of_jobs);
  }
}

void Checker::check_queue(const World& world, std::string_view q, QueueState& queue,
                          const std::vector<std::string_view>* ids, const std::vector<const JobTruth*>* jobs) {
  const Keyspace& data = world.data();
  const model::QueueNames& keys = queue.keys;
  const auto& values = queue.sets.of(data, {keys.pending, keys.active, keys.done, keys.dead});
  // null: absent or of another type
  const std::array<const Keyspace::Zset*, 4> sets{Keyspace::as_zset(values[0]), Keyspace::as_zset(values[1]),
                                                  Keyspace::as_zset(values[2]), Keyspace::as_zset(values[3])};
  const auto& ghosts = model_.ledger().ghosts();
  auto ghost = [&](std::string_view id) {
    return !ghosts.empty() && ghosts.contains(std::pair<std::string_view, std::string_view>(q, id));
  };
  Shadow& shadow = queue.shadow;
  WorldFindings findings(*this, world);
  if (!ids) {
    // every member of the four sets, then every job of the ledger: (id, set) pairs sorted
    // by id (views into the sets, which do not change while they are judged)
    // (a member of two sets comes once per set, in the sets' order: sorted by id, then set)
    auto& members = members_;
    members.clear();
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (!sets[i]) continue;
      for (const auto& [score, id] : sets[i]->order) members.emplace_back(id, set_states[i]);
    }
    // set_states lists the states in JobState's own order, so the enum orders the sets
    static_assert(set_states == all_job_states);
    std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
      const int c = a.first.compare(b.first);
      return c != 0 ? c < 0 : a.second < b.second;
    });
    std::vector<JobState> in;
    for (std::size_t i = 0; i < members.size();) {
      const std::string_view id = members[i].first;
      in.clear();
      for (; i < members.size() && members[i].first == id; ++i) in.push_back(members[i].second);
      // an operator deleted this row: a ghost until CLAIM or the sweep removes the id
      if (ghost(id)) continue;
      check_member(world, judge::RowFacts(row_of(data, keys, id)), shadow, id, Shadow::Map::hash_of(id), in);
    }
    // The ledger lists its jobs by (queue, id), bytes compared as here: one walk along
    // `members` finds each job's sets.
    auto it = members.begin();
    for (const auto& [key, job] : model_.ledger().jobs()) {
      if (key.first != q || ghost(job.id)) continue;
      in.clear();
      const std::string_view id = job.id;
      while (it != members.end() && it->first < id) ++it;
      for (; it != members.end() && it->first == id; ++it) in.push_back(it->second);
      judge::ledger_job(job, in, judge::RowFacts(row_of(data, keys, id)), world.run_ids(), findings);
    }
    return;
  }
  // The same judgements, in the same order, of the touched ids only: each id's sets, row
  // and ledger job looked up once for both.
  auto& probes = probes_;
  probes.clear();
  for (std::size_t k = 0; k < ids->size(); ++k) {
    const std::string_view id = (*ids)[k];
    if (ghost(id)) continue;
    Probe& p = probes.emplace_back();
    p.id = id;
    p.hash = Shadow::Map::hash_of(id);  // once for the four sets and the shadow
    for (std::size_t i = 0; i < sets.size(); ++i) {
      if (sets[i] && sets[i]->scores.find(id, p.hash)) p.in[p.sets++] = set_states[i];
    }
    p.row = judge::RowFacts(row_of(data, keys, id));
    p.job = jobs ? (*jobs)[k] : model_.ledger().job(q, id);
  }
  for (const Probe& p : probes) {
    if (p.sets > 0) check_member(world, p.row, shadow, p.id, p.hash, {p.in.data(), p.sets});
  }
  for (const Probe& p : probes) {
    if (p.job) judge::ledger_job(*p.job, {p.in.data(), p.sets}, p.row, world.run_ids(), findings);
  }
}

void Checker::follow(const World& world, Shadow& shadow, std::string_view id, std::uint32_t hash,
                     std::string_view state) {
  std::string* seen = shadow.find(id, hash);
  if (!seen) {
    shadow.set(id, hash, state);
    return;
  }
  if (*seen == state) return;
  auto from = model::parse_state(*seen);
  auto to = model::parse_state(state);
  judge(id_of("queue.transitions"));
  if (!from || !to || !graph_.observe(*from, *to)) {
    fail("queue.transitions", world,
         std::string(id) + " moved " + *seen + "->" + std::string(state) + ", which is not an edge of the state graph");
  }
  seen->assign(state);
}

// A member of the queue's sets (not a ghost): queue.conserve, its move an edge
// (queue.transitions, followed here), queue.budget.
void Checker::check_member(const World& world, const judge::RowFacts& row, Shadow& shadow,
                           std::string_view id, std::uint32_t hash, std::span<const JobState> in) {
  WorldFindings findings(*this, world);
  const std::string* state = judge::conserve_member(id, in, row, findings);
  if (!state) return;
  follow(world, shadow, id, hash, *state);
  judge::budget_member(id, in[0], row, findings);
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
