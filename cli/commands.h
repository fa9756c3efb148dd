// trafikey-sim's subcommands. Each lives in its own file and registers itself on the
// CLI11 app; main.cpp only lists them. Exit codes, for every subcommand: 0 success,
// 1 the run or check failed (a divergence, an invariant, a failed expectation),
// 2 bad arguments or an unreadable file (the message names what was wrong).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace trafikey::cli {

void add_run(CLI::App& app);
void add_replay(CLI::App& app);
void add_campaign(CLI::App& app);
void add_merge(CLI::App& app);  // merge_cmd.cpp: campaign shards into one campaign
void add_report(CLI::App& app);  // built when reports/ is (TRAFIKEY_WITH_REPORTS)
// Built with the scenario language (TRAFIKEY_WITH_SCENARIOS).
void add_scenario(CLI::App& app);
void add_export(CLI::App& app);
void add_shrink(CLI::App& app);  // shrink_cmd.cpp: minimize a failing scenario or history
// soak_cmd.cpp: fuzz, kill and replica runs against a real server (scenarios/soak).
void add_soak(CLI::App& app);
// Runs scenario files on the sim and prints one line each and the counts; the exit status
// (scenario_cmd.cpp). `replay FILE.scn` shares it.
int run_scenario_files(const std::vector<std::string>& files, const std::string& report_path,
                       const std::string& junit_path = "");

// Exit status a subcommand's callback sets; main returns it.
int& exit_status();

}  // namespace trafikey::cli
