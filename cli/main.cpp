// trafikey-sim: the simulated world's command line (see docs/command-line.md and --help).
#include <cstdio>

#include "cli/commands.h"

namespace trafikey::cli {
int& exit_status() {
  static int status = 0;
  return status;
}
}  // namespace trafikey::cli

int main(int argc, char** argv) {
  CLI::App app{"trafikey-sim: deterministic simulation and property harness for the EMQ job core"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");
  trafikey::cli::add_run(app);
  trafikey::cli::add_replay(app);
  trafikey::cli::add_campaign(app);
  trafikey::cli::add_merge(app);
  trafikey::cli::add_report(app);
  trafikey::cli::add_scenario(app);
  trafikey::cli::add_export(app);
  trafikey::cli::add_shrink(app);
  trafikey::cli::add_soak(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return trafikey::cli::exit_status();
}
