// trafikey-sim scenario FILE...: run scenario files (shared spec SCENARIO.md) on the
// simulated server, or on a real server (--server / --server-bin), or on both and compare
// (--differential, INVARIANTS sim.differential).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/invariants.h"
#include "core/text.h"
#include "properties/checker.h"
#include "cli/commands.h"
#include "sim/scenario/parse.h"
#include "scenarios/runner/run_sim.h"
#include "scenarios/runner/run_real.h"
#include "reports/junit.h"
#include "reports/report.h"

namespace trafikey::cli {

namespace {

struct ScenarioArgs {
  std::vector<std::string> files;
  std::string server;      // HOST:PORT
  std::string server_bin;  // PATH
  std::string module_path;
  bool differential = false;
  std::size_t cluster = 0;  // --cluster N
  std::string report;
  std::string junit;
};

struct Counts {
  int passed = 0, failed = 0, skipped = 0;
  bool unparsed = false;
  std::string load_error;              // why the last file did not load
  std::vector<reports::JunitCase> junit;  // one case per file (--junit)
};

// The JUnit case of one file: passed, failed (the invariant or expectation, where, and
// the command that reruns it) or skipped.
void junit_case(Counts& counts, const std::string& file, const scenario::RunResult* result,
                const std::string& rerun) {
  reports::JunitCase c;
  c.name = file;
  c.classname = "scenario";
  if (result == nullptr) {
    c.failure = reports::JunitFailure{"does not load: " + counts.load_error, "parse", counts.load_error + "\n"};
  } else if (result->status == CheckStatus::skipped) {
    c.skipped = result->skip_reason;
  } else if (result->status == CheckStatus::failed && result->failure) {
    const auto& f = *result->failure;
    const std::string what = f.invariant.empty() ? "expectation" : f.invariant;
    std::string facts;
    for (const auto& v : result->violations) facts += v.describe() + "\n";
    c.failure = reports::JunitFailure{
        what + " at " + file + ":" + std::to_string(f.line), what,
        scenario::describe_failure(file, f) + facts + "rerun with:\n  " + rerun + " " + file + "\n"};
  }
  counts.junit.push_back(std::move(c));
}

// Writes --junit when asked; false (and a message) when it cannot.
bool write_junit(const Counts& counts, const std::string& path, const std::string& suite_name) {
  if (path.empty()) return true;
  reports::JunitSuite suite;
  suite.name = suite_name;
  suite.cases = counts.junit;
  if (auto bad = reports::write_junit(suite, path); !bad.empty()) {
    std::cout << "--junit: " << bad << "\n";
    return false;
  }
  std::cout << "junit   " << path << "\n";
  return true;
}

// Reads and parses one file; on failure prints why (file and line), counts it as failed
// and unparseable (exit 2) and answers nullopt.
std::optional<scenario::Scenario> load(const std::string& file, Counts& counts) {
  const auto text = read_file(file);
  std::optional<scenario::Scenario> out;
  if (!text) {
    counts.load_error = file + ": cannot read the file";
    std::cout << counts.load_error << "\n";
  } else if (auto parsed = scenario::parse_scenario(*text, file); !parsed.ok()) {
    counts.load_error = scenario::to_string(parsed.error());
    std::cout << counts.load_error << "\n";
  } else {
    out = std::move(parsed.value());
    return out;
  }
  ++counts.failed;
  counts.unparsed = true;
  return out;
}

reports::ReportInput report_input(const std::string& file, const scenario::RunResult& result) {
  reports::ReportInput input;
  input.name = input.source = file;
  input.history_text = result.history;
  input.replay_command = "trafikey-sim scenario " + file;
  std::vector<reports::InvariantResult> table;
  for (const auto& info : properties::invariant_ids()) {
    reports::InvariantResult row;
    row.id = info.id;
    auto judged = result.judged.find(row.id);
    if (judged != result.judged.end() && judged->second > 0) {
      row.status = CheckStatus::passed;
      row.detail = "judged " + std::to_string(judged->second) + " times";
    }
    if (auto parts = result.unjudged.find(row.id); parts != result.unjudged.end()) {
      std::string list;
      for (const std::string& part : parts->second) list += (list.empty() ? "" : "; ") + part;
      row.detail += (row.detail.empty() ? "" : "; ") + std::string("not judged on this server: ") + list;
    }
    for (const auto& v : result.violations) {
      if (v.invariant == row.id) {
        row.status = CheckStatus::failed;
        row.detail = v.describe();
        row.history_line = v.history_line;  // the report marks the line that broke it
        break;
      }
    }
    table.push_back(row);
  }
  input.invariants = table;
  if (result.failure) {
    reports::FailureInfo failure;
    failure.invariant = result.failure->invariant;
    failure.message = scenario::describe_failure(file, *result.failure);
    failure.replay_command = input.replay_command;
    // `check invariants` failed: mark the history line of the call that broke it first
    for (const auto& v : result.violations) {
      if (v.invariant == failure.invariant && v.history_line > 0) {
        failure.history_line = v.history_line;
        break;
      }
    }
    input.failure = failure;
  }
  return input;
}

}  // namespace

int run_scenario_files(const std::vector<std::string>& files, const std::string& report_path,
                       const std::string& junit_path) {
  ScenarioArgs args;
  args.files = files;
  args.report = report_path;
  Counts counts;
  std::vector<reports::ReportInput> inputs;
  for (const std::string& file : args.files) {
    auto parsed = load(file, counts);
    if (!parsed) {
      junit_case(counts, file, nullptr, "");
      continue;
    }
    const scenario::RunResult result = scenario::run_on_sim(*parsed, {file, !args.report.empty()});
    junit_case(counts, file, &result, "trafikey-sim scenario");
    if (result.status == CheckStatus::passed) {
      std::cout << "passed  " << file << "\n";
      ++counts.passed;
    } else {
      std::cout << scenario::describe_failure(file, *result.failure);
      ++counts.failed;
    }
    if (!args.report.empty()) inputs.push_back(report_input(file, result));
  }
  if (!args.report.empty()) {
    if (auto bad = reports::write_report(inputs, args.report); !bad.empty()) {
      std::cout << "--report: " << bad << "\n";
      counts.unparsed = true;
    } else {
      std::cout << "report  " << args.report << "\n";
    }
  }
  if (!write_junit(counts, junit_path, "trafikey scenarios on the sim")) counts.unparsed = true;
  std::cout << counts.passed << " passed, " << counts.failed << " failed, " << counts.skipped << " skipped\n";
  if (counts.unparsed) return 2;
  return counts.failed > 0 ? 1 : 0;
}

namespace {

int run_on_real_server(const ScenarioArgs& args) {
  scenario::RealTarget target;
  if (!args.server_bin.empty()) {
    target.server_bin = args.server_bin;
    target.module_path = args.module_path;
    target.cluster_primaries = args.cluster;
  } else {
    const auto colon = args.server.rfind(':');
    const auto port = colon == std::string::npos ? std::nullopt : parse_int64(args.server.substr(colon + 1));
    if (!port || *port < 1 || *port > 65535 || colon == 0) {
      std::cout << "--server: expected HOST:PORT, found '" << args.server << "'\n";
      return 2;
    }
    target.host = args.server.substr(0, colon);
    target.port = static_cast<int>(*port);
  }
  Counts counts;
  std::vector<std::string> skipped;
  for (const std::string& file : args.files) {
    auto parsed = load(file, counts);
    if (!parsed) {
      junit_case(counts, file, nullptr, "");
      continue;
    }
    const scenario::RunResult result = args.differential ? scenario::run_differential(*parsed, target)
                                                         : scenario::run_on_real(*parsed, target);
    junit_case(counts, file, &result,
               "trafikey-sim scenario " +
                   (args.server_bin.empty() ? "--server " + args.server : "--server-bin " + args.server_bin) +
                   (args.cluster > 0 ? " --cluster " + std::to_string(args.cluster) : "") +
                   (args.differential ? " --differential" : ""));
    switch (result.status) {
      case CheckStatus::passed:
        std::cout << "passed  " << file << (args.differential ? " (sim and real agree)" : "") << "\n";
        ++counts.passed;
        break;
      case CheckStatus::failed:
        std::cout << scenario::describe_failure(file, *result.failure);
        ++counts.failed;
        break;
      case CheckStatus::skipped:
        std::cout << "skipped " << file << ": " << result.skip_reason << "\n";
        skipped.push_back(file);
        ++counts.skipped;
        break;
      case CheckStatus::not_judged:
      case CheckStatus::incomplete:
        break;  // a scenario run is passed, failed or skipped
    }
  }
  if (!skipped.empty()) {
    std::cout << "skipped on " << target.describe() << ":";
    for (const auto& f : skipped) std::cout << " " << f;
    std::cout << "\n";
  }
  if (!write_junit(counts, args.junit, "trafikey scenarios on " + target.describe())) counts.unparsed = true;
  std::cout << counts.passed << " passed, " << counts.failed << " failed, " << counts.skipped << " skipped\n";
  if (counts.unparsed) return 2;
  return counts.failed > 0 ? 1 : 0;
}

// "a, b or c"
std::string listed(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  }
  return out;
}

// The words of `more` that `base` does not have.
std::vector<std::string> besides(const std::vector<std::string>& more, const std::vector<std::string>& base) {
  std::vector<std::string> out;
  for (const std::string& w : more) {
    if (std::find(base.begin(), base.end(), w) == base.end()) out.push_back(w);
  }
  return out;
}

// What each real target skips, in the help texts: asked of the skip rules themselves
// (scenario::skipped_steps), so the help names what the runner does.
struct SkipHelp {
  std::string server, server_bin, cluster;
};
SkipHelp skip_help() {
  using scenario::Persistence;
  scenario::RealTarget running, started, cluster;
  running.host = "localhost";
  running.port = 1;
  started.server_bin = "server";
  cluster.server_bin = "server";
  cluster.cluster_primaries = 3;
  const auto on_started = scenario::skipped_steps(started, Persistence::always);
  auto lossy = scenario::skipped_steps(started, Persistence::everysec);
  for (const std::string& w : scenario::skipped_steps(started, Persistence::snapshot)) {
    if (std::find(lossy.begin(), lossy.end(), w) == lossy.end()) lossy.push_back(w);
  }
  return {"HOST:PORT of a running server with trafikey loaded; files with " +
              listed(scenario::skipped_steps(running, Persistence::always)) +
              " steps are skipped and listed. The scenario's keys are deleted first",
          "A valkey-server/redis-server binary the runner starts per file (module loaded, AOF on) and "
          "restarts for 'restart' (under everysec or snapshot losing exactly the writes the sim loses); "
          "its clock reads the sim's time at every step (no real waits). Files with " + listed(on_started) + " steps are skipped" +
              (besides(lossy, on_started).empty()
                   ? std::string()
                   : ", and under everysec or snapshot persistence with " + listed(besides(lossy, on_started))),
          "With --server-bin: run each file on a loopback cluster of N primaries (module on every node), each "
          "call sent to the node that owns its queue's slot; files with " +
              listed(besides(scenario::skipped_steps(cluster, Persistence::always), on_started)) +
              " are skipped too"};
}

}  // namespace

