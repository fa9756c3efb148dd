// trafikey-sim's subcommands. Each lives in its own file and registers itself on the
// CLI11 app; main.cpp only lists them. Exit codes, for every subcommand: 0 success,
// 1 the run or check failed (a divergence, an invariant, a failed expectation),
// 2 bad arguments or an unreadable file (the message names what was wrong).
#pragma once

#include <CLI/CLI.hpp>

namespace trafikey::cli {

void add_run(CLI::App& app);
void add_replay(CLI::App& app);
void add_campaign(CLI::App& app);
void add_report(CLI::App& app);  // built when reports/ is (TRAFIKEY_WITH_REPORTS)

// Exit status a subcommand's callback sets; main returns it.
int& exit_status();

}  // namespace trafikey::cli
