// A call the model predicted write for write, judged through the model's equality
// (checker.h through_model).
#include "properties/checker.h"

#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

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

}  // namespace trafikey::properties
