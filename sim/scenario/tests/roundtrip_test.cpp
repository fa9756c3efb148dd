// Properties of the language as a whole: parse(write(s)) == s for every well-formed
// Scenario, and whatever the parser accepts is well formed and reads back the same.
// Scenarios are composed from small RapidCheck generators, so a failure shrinks to the
// one step (and the one awkward byte) that breaks the round trip.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "sim/run_id.h"
#include "sim/scenario/parse.h"
#include "sim/scenario/write.h"

namespace trafikey::scenario {

// How RapidCheck prints a counterexample: as the file it would be.
void showValue(const Scenario& scenario, std::ostream& os) { os << write_scenario(scenario); }

namespace {

namespace gen = rc::gen;

// Bytes for arguments, queues, ids, fields, values, titles and error texts: the values
// that collide with notation, random bytes, and random printable text.
rc::Gen<std::string> any_bytes() {
  static const std::string awkward_chars =
      std::string("ab09 \t\n\"\\#[]=>:-_+.'{}", 22) + std::string("\0\x01\x7f\x80\xff", 5);
  return gen::oneOf(
      gen::element<std::string>("", "-", "nil", "_", "error", "12", "-3", "007", "-0", ">x", "=>",
                                "=", "a b", "\"", "\\", "#", "[", "]", "x:", "orders", "j1",
                                std::string("\0", 1), "\xff\xfe", "3f2c0d8e"),
      gen::container<std::string>(gen::elementOf(awkward_chars)), gen::arbitrary<std::string>());
}

rc::Gen<std::string> client_name() {
  return gen::nonEmpty(
      gen::container<std::string>(gen::elementOf(std::string("abwz019_-.>!$%'{}"))));
}

rc::Gen<std::string> verb() {
  static const std::vector<std::string> verbs = {"EMQ.ADD",
                                                 "EMQ.CLAIM",
                                                 "EMQ.EXTEND",
                                                 "EMQ.EXTENDS",
                                                 "EMQ.COMPLETE",
                                                 "EMQ.FAIL",
                                                 "EMQ.STALLED.CHECK",
                                                 "EMQ.STATS",
                                                 "EMQ.JOB",
                                                 "EMQ.EPOCH",
                                                 "HSET",
                                                 "HGET",
                                                 "HGETALL",
                                                 "HDEL",
                                                 "ZADD",
                                                 "ZREM",
                                                 "ZRANGE",
                                                 "ZSCORE",
                                                 "INCR",
                                                 "DEL",
                                                 "TYPE",
                                                 "EXISTS"};
  return gen::map(gen::pair(gen::elementOf(verbs), gen::arbitrary<bool>()),
                  [](const std::pair<std::string, bool>& v) {
                    std::string name = v.first;
                    if (v.second) {
                      std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
                        return static_cast<char>(std::tolower(c));
                      });
                    }
                    return name;
                  });
}

rc::Gen<ReplyPattern> pattern(int depth) {
  auto leaf = gen::oneOf(
      gen::map(gen::arbitrary<std::int64_t>(), ReplyPattern::make_integer),
      gen::map(any_bytes(), ReplyPattern::make_string), gen::just(ReplyPattern::make_nil()),
      gen::map(any_bytes(), ReplyPattern::make_error), gen::just(ReplyPattern::make_any()));
  if (depth == 0) return leaf;
  auto array = gen::mapcat(gen::inRange(0, 5), [depth](int n) {
    return gen::map(
        gen::container<std::vector<ReplyPattern>>(n, pattern(depth - 1)),
        [](std::vector<ReplyPattern> items) { return ReplyPattern::make_array(std::move(items)); });
  });
  return gen::weightedOneOf<ReplyPattern>({{3, leaf}, {1, array}});
}

