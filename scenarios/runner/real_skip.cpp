// The skip rules of the real-server runner (run_real.h): which files a real target cannot
// run, and why, naming the line that stops it.
#include "scenarios/runner/run_real.h"

#include <string>
#include <vector>

#include "sim/scenario/write.h"

namespace trafikey::scenario {

std::string real_skip_reason(const Scenario& scenario, const RealTarget& target) {
  for (const Step& step : scenario.steps) {
    if (sim_only(step)) {
      return "sim-only step at line " + std::to_string(step.line) + ": " + write_action(step.action);
    }
  }
  for (const Step& step : scenario.steps) {
    // (A reload keeps every process, so a cluster takes it: each node reloads.)
    const bool faults_a_process = std::holds_alternative<Restart>(step.action) ||
                                  std::holds_alternative<Failover>(step.action) ||
                                  std::holds_alternative<Failback>(step.action) ||
                                  std::holds_alternative<ClockStep>(step.action) ||
                                  std::holds_alternative<Drift>(step.action);
    if (target.cluster_primaries > 0 && faults_a_process) {
      return write_action(step.action) + " at line " + std::to_string(step.line) +
             ": not on a cluster (--cluster): the runner restarts, fails over and sets the clock of a lone server "
             "only (module.Cluster.* covers a cluster failover)";
    }
    // a replica of a dead port and an ACL of the default user: on a lone server the runner
    // starts (a cluster's nodes refuse REPLICAOF; a running server is not the runner's to demote)
    if (std::holds_alternative<ReplicaRole>(step.action) || std::holds_alternative<WriteDenied>(step.action)) {
      if (!target.starts_server() || target.cluster_primaries > 0) {
        return write_action(step.action) + " at line " + std::to_string(step.line) +
               ": the runner can do it only to a lone server it starts (--server-bin, no --cluster)";
      }
      continue;
    }
    const bool clock = std::holds_alternative<ClockStep>(step.action) || std::holds_alternative<Drift>(step.action);
    // reload is DEBUG RELOAD, which only the servers the runner starts allow
    if (std::holds_alternative<Failover>(step.action) || std::holds_alternative<Failback>(step.action) ||
        std::holds_alternative<Reload>(step.action) || clock) {
      if (!target.starts_server()) {
        return write_action(step.action) + " at line " + std::to_string(step.line) +
               ": the runner can do it only to servers it starts (use --server-bin)";
      }
      continue;
    }
    // A restart that loses writes (everysec, snapshot) loses the same ones on a server the
    // runner starts: it kills it and cuts its append-only file back (restart_keeping).
    if (!std::holds_alternative<Restart>(step.action)) continue;
    if (!target.starts_server()) {
      return "restart at line " + std::to_string(step.line) +
             ": the runner cannot restart a server it did not start (use --server-bin)";
    }
  }
  return {};
}

std::vector<std::string> skipped_steps(const RealTarget& target, Persistence persistence) {
  // One step of each kind the language has (each alternative of Action, both words of
  // replica/primary and deny/allow).
  const Action one_of_each[] = {Call{"a", {"EMQ.STATS", "q"}, std::nullopt},
                                Restart{},
                                Failover{},
                                Failback{},
                                Reload{},
                                ReplicaRole{true},
                                ReplicaRole{false},
                                WriteDenied{"k"},
                                WriteDenied{},
                                ClockStep{1},
                                Drift{1},
                                EpochFault{EpochFault::Kind::fail},
                                Lose{"a"},
                                CheckRow{"q", "j", {{"state", "done"}}},
                                CheckSet{"q", SetName::done, {}},
                                CheckInvariants{}};
  std::vector<std::string> words;
  for (const Action& action : one_of_each) {
    Scenario one;
    one.options.persistence = persistence;
    one.steps.push_back(Step{0, 1, action});
    if (real_skip_reason(one, target).empty()) continue;
    const std::string text = write_action(action);
    words.push_back(text.substr(0, text.find(' ')));
  }
  return words;
}

}  // namespace trafikey::scenario
