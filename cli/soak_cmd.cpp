// trafikey-sim soak: the long randomised runs of scenarios/soak (soak.h) against a real
// server it starts: fuzz, kill, replica, or all three in turn. Exit 0 when every part ran
// its budget with nothing broken, 1 when a check broke (the facts are printed), 2 for a
// bad argument or a server that cannot be started.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "module/harness/real_server.h"
#include "scenarios/soak/soak.h"

namespace trafikey::cli {

namespace {

struct SoakArgs {
  std::string part = "all";
  std::int64_t calls = 0;
  std::int64_t seconds = 0;
  std::uint64_t seed = 1;
  std::string server_bin;
  std::string module_path;
};

// The complaint about the arguments, empty when they are usable.
std::string argument_error(const SoakArgs& args) {
  if (args.calls == 0 && args.seconds == 0) return "give --calls N and/or --seconds S (a bound for each part)";
  if (!args.server_bin.empty() && ::access(args.server_bin.c_str(), X_OK) != 0) {
    return "--server-bin: " + args.server_bin + " is not an executable file";
  }
  if (args.server_bin.empty() && real::find_server_binary().empty()) {
    return "no server binary: give --server-bin, set TRAFIKEY_SERVER_BIN, or install valkey-server or redis-server";
  }
  if (!std::filesystem::is_regular_file(args.module_path)) return "--module: " + args.module_path + " is not a file";
  return {};
}

int run_soak(const SoakArgs& args) {
  std::vector<soak::Part> parts;
  if (args.part == "all") parts = {soak::Part::fuzz, soak::Part::kill, soak::Part::replica};
  else if (args.part == "fuzz") parts = {soak::Part::fuzz};
  else if (args.part == "kill") parts = {soak::Part::kill};
  else parts = {soak::Part::replica};

  soak::SoakOptions options;
  options.seed = args.seed;
  options.budget = {args.calls, args.seconds};
  options.server_bin = args.server_bin;
  options.module_path = std::filesystem::absolute(args.module_path).string();
  const bool tty = isatty(STDERR_FILENO) != 0;
  if (tty) options.progress = [](const std::string& line) { std::fprintf(stderr, "\r%s\033[K", line.c_str()); };

  const std::string server = args.server_bin.empty() ? real::find_server_binary() : args.server_bin;
  std::cout << "soak: seed " << args.seed << ", each part for";
  if (args.calls > 0) std::cout << " " << args.calls << " calls";
  if (args.calls > 0 && args.seconds > 0) std::cout << " or";
  if (args.seconds > 0) std::cout << " " << args.seconds << " s";
  std::cout << ", on " << server << "\n";

  bool broke = false;
  for (soak::Part part : parts) {
    soak::PartResult result;
    try {
      result = soak::run_part(part, options);
    } catch (const std::exception& e) {
      if (tty) std::fputc('\n', stderr);
      std::cout << soak::part_name(part) << ": could not run: " << e.what() << "\n";
      return 2;
    }
    if (tty) std::fprintf(stderr, "\r\033[K");
    std::cout << soak::part_name(part) << ": " << (result.broke ? "BROKEN" : "passed") << " in "
              << result.elapsed_ms / 1000.0 << " s\n";
    for (const auto& [name, value] : result.counts) std::cout << "  " << value << " " << name << "\n";
    if (result.broke) {
      std::cout << result.failure;
      std::cout << "rerun with: trafikey-sim soak --part " << soak::part_name(part) << " --seed " << args.seed
                << (args.calls > 0 ? " --calls " + std::to_string(args.calls) : "")
                << (args.seconds > 0 ? " --seconds " + std::to_string(args.seconds) : "")
                << (args.server_bin.empty() ? "" : " --server-bin " + args.server_bin) << "\n";
      broke = true;
      break;
    }
  }
  std::cout << (broke ? "soak: a check broke\n" : "soak: nothing broke\n");
  return broke ? 1 : 0;
}

}  // namespace

void add_soak(CLI::App& app) {
  auto args = std::make_shared<SoakArgs>();
  CLI::App* cmd = app.add_subcommand(
      "soak",
      "Soak a real server it starts (module loaded): 'fuzz' sends random and malformed calls to every verb "
      "(a refusal must leave DEBUG DIGEST unchanged and use an EMQ §6 text), 'kill' SIGKILLs a server under "
      "claim/complete load with appendfsync always and restarts it (no acknowledged transition lost, every "
      "job in one set), 'replica' checks that a replica and an AOF reload hold the primary's digest. Exit 0 "
      "when nothing broke, 1 when a check broke (its facts printed), 2 for a bad argument");
  cmd->add_option("--part", args->part, "Which part: fuzz, kill, replica or all (in that order)")
      ->check(CLI::IsMember({"fuzz", "kill", "replica", "all"}))
      ->default_str("all");
  cmd->add_option("--calls", args->calls, "Stop each part after this many calls")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  cmd->add_option("--seconds", args->seconds, "Stop each part after this many seconds")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86400} * 365));
  cmd->add_option("--seed", args->seed, "Seed of the calls drawn (default 1)");
  cmd->add_option("--server-bin", args->server_bin,
                  "valkey-server/redis-server to start (default: $TRAFIKEY_SERVER_BIN, else valkey-server, else "
                  "redis-server on PATH)");
  cmd->add_option("--module", args->module_path, "trafikey.so (default: the one built with this binary)")
      ->default_str(TRAFIKEY_MODULE_PATH);
  cmd->callback([args] {
    if (args->module_path.empty()) args->module_path = TRAFIKEY_MODULE_PATH;
    if (const std::string bad = argument_error(*args); !bad.empty()) {
      std::cout << "trafikey-sim soak: " << bad << "\n";
      exit_status() = 2;
      return;
    }
    exit_status() = run_soak(*args);
  });
}

}  // namespace trafikey::cli
