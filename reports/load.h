// Loading report inputs from files: a history.jsonl, or a directory holding histories.
//
// A directory contributes every regular file ending in ".jsonl" beneath it, in natural
// path order (seed-2 before seed-10; the same tree always gives the same order). Only the text is read here; a history
// that does not parse is reported later by render_* with its file and line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/report.h"

namespace trafikey::reports {

// Each PATH as given (a file, or a directory's files named "DIR/relative/path"). A plan
// history gets replay_command "trafikey-sim replay FILE". nullopt and *error
// ("PATH: what") for an unreadable path or a directory without histories.
std::optional<std::vector<ReportInput>> load_inputs(const std::vector<std::string>& paths,
                                                    std::string* error);

// A directory's histories named by their path relative to it (what --baseline matches).
std::optional<std::vector<ReportInput>> load_dir_relative(const std::string& dir,
                                                          std::string* error);

}  // namespace trafikey::reports
