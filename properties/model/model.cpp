// The model's call: which of its parts predicts it (a script, an EMQ verb in its file, a
// plain command), the write-access refusal after a verb, the stream positions of its
// persistence, and the ledger fed after each call. The unit tests
// (properties/model/tests/model_test.cpp) state the spec's rules one by one.
#include "properties/model/model.h"

#include <algorithm>
#include <string>

#include "properties/model/refusals.h"
#include "properties/model/verb_call.h"

namespace trafikey::properties::model {

// ---- expectations

void Expectation::clear() {
  replies.clear();
  range_suffixes.clear();
  note.clear();
  writes = false;
  verb = EmqVerb::none;
}

bool Expectation::accepts(const Reply& reply) const {
  for (const Reply& r : replies) {
    if (r == reply) return true;
  }
  if (reply.is_error() && !range_suffixes.empty()) {
    const std::string& t = reply.text();
    constexpr std::string_view head = "ERR EMQ ";
    constexpr std::string_view mid = " must be an integer in ";
    if (t.rfind(head, 0) == 0) {
      const auto at = t.find(mid, head.size());
      if (at != std::string::npos && at > head.size()) {
        const std::string tail = t.substr(at + mid.size());
        for (const auto& s : range_suffixes) {
          if (s == tail) return true;
        }
      }
    }
  }
  return false;
}

std::string Expectation::describe() const {
  if (replies.size() == 1 && range_suffixes.empty()) return debug_string(replies[0]);
  std::string s = "one of:";
  for (const Reply& r : replies) s += " " + debug_string(r);
  for (const auto& x : range_suffixes) s += " (error \"ERR EMQ <arg> must be an integer in " + x + "\")";
  return s;
}

// ---- the model

Model::Model() {
  data_.set_journal(&undo_);
  undo_.keep_new_values(true);  // the checker compares what the writes made (verb.model)
}

void Model::end_call(std::int64_t index) {
  // Call numbers run on across restarts: a lost call keeps its number and adds nothing.
  const auto i = static_cast<std::size_t>(index);
  // one more position a call (resize's fill-insert was the heavier code to run per call)
  while (ends_.size() <= i) ends_.push_back(ends_.back());
  ends_[i] = undo_.position();
}

void Model::settle(const sim::CallRecord& call, const Expectation& e, bool accepted) {
  end_call(call.index);
  if (accepted) {
    ledger_.apply(call, e.verb);
  } else if (!e.replies.empty()) {
    sim::CallRecord mine = call;
    mine.reply = e.replies.front();
    ledger_.apply(mine, e.verb);
  }
}

void Model::keep_calls(std::int64_t calls) {
  ledger_.truncate(calls);
  const auto kept = static_cast<std::size_t>(std::max<std::int64_t>(calls, 0));
  if (kept + 1 >= ends_.size()) return;
  const std::int64_t at = ends_[kept];
  undo_.rewind(data_, at);
  // the calls after `kept` are lost: the stream as of each of them is the stream as of `kept`
  std::fill(ends_.begin() + static_cast<std::ptrdiff_t>(kept) + 1, ends_.end(), at);
}

QueueCache& Model::queue_of(std::string_view q) {
  // most calls name the queue the call before did
  if (last_names_ && last_names_->first == q) return last_names_->second;
  auto it = names_.find(q);
  if (it == names_.end()) {
    it = names_.try_emplace(std::string(q), q).first;
  }
  last_names_ = &*it;
  return it->second;
}

// §6: a writing verb checks every key it will write before its first write; one the caller
// may not write refuses the call (NOPERM EMQ, naming it) and nothing is written. The keys it
// will write are the keys its writes (on the model's own dataset, since `from`) touched.
void Model::refuse_denied_write(std::int64_t from, std::string_view denied, Expectation& e) {
  bool hit = false;
  undo_.each_since(from, [&](sim::UndoLog::Wrote, std::string_view key, std::string_view) { hit = hit || key == denied; });
  if (!hit) return;
  undo_.rewind(data_, from);
  e.clear();
  e.replies.push_back(Reply::error("NOPERM EMQ no write access to " + std::string(denied)));
  e.note = "the caller may not write " + std::string(denied);
}

Expectation Model::call(Args argv, const Context& ctx) {
  Expectation e;
  call(argv, ctx, e);
  return e;
}

void Model::call(Args argv, const Context& ctx, Expectation& e) {
  e.clear();
  if (argv.empty()) {
    e.replies.push_back(unknown(argv));
    return;
  }
  if (sim::Scripting::handles(argv[0])) {
    script(argv, ctx, e);
    return;
  }
  if (argv[0].size() >= 4 && equals_ignore_case(argv[0].substr(0, 4), "EMQ.")) {
    // §2: a process whose epoch did not load serves no EMQ verb.
    if (const EmqVerb name = verb_of(argv[0]); ctx.module_loaded && name != EmqVerb::none) {
      e.verb = name;  // the ledger and the checker read it, not the name again
      const std::int64_t from = undo_.position();
      verb(name, argv, ctx, e);
      if (e.writes && !ctx.write_denied.empty()) refuse_denied_write(from, ctx.write_denied, e);
      return;
    }
    e.replies.push_back(unknown(argv));
    e.note = ctx.module_loaded ? "no such verb" : "the module is not loaded in this process";
    return;
  }
  plain(argv, ctx, e);
}

// §4's verbs, one file each (verb_call.h). EMQ.EPOCH names no queue; every other verb names
// one in argv[1]: a missing one refuses on the arity alone, a bad one joins the verb's
// other refusals.
Expectation& Model::verb(EmqVerb name, Args argv, const Context& ctx, Expectation& e) {
  VerbCall c{argv, ctx, data_, nullptr, e, {}};
  if (name == EmqVerb::epoch) return verbs::epoch(c);
  if (argv.size() < 2) {
    c.refusals.add(e_arity);
    return c.refused();
  }
  if (queue_name_ok(argv[1])) {
    c.queue = &queue_of(argv[1]);
  } else {
    c.refusals.add(e_queue);
  }
  switch (name) {
    case EmqVerb::add: return verbs::add(c);
    case EmqVerb::claim: return verbs::claim(c);
    case EmqVerb::extend: return verbs::extend(c);
    case EmqVerb::extends: return verbs::extends(c);
    case EmqVerb::complete: return verbs::complete(c);
    case EmqVerb::fail: return verbs::fail(c);
    case EmqVerb::sweep: return verbs::stalled_check(c);
    case EmqVerb::stats: return verbs::stats(c);
    case EmqVerb::job: return verbs::job(c);
    case EmqVerb::epoch:
    case EmqVerb::none: break;
  }
  e.replies.push_back(unknown(argv));
  return e;
}

// ---- scripts: each redis.call is one of the model's plain commands (or TIME)

Expectation& Model::script(Args argv, const Context& ctx, Expectation& e) {
  const Reply reply = *scripting_.call(argv, [&](Args command) -> Reply {
    if (equals_ignore_case(command[0], "TIME") && command.size() == 1) return sim::time_reply(ctx.now_ms);
    Expectation& inner = inner_;
    inner.clear();
    plain(command, ctx, inner);
    e.writes = e.writes || inner.writes;
    const Reply& r = inner.replies.front();
    if (r.is_error() && r.text().rfind("ERR unknown command", 0) == 0) {
      return Reply::error("ERR Unknown Redis command called from script");
    }
    return r;
  });
  e.replies.push_back(reply);
  e.note = "a script: its redis.calls ran on the model's own dataset";
  return e;
}

}  // namespace trafikey::properties::model