rc::Gen<Action> call_action() {
  auto expect =
      gen::oneOf(gen::just(std::optional<ReplyPattern>{}), gen::map(pattern(3), [](ReplyPattern p) {
                   return std::optional<ReplyPattern>(std::move(p));
                 }));
  return gen::map(
      gen::tuple(client_name(), verb(), gen::container<std::vector<std::string>>(any_bytes()),
                 expect),
      [](std::tuple<std::string, std::string, std::vector<std::string>, std::optional<ReplyPattern>>
             t) {
        auto& [client, name, args, reply] = t;
        std::vector<std::string> argv{name};
        argv.insert(argv.end(), args.begin(), args.end());
        return Action(Call{client, std::move(argv), std::move(reply)});
      });
}

rc::Gen<double> drift_rate() {
  return gen::oneOf(gen::element(0.0, 0.5, 1.0, 1.5, 2.0, drift_rate_max),
                    gen::map(gen::inRange(0, 1000001), [](int m) { return m / 1000.0; }),
                    gen::map(gen::arbitrary<double>(), [](double x) {
                      x = std::fabs(x);
                      if (!std::isfinite(x)) return 1.0;
                      while (x > drift_rate_max)
                        x /= 1024;  // bounded: a finite double needs < 120 steps
                      return x;
                    }));
}

rc::Gen<Action> check_row() {
  auto field = gen::pair(any_bytes(), gen::oneOf(gen::just(std::optional<std::string>{}),
                                                 gen::map(any_bytes(), [](std::string v) {
                                                   return std::optional<std::string>(std::move(v));
                                                 })));
  return gen::map(
      gen::tuple(
          any_bytes(), any_bytes(),
          gen::nonEmpty(
              gen::container<std::vector<std::pair<std::string, std::optional<std::string>>>>(
                  field))),
      [](std::tuple<std::string, std::string,
                    std::vector<std::pair<std::string, std::optional<std::string>>>>
             t) {
        CheckRow row{std::get<0>(t), std::get<1>(t), {}};
        for (auto& [name, value] : std::get<2>(t)) {
          const bool seen = std::any_of(row.fields.begin(), row.fields.end(),
                                        [&](const FieldCheck& f) { return f.field == name; });
          if (!seen) row.fields.push_back({name, value});  // a row check names a field once
        }
        return Action(std::move(row));
      });
}

rc::Gen<Action> action() {
  return gen::oneOf(
      call_action(), call_action(), gen::just(Action(Restart{})), gen::just(Action(Failover{})),
      gen::just(Action(ReplicaRole{true})), gen::just(Action(ReplicaRole{false})),
      gen::just(Action(WriteDenied{"emq:{q}:active"})), gen::just(Action(WriteDenied{})),
      gen::map(gen::oneOf(gen::inRange<std::int64_t>(-5000, 5001),
                          gen::inRange<std::int64_t>(-time_ms_max, time_ms_max + 1)),
               [](std::int64_t d) { return Action(ClockStep{d}); }),
      gen::map(drift_rate(), [](double r) { return Action(Drift{r}); }),
      gen::map(gen::element(EpochFault::Kind::fail, EpochFault::Kind::malformed_drawn),
               [](EpochFault::Kind k) { return Action(EpochFault{k}); }),
      // a malformed run_id given byte for byte (any bytes but a good run_id's shape, none
      // included)
      gen::map(gen::suchThat(any_bytes(), [](const std::string& b) { return !sim::run_id_shape_ok(b); }),
               [](std::string b) { return Action(EpochFault{EpochFault::Kind::malformed_text, std::move(b)}); }),
      gen::map(client_name(), [](std::string c) { return Action(Lose{std::move(c)}); }),
      check_row(),
      gen::map(
          gen::tuple(any_bytes(),
                     gen::element(SetName::pending, SetName::active, SetName::done, SetName::dead),
                     gen::container<std::vector<std::string>>(any_bytes())),
          [](std::tuple<std::string, SetName, std::vector<std::string>> t) {
            return Action(CheckSet{std::get<0>(t), std::get<1>(t), std::get<2>(t)});
          }),
      gen::just(Action(CheckInvariants{})));
}

