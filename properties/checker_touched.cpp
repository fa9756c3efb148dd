// What one call touched (checker.h Touched), and judging only those jobs.
#include "properties/checker.h"

#include <algorithm>

#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

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

std::pair<const std::string, Checker::QueueState>* Checker::known_queue(std::string_view q) {
  if (last_queue_ && last_queue_->first == q) return last_queue_;
  auto it = queues_.find(q);
  if (it == queues_.end()) return nullptr;
  last_queue_ = &*it;
  return last_queue_;
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

}  // namespace trafikey::properties
