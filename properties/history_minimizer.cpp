#include "properties/history_minimizer.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/args.h"
#include "core/keys.h"
#include "properties/scenario_export.h"
#include "properties/scenario_replay.h"
#include "sim/executor_scripts.h"

namespace trafikey::properties {

namespace {

namespace scn = trafikey::scenario;
using Steps = std::vector<scn::Step>;

bool is_action(const scn::Step& step) {
  return !std::holds_alternative<scn::CheckRow>(step.action) &&
         !std::holds_alternative<scn::CheckSet>(step.action) &&
         !std::holds_alternative<scn::CheckInvariants>(step.action);
}

bool is_fault(const scn::Step& step) {
  return !is_action(step) ? false : !std::holds_alternative<scn::Call>(step.action);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The steps the minimizer works on: the actions, replies unchecked (later replies change
// as steps go). Each keeps its line (Step's == ignores it): a test of the same failure may
// name the step it fails at by the line it came from (minimize_steps).
Steps actions_of(const scn::Scenario& scenario) {
  Steps out;
  for (const scn::Step& step : scenario.steps) {
    if (!is_action(step)) continue;
    scn::Step s{step.time_ms, step.line, step.action};
    if (auto* call = std::get_if<scn::Call>(&s.action)) call->expect.reset();
    out.push_back(std::move(s));
  }
  return out;
}

std::int64_t calls_in(const Steps& steps) {
  return std::count_if(steps.begin(), steps.end(),
                       [](const scn::Step& s) { return std::holds_alternative<scn::Call>(s.action); });
}

// The result of one replay of candidate steps: the first broken invariant and how many
// steps ran up to it.
struct Verdict {
  std::optional<std::string> invariant;
  std::vector<std::string> at_call;  // every invariant broken at that call, sorted
  std::size_t steps_run = 0;
};

Verdict replay_unchecked(const scn::Scenario& scenario, std::vector<Reply>* replies = nullptr) {
  ScenarioReplay replay(scenario, "", false);
  Verdict out;
  for (const scn::Step& step : scenario.steps) {
    if (!is_action(step)) continue;
    (void)replay.step(step, false);
    ++out.steps_run;
    if (replies && std::holds_alternative<scn::Call>(step.action)) replies->push_back(replay.world().last_call().reply);
    if (replay.checker().failed()) break;
  }
  if (!replay.checker().failed()) {
    // what a final `check invariants` judges: the whole keyspace once more
    const std::int64_t at = scenario.steps.empty() ? 0 : scenario.steps.back().time_ms;
    (void)replay.step(scn::Step{at, 0, scn::CheckInvariants{}}, true);
  }
  if (replay.checker().failed()) {
    const auto& broken = replay.checker().violations();
    out.invariant = broken.front().invariant;
    for (const Violation& v : broken) {
      if (v.call == broken.front().call) out.at_call.push_back(v.invariant);
    }
    std::sort(out.at_call.begin(), out.at_call.end());
    out.at_call.erase(std::unique(out.at_call.begin(), out.at_call.end()), out.at_call.end());
  }
  return out;
}

bool same_failure(const Verdict& v, const std::string& invariant, const std::vector<std::string>& required) {
  return v.invariant == invariant && std::includes(v.at_call.begin(), v.at_call.end(), required.begin(), required.end());
}

// The native verb a call of the scripted executor (sim/executor_scripts.h: EVALSHA by
// digest, or EVAL of the very body) stands for, with its queue read from its first key;
// nullopt for any other call. The script's lease carries no stamp and the verb's does, so
// the substitution is a different call: the minimizer keeps it only when the failure stays.
std::optional<std::vector<std::string>> native_of(const std::vector<std::string>& argv) {
  if (argv.size() < 3) return std::nullopt;
  const std::string verb = upper(argv[0]);
  sim::ExecutorScript script = sim::ExecutorScript::none;
  if (verb == "EVALSHA") script = sim::executor_script_of_sha(argv[1]);
  if (verb == "EVAL") script = sim::executor_script_of_body(argv[1]);
  if (script == sim::ExecutorScript::none) return std::nullopt;
  const std::size_t keys = argv[2] == "2" ? 2 : argv[2] == "3" ? 3 : 0;
  if (keys == 0 || argv.size() < 3 + keys) return std::nullopt;
  const auto queue = key_queue(argv[3]);  // "emq:{q}:pending" or "emq:{q}:active"
  if (!queue) return std::nullopt;
  const std::string q(*queue);
  const std::vector<std::string> args(argv.begin() + static_cast<std::ptrdiff_t>(3 + keys), argv.end());
  switch (script) {
    case sim::ExecutorScript::claim:  // ARGV lease_ms count
      if (keys != 2 || args.size() != 2) return std::nullopt;
      return std::vector<std::string>{"EMQ.CLAIM", q, args[0], "COUNT", args[1]};
    case sim::ExecutorScript::extend:  // ARGV id token lease_ms
      if (keys != 2 || args.size() != 3) return std::nullopt;
      return std::vector<std::string>{"EMQ.EXTEND", q, args[0], args[1], args[2]};
    case sim::ExecutorScript::complete: {  // ARGV id token [result]
      if (keys != 3 || args.size() < 2 || args.size() > 3) return std::nullopt;
      std::vector<std::string> out{"EMQ.COMPLETE", q};
      out.insert(out.end(), args.begin(), args.end());
      return out;
    }
    case sim::ExecutorScript::none: break;
  }
  return std::nullopt;
}

class Minimizer {
 public:
  Minimizer(const scn::Options& options, SameFailure same, const MinimizeOptions& opts)
      : options_(options), same_(std::move(same)), opts_(opts) {}

  // Whether `candidate` is still the same failure (same_); when it is, it becomes the
  // current steps, cut after the step at which it failed.
  bool accept(const Steps& candidate, const char* pass) {
    if (out_of_budget()) return false;  // empty too: a failure at the first start needs no step
    ++replays_;
    const std::optional<std::size_t> ran = same_(scn::Scenario{"", options_, candidate});
    if (ran) {
      ++accepted_;
      steps_ = candidate;
      if (*ran < steps_.size()) steps_.resize(*ran);
    }
    if (opts_.progress) opts_.progress(replays_, steps_.size(), pass);
    return ran.has_value();
  }

  bool out_of_budget() const { return replays_ >= opts_.replay_budget; }
  int replays() const { return replays_; }
  int accepted() const { return accepted_; }
  Steps& steps() { return steps_; }
  void set_steps(Steps steps) { steps_ = std::move(steps); }

  // Every CLAIM that got nothing (`replies`: the calls' replies in the current steps), and
  // every fault step equal to the one before it, dropped at once.
  void drop_idle(const std::vector<Reply>& replies) {
    if (replies.size() < static_cast<std::size_t>(calls_in(steps_))) return;  // replies not known
    Steps kept;
    std::size_t call = 0;
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      const scn::Step& s = steps_[i];
      if (const auto* c = std::get_if<scn::Call>(&s.action)) {
        const Reply& r = replies[call++];
        if (upper(c->argv[0]) == "EMQ.CLAIM" && r.kind() == Reply::Kind::array && r.items().empty()) continue;
      } else if (i > 0 && is_fault(s) && s == steps_[i - 1]) {
        continue;
      }
      kept.push_back(s);
    }
    if (kept.size() < steps_.size()) accept(kept, "idle");
  }

  std::vector<std::string> clients() const {
    std::vector<std::string> out;
    for (const scn::Step& s : steps_) {
      const std::string* name = client_of(s);
      if (name && std::find(out.begin(), out.end(), *name) == out.end()) out.push_back(*name);
    }
    return out;
  }

  // Each client's calls and `lose`s at once; then each client but the first renamed to the
  // first (one actor fewer to read).
  void drop_actors() {
    for (const std::string& name : clients()) {
      Steps kept;
      for (const scn::Step& s : steps_) {
        const std::string* c = client_of(s);
        if (!c || *c != name) kept.push_back(s);
      }
      accept(kept, "actors");
    }
    const auto names = clients();
    for (std::size_t k = 1; k < names.size(); ++k) {
      Steps renamed = steps_;
      for (scn::Step& s : renamed) {
        if (auto* call = std::get_if<scn::Call>(&s.action); call && call->client == names[k]) call->client = names[0];
        if (auto* lose = std::get_if<scn::Lose>(&s.action); lose && lose->client == names[k]) lose->client = names[0];
      }
      accept(renamed, "actors");
    }
  }

  // Zeller's ddmin over the current steps.
  void ddmin() {
    std::size_t n = 2;
    while (steps_.size() >= 2 && !out_of_budget()) {
      const std::size_t size = steps_.size();
      n = std::min(n, size);
      bool reduced = false;
      for (std::size_t k = 0; k < n && !reduced; ++k) {  // a chunk alone
        if (accept(chunk(k, n, true), "ddmin")) {
          n = 2;
          reduced = true;
        }
      }
      // all but a chunk (with two chunks, that is the other chunk, tried above)
      for (std::size_t k = 0; k < n && !reduced && n > 2; ++k) {
        if (accept(chunk(k, n, false), "ddmin")) {
          n = std::max<std::size_t>(n - 1, 2);
          reduced = true;
        }
      }
      if (!reduced) {
        if (n >= size) break;
        n = std::min(size, 2 * n);
      }
    }
  }

  // One step at a time, from the last, until no single step can go. True when something went.
  bool singles() {
    bool any = false;
    for (bool changed = true; changed && !out_of_budget();) {
      changed = false;
      for (std::size_t i = steps_.size(); i-- > 0 && !out_of_budget();) {
        if (i >= steps_.size()) continue;
        Steps candidate = steps_;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
        if (accept(candidate, "single")) changed = any = true;
      }
    }
    return any;
  }

  // Two steps at a time, when few are left: a failure that needs a step gone together with
  // the one that made it matter (a CLAIM and the ADD it took) is 1-minimal but not done.
  // True when a pair went. Quadratic, so only below pairs_max steps.
  static constexpr std::size_t pairs_max = 24;
  bool pairs() {
    if (steps_.size() > pairs_max) return false;
    for (std::size_t j = steps_.size(); j-- > 1 && !out_of_budget();) {
      for (std::size_t i = j; i-- > 0 && !out_of_budget();) {
        Steps candidate = steps_;
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(j));
        candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
        if (accept(candidate, "pair")) return true;
      }
    }
    return false;
  }

  // Each call of the scripted executor made its native verb, one at a time: a reviewer
  // reads EMQ.CLAIM q 250 COUNT 1, not a script body, and the EVAL that only loaded the
  // script for a later EVALSHA can then go. True when one was replaced.
  bool natives() {
    bool any = false;
    for (std::size_t i = 0; i < steps_.size() && !out_of_budget(); ++i) {
      const auto* call = std::get_if<scn::Call>(&steps_[i].action);
      if (!call) continue;
      auto native = native_of(call->argv);
      if (!native) continue;
      Steps candidate = steps_;
      std::get<scn::Call>(candidate[i].action).argv = std::move(*native);
      std::get<scn::Call>(candidate[i].action).expect.reset();
      if (accept(candidate, "natives")) any = true;
    }
    return any;
  }

  // Each COUNT or LIMIT value lowered, to 1 else to half, one at a time: a reviewer reads
  // COUNT 1 and the one job it needs, not COUNT 3 and the jobs that only filled it (which
  // singles() can then drop). True when one went down.
  bool numbers() {
    bool any = false;
    for (std::size_t i = 0; i < steps_.size() && !out_of_budget(); ++i) {
      for (std::size_t a = 1; i < steps_.size() && !out_of_budget(); ++a) {
        const auto* call = std::get_if<scn::Call>(&steps_[i].action);
        if (!call || a + 1 >= call->argv.size()) break;
        const std::string word = upper(call->argv[a]);
        if (word != "COUNT" && word != "LIMIT") continue;
        const auto value = parse_int64(call->argv[a + 1]);
        if (!value || *value <= 1) continue;
        for (const std::int64_t lower : {std::int64_t{1}, *value / 2}) {
          if (lower < 1 || lower >= *value) continue;
          Steps candidate = steps_;
          auto& c = std::get<scn::Call>(candidate[i].action);
          c.argv[a + 1] = std::to_string(lower);
          c.expect.reset();
          if (accept(candidate, "numbers")) {
            any = true;
            break;
          }
        }
      }
    }
    return any;
  }

  // Each gap before a step (the first's: from 0) closed, else rounded down to a multiple
  // of 1000, 100 or 10 ms; the steps after it move with it. True when a time moved.
  bool times() {
    bool any = false;
    for (std::size_t i = 0; i < steps_.size() && !out_of_budget(); ++i) {
      const std::int64_t before = i == 0 ? 0 : steps_[i - 1].time_ms;
      const std::int64_t gap = steps_[i].time_ms - before;
      if (gap <= 0) continue;
      for (const std::int64_t unit : {std::int64_t{0}, std::int64_t{1000}, std::int64_t{100}, std::int64_t{10}}) {
        const std::int64_t shorter = unit == 0 ? 0 : gap / unit * unit;
        if (shorter == gap) break;  // already round at this unit: finer units change nothing
        Steps candidate = steps_;
        for (std::size_t j = i; j < candidate.size(); ++j) candidate[j].time_ms -= gap - shorter;
        if (accept(candidate, "times")) {
          any = true;
          break;
        }
      }
    }
    return any;
  }

 private:
  static const std::string* client_of(const scn::Step& s) {
    if (const auto* call = std::get_if<scn::Call>(&s.action)) return &call->client;
    if (const auto* lose = std::get_if<scn::Lose>(&s.action)) return &lose->client;
    return nullptr;
  }

  Steps chunk(std::size_t k, std::size_t n, bool alone) const {
    const std::size_t size = steps_.size();
    const std::size_t from = k * size / n, to = (k + 1) * size / n;
    Steps out;
    for (std::size_t i = 0; i < size; ++i) {
      if ((i >= from && i < to) == alone) out.push_back(steps_[i]);
    }
    return out;
  }

  scn::Options options_;
  SameFailure same_;
  const MinimizeOptions& opts_;
  Steps steps_;
  int replays_ = 0;
  int accepted_ = 0;
};

// Every pass, in order, from `cut` (the failing steps up to the one that failed; `replies`
// its calls' replies, for the idle pass). Returns whether every pass ran to its end within
// the budget.
bool run_passes(Minimizer& m, Steps cut, const std::vector<Reply>& replies) {
  m.set_steps(std::move(cut));
  m.drop_idle(replies);
  m.drop_actors();
  m.ddmin();
  if (m.natives()) m.ddmin();
  m.numbers();
  m.singles();
  for (int round = 0; round < 4 && m.times(); ++round) {
    if (!m.singles()) break;
  }
  while (!m.out_of_budget() && m.pairs()) m.singles();
  if (m.out_of_budget()) return false;
  m.singles();  // times() may have made a step redundant
  return !m.out_of_budget();
}

// The first `steps_run` steps, and the replies of the calls among them.
Steps cut_after(const Steps& steps, std::size_t steps_run, std::vector<Reply>& replies) {
  Steps cut(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(std::min(steps_run, steps.size())));
  const auto cut_calls = std::min(replies.size(), static_cast<std::size_t>(calls_in(cut)));
  replies.erase(replies.begin() + static_cast<std::ptrdiff_t>(cut_calls), replies.end());
  return cut;
}

}  // namespace

MinimalSteps minimize_steps(const scenario::Scenario& failing, const SameFailure& same, std::vector<Reply> replies,
                            const MinimizeOptions& options) {
  MinimalSteps out;
  const Steps original = actions_of(failing);
  const std::optional<std::size_t> ran = same(scn::Scenario{"", failing.options, original});
  if (!ran) {
    out.error = "its steps do not fail so to begin with";
    return out;
  }
  Minimizer m(failing.options, same, options);
  out.one_minimal = run_passes(m, cut_after(original, *ran, replies), replies);
  out.replays = m.replays() + 1;
  out.accepted = m.accepted();
  out.steps = m.steps();
  out.failing = true;
  return out;
}

std::optional<std::string> first_broken_invariant(const scenario::Scenario& scenario, std::size_t* steps_run) {
  scn::Scenario actions{scenario.title, scenario.options, actions_of(scenario)};
  const Verdict v = replay_unchecked(actions);
  if (steps_run) *steps_run = v.steps_run;
  return v.invariant;
}

bool breaks_the_same(const scenario::Scenario& scenario, const std::string& invariant,
                     const std::vector<std::string>& required) {
  scn::Scenario actions{scenario.title, scenario.options, actions_of(scenario)};
  return same_failure(replay_unchecked(actions), invariant, required);
}

std::optional<ExportedScenario> record_scenario(const scenario::Scenario& draft, const std::string& file_name,
                                                std::string* history, std::string* why) {
  ScenarioReplay recording(draft, file_name, true);
  (void)recording.run();
  const sim::History& recorded = recording.world().history();
  if (history) *history = recorded.text();
  return export_scenario(recorded.header_json(), recorded.events(), recording.checker().violations(), why);
}

Minimized minimize_scenario(const scenario::Scenario& failing, const MinimizeOptions& options) {
  Minimized out;
  const Steps original = actions_of(failing);
  out.steps_before = original.size();
  out.calls_before = calls_in(original);
  std::vector<Reply> replies;
  const Verdict first = replay_unchecked(scn::Scenario{"", failing.options, original}, &replies);
  if (!first.invariant) {
    out.error = "its steps break no invariant on the sim";
    return out;
  }
  out.invariant = options.invariant.empty() ? *first.invariant : options.invariant;
  if (*first.invariant != out.invariant) {
    out.error = "its steps break " + *first.invariant + " first, not " + out.invariant;
    return out;
  }
  out.failing = true;
  // The same failure: the same invariant first, and every other one its call broke too
  // (a step gone that leaves the first but loses the model's own verdict has made another
  // failure, as a row removed that makes the CLAIM after it meet a half-written job).
  out.required = first.at_call;

  const SameFailure same = [invariant = out.invariant, required = out.required](const scn::Scenario& s) {
    const Verdict v = replay_unchecked(s);
    return same_failure(v, invariant, required) ? std::optional<std::size_t>(v.steps_run) : std::nullopt;
  };
  Minimizer m(failing.options, same, options);
  out.one_minimal = run_passes(m, cut_after(original, first.steps_run, replies), replies);
  out.replays = m.replays();

  // Re-record: replay the minimal steps with the history kept, write it as a scenario
  // with every reply spelled out, and replay that file as `trafikey-sim scenario` would.
  const Steps& minimal = m.steps();
  scn::Scenario draft{failing.title, failing.options, minimal};
  draft.steps.push_back({minimal.empty() ? 0 : minimal.back().time_ms, 0, scn::CheckInvariants{}});
  std::string why;
  auto exported = record_scenario(draft, options.file_name, nullptr, &why);
  if (!exported) {
    out.error = "the minimal steps do not write back as a scenario: " + why;
    return out;
  }
  prepend_comment(*exported, "# Minimized from " + std::to_string(out.steps_before) + " steps (" +
                                 std::to_string(out.calls_before) + " calls) to " + std::to_string(minimal.size()) +
                                 " (" + std::to_string(calls_in(minimal)) +
                                 (out.one_minimal ? " calls): removing any one step loses the failure.\n"
                                                  : " calls); the replay budget ran out before it was 1-minimal.\n"));
  out.scenario = std::move(exported->scenario);
  out.text = std::move(exported->text);
  ScenarioReplay check(out.scenario, options.file_name, true);
  const auto mismatch = check.run();
  out.history = check.world().history().text();
  out.violations = check.checker().violations();
  out.steps_after = minimal.size();
  out.calls_after = calls_in(minimal);
  if (!mismatch || mismatch->first + 1 != out.scenario.steps.size() || mismatch->second.invariant != out.invariant) {
    out.error = "the re-recorded file does not fail at its final check invariants with " + out.invariant +
                (mismatch ? " (step " + std::to_string(mismatch->first + 1) + ": expected " + mismatch->second.expected +
                                ", got " + mismatch->second.actual + ")"
                          : " (it passed)");
  }
  return out;
}

Minimized minimize_history(const std::string& history_text, const MinimizeOptions& options) {
  std::string why;
  const auto exported = export_scenario(history_text, {}, &why);
  if (!exported) {
    Minimized out;
    out.error = "not a history this build can write as a scenario: " + why;
    return out;
  }
  return minimize_scenario(exported->scenario, options);
}

}  // namespace trafikey::properties
