// Parsing `.scn` files (shared spec SCENARIO.md) into a Scenario, strictly.
//
// The parser accepts exactly the well-formed files (scenario.h `find_defect` states the
// rules) and refuses anything else with a ParseError naming the file, the 1-based line
// and byte column, and what was expected there:
//   orders.scn:7:52: expected a reply after '=>'
// It never throws and never stops at a warning: the first error ends the parse. Lines:
//   scenario "TITLE"              exactly once, before every other line
//   option persistence MODE       always | everysec | snapshot | none
//   option seed N                 0..2^64-1
//   option snapshot_interval_ms MS, option replication_lag_ms MS
//                                 1..86400000; each option at most once, before any step
//   at T STEP                     T in ms, 0..2^53-1, never smaller than the line before
// Steps (after `at T`):
//   C: VERB ARG... [=> REPLY]     C a plain word without ':'; VERB, any case, an EMQ verb,
//                                 a plain command (sim/plain.h) or EVAL, EVALSHA, SCRIPT
//                                 (scenario.h is_known_verb); ARG words or strings
//   restart | failover | reload
//   replica | primary             the server becomes a replica (refuses writes), or not
//   deny KEY | allow              writes to KEY are denied (NOPERM), or none
//   clock +MS | clock -MS         |MS| <= 2^53-1
//   drift RATE                    a decimal number in 0..1000
//   epoch fail | epoch malformed  the next start's run_id read fails / is malformed (drawn)
//   epoch malformed "TEXT"        ... reads exactly TEXT, not a run_id; "" is an empty read
//   epoch RUN_ID                  ... reads exactly RUN_ID (40 lowercase hex)
//   lose C
//   check row Q ID F=V...         one or more, distinct fields; V '-' means absent
//   check set Q SET ID...         SET pending | active | done | dead; no ids: empty
//   check invariants
// Tokens and replies are as notation.h and reply_pattern.h describe.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "sim/scenario/reply_pattern.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

struct ParseError {
  std::string file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based byte column
  std::string message;
  bool operator==(const ParseError&) const = default;
};

// "FILE:LINE:COLUMN: MESSAGE" (without "FILE:" when the file name is empty).
std::string to_string(const ParseError& error);

// A parsed value or the error that stopped the parse.
template <class T>
class [[nodiscard]] Parsed {
 public:
  Parsed(T value) : v_(std::in_place_index<0>, std::move(value)) {}          // NOLINT
  Parsed(ParseError error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const ParseError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, ParseError> v_;
};

// `file_name` is only used in errors (pass the path as the user gave it).
Parsed<Scenario> parse_scenario(std::string_view text, std::string_view file_name);

// One reply in scenario notation, alone on a line (comments allowed). Errors name line 1
// and no file.
Parsed<ReplyPattern> parse_reply_pattern(std::string_view text);

}  // namespace trafikey::scenario