// Steps with non-decreasing times: each step waits a drawn delay after the previous one
// (often none, sometimes up to the bound, where the times saturate).
rc::Gen<std::vector<Step>> steps() {
  auto delay = gen::oneOf(gen::just<std::int64_t>(0), gen::inRange<std::int64_t>(0, 3000),
                          gen::inRange<std::int64_t>(0, time_ms_max + 1));
  return gen::map(
      gen::container<std::vector<std::pair<std::int64_t, Action>>>(gen::pair(delay, action())),
      [](std::vector<std::pair<std::int64_t, Action>> drawn) {
        std::vector<Step> out;
        std::int64_t time_ms = 0;
        for (auto& [delay_ms, act] : drawn) {
          time_ms = std::min(time_ms_max, time_ms + delay_ms);
          out.push_back(Step{time_ms, 0, std::move(act)});
        }
        return out;
      });
}

rc::Gen<Scenario> scenario() {
  return gen::map(
      gen::tuple(any_bytes(),
                 gen::element(Persistence::always, Persistence::everysec, Persistence::snapshot,
                              Persistence::none),
                 gen::arbitrary<std::uint64_t>(), steps()),
      [](std::tuple<std::string, Persistence, std::uint64_t, std::vector<Step>> t) {
        return Scenario{std::get<0>(t), Options{std::get<1>(t), std::get<2>(t)}, std::get<3>(t)};
      });
}

RC_GTEST_PROP(RoundTrip, parse_of_write_gives_back_the_scenario, ()) {
  const Scenario s = *scenario();
  RC_ASSERT(!find_defect(s));
  const std::string text = write_scenario(s);
  auto back = parse_scenario(text, "generated.scn");
  if (!back.ok()) RC_FAIL(to_string(back.error()));
  RC_ASSERT(back.value() == s);
  RC_ASSERT(write_scenario(back.value()) == text);  // canonical: a fixed point
  // Steps are written one a line after the 3 header lines and a blank line.
  for (std::size_t i = 0; i < back.value().steps.size(); ++i) {
    RC_ASSERT(back.value().steps[i].line == static_cast<int>(i) + 5);
  }
}

// Damage a written file at random: whatever the parser then accepts is well formed and
// reads back the same; whatever it refuses is refused at a real position.
RC_GTEST_PROP(RoundTrip, what_the_parser_accepts_is_well_formed_and_the_rest_is_located, ()) {
  std::string text = write_scenario(*scenario());
  const auto edits = *gen::container<std::vector<std::tuple<std::size_t, int, char>>>(
      gen::tuple(gen::arbitrary<std::size_t>(), gen::inRange(0, 3),
                 gen::elementOf(std::string("a0 \"\\#[]=>:-+\nx", 15))));
  for (const auto& [where, kind, byte] : edits) {
    const std::size_t at = text.empty() ? 0 : where % text.size();
    if (kind == 0) {
      text.insert(at, 1, byte);
    } else if (kind == 1 && !text.empty()) {
      text.erase(at, 1);
    } else if (!text.empty()) {
      text[at] = byte;
    }
  }
  auto parsed = parse_scenario(text, "damaged.scn");
  if (parsed.ok()) {
    RC_ASSERT(!find_defect(parsed.value()));
    auto again = parse_scenario(write_scenario(parsed.value()), "rewritten.scn");
    RC_ASSERT(again.ok());
    RC_ASSERT(again.value() == parsed.value());
    return;
  }
  const ParseError& e = parsed.error();
  const auto lines = std::count(text.begin(), text.end(), '\n') + 1;
  RC_ASSERT(e.line >= 1 && e.line <= lines);
  std::size_t line_start = 0;
  for (int i = 1; i < e.line; ++i) line_start = text.find('\n', line_start) + 1;
  const std::size_t line_end = std::min(text.find('\n', line_start), text.size());
  RC_ASSERT(e.column >= 1 && static_cast<std::size_t>(e.column) <= line_end - line_start + 1);
  RC_ASSERT(e.message.find("expected") != std::string::npos);
}

}  // namespace
}  // namespace trafikey::scenario
