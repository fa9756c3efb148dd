// The epoch's checks: a sweep (epoch.exempt, epoch.counted), and each start or reload of
// a process (epoch.load, and judging what a rollback took back).
#include "properties/checker.h"

#include <algorithm>

#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

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
  model_.serve_process(world.incarnation());
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
  const std::string& run_id = world.run_id();
  const std::string_view epoch_call[] = {"EMQ.EPOCH"};
  const Reply answer = world.probe(epoch_call);
  WorldFindings findings(*this, world);
  judge::epoch_load(world.incarnation(), run_id, model::run_id_shape_ok(run_id) && !world.reload_refused(),
                    world.reload_refused(), answer, findings);
}

}  // namespace trafikey::properties
