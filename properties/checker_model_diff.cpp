// verb.model: the server's keyspace against the model's, after each call and at a start
// or phase end.
#include "properties/checker.h"

#include "properties/checker_detail.h"

namespace trafikey::properties {

using namespace checker_detail;

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

}  // namespace trafikey::properties