void add_scenario(CLI::App& app) {
  auto args = std::make_shared<ScenarioArgs>();
  CLI::App* cmd = app.add_subcommand(
      "scenario",
      "Run scenario files (.scn): on the simulated server with every invariant checked, or on a "
      "real server with the module. Exit 0 when every expectation held, 1 when one did not, 2 "
      "when a file does not parse; the last line is 'N passed, N failed, N skipped'");
  cmd->add_option("FILE", args->files, "Scenario files")->required();
  const SkipHelp skips = skip_help();
  auto* server = cmd->add_option("--server", args->server, skips.server);
  auto* bin = cmd->add_option("--server-bin", args->server_bin, skips.server_bin);
  server->excludes(bin);
  bin->excludes(server);
  cmd->add_option("--cluster", args->cluster, skips.cluster)->check(CLI::Range(1, 16));
  cmd->add_option("--module", args->module_path, "trafikey.so for --server-bin (default: the one built with this binary)")
      ->default_str(TRAFIKEY_MODULE_PATH);
  cmd->add_flag("--differential", args->differential,
                "Run each real-capable file on the sim and on the real server and require the same "
                "replies and final keyspace (run_ids mapped by incarnation; with --server-bin the server's clock is "
                "the sim's, so server-time scores compare too, with --server they do not)");
  cmd->add_option("--report", args->report, "Also write an HTML report of the sim runs (OUT.html)");
  cmd->add_option("--junit", args->junit,
                  "Write JUnit XML: one test case per file, a failure with what broke and the rerun command");
  cmd->callback([args] {
    if (args->module_path.empty()) args->module_path = TRAFIKEY_MODULE_PATH;
    if (args->cluster > 0 && args->server_bin.empty()) {
      std::cout << "--cluster needs --server-bin PATH (the runner starts the cluster)\n";
      exit_status() = 2;
      return;
    }
    if (!args->server.empty() || !args->server_bin.empty()) {
      if (!args->report.empty()) {
        std::cout << "--report covers runs on the sim only: leave out --server/--server-bin\n";
        exit_status() = 2;
        return;
      }
      exit_status() = run_on_real_server(*args);
      return;
    }
    if (args->differential) {
      std::cout << "--differential needs --server HOST:PORT or --server-bin PATH\n";
      exit_status() = 2;
      return;
    }
    exit_status() = run_scenario_files(args->files, args->report, args->junit);
  });
}

}  // namespace trafikey::cli
