// export_scenario: a history as a scenario (shared spec SCENARIO.md) that replays the same
// calls, faults and replies on the simulated server, every reply spelled out, ending with
// `check invariants`: a value, and the `.scn` file that writes it.
//
// The history is read by the one reader (sim/history_read.h). The minimizer and the
// failure files work on the value; the file is written once, from it, and the value's
// steps carry the lines they have in it (a message naming a step's line names the file's).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "properties/checker.h"
#include "sim/history_line.h"
#include "sim/scenario/scenario.h"

namespace trafikey::properties {

struct ExportedScenario {
  scenario::Scenario scenario;  // its steps numbered by their lines in `text`
  std::string what;             // what ran: "a generated run (plan seed 7, ...)"
  std::string text;             // the `.scn` file
};

// The history as a scenario, titled "replay of WHAT", or after the first violation when
// `violations` are given (each listed as a `# broken:` comment). nullopt when the history
// does not read, or names what no step can say: *error then says which line and why.
std::optional<ExportedScenario> export_scenario(std::string_view history_text,
                                                const std::vector<Violation>& violations,
                                                std::string* error = nullptr);

// The same, from a history's values as the writer kept them (sim::History::events, a
// RunSummary's history_events): nothing is parsed.
std::optional<ExportedScenario> export_scenario(const sim::HistoryJson& header,
                                                const std::vector<sim::HistoryLine>& events,
                                                const std::vector<Violation>& violations,
                                                std::string* error = nullptr);

// Titles an export after `violations` as export_scenario does, its text written again and
// its steps renumbered. False (and nothing changed) when the title would not write back.
bool note_violations(ExportedScenario& exported, const std::vector<Violation>& violations);

// Puts `comment` (lines that each begin with '#', ending with a newline) before the file,
// its steps renumbered.
void prepend_comment(ExportedScenario& exported, const std::string& comment);

}  // namespace trafikey::properties
