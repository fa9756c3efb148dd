// Writing scenarios: the one writer of `.scn` text, used for replay files the harness
// saves and for any scenario built in code (see shared spec SCENARIO.md).
//
// For every well-formed Scenario s (scenario.h `find_defect(s)` is nullopt),
// parse_scenario(write_scenario(s)) == s. The text is canonical: the same Scenario
// always gives the same bytes, whatever file it came from. Layout, as in the spec:
//
//   scenario "TITLE"
//   option persistence always
//   option seed 7
//
//   at 0     a: EMQ.ADD orders j1 hello   => 1
//   at 400   restart
//
// Both options are always written; comments are not kept (a caller may prepend '#'
// lines). Times are padded to the widest time plus two spaces; the '=>' of calls lines
// up two spaces after the longest call that has an expectation, except that a call wider
// than `arrow_column_max` is not padded and pushes no other. Values are spelt by
// notation.h's rules, replies by `to_notation`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

inline constexpr std::size_t arrow_column_max = 56;  // widest call text the arrows align to

// The whole file, ending with a newline. Precondition: find_defect(scenario) is nullopt
// (asserted; a defect gives text that does not parse back).
std::string write_scenario(const Scenario& scenario);

// Numbers each step of `scenario` by the line it has in `file_text`, a file that ends with
// write_scenario(scenario) (comments may come before it): the runners' messages then name
// the file's lines, as they do for a file parsed. Precondition: it does end so (asserted).
void number_steps(Scenario& scenario, std::string_view file_text);

// One step on one line, single-spaced: "at 1500 check row orders j1 state=pending", for
// messages (a runner quoting the step that failed).
std::string write_step(const Step& step);

// The step without its time: "a: EMQ.ADD orders j1 hello => 1".
std::string write_action(const Action& action);

// How the runners print what a `check row` / `check set` expected and saw: `f=v g=-`
// and `[a b]`.
std::string field_list(const std::vector<FieldCheck>& fields,
                       const std::vector<std::optional<std::string>>& values);
std::string id_list(const std::vector<std::string>& ids);

}  // namespace trafikey::scenario
