// run_on_real: one scenario against a real valkey-server / redis-server with trafikey.so,
// and the differential check against the simulated server (shared spec SCENARIO.md,
// INVARIANTS sim.differential).
//
// Two targets:
//   --server HOST:PORT   a running server with the module loaded. The runner deletes the
//                        scenario's keys first (every key of each queue it names, and the
//                        keys its plain commands name: nothing else). It cannot restart,
//                        fail over, reload or set the clock of that server, so files with
//                        restart, failover, reload, clock or drift are skipped there: only
//                        calls, lose and checks run (skipped_steps below lists them).
//   --server-bin PATH    the runner starts PATH itself for each file (RealServer: a free
//                        loopback port, a temporary directory, the module loaded, AOF on),
//                        and stops it at the end. `restart` is SHUTDOWN and a new process
//                        on the same directory. Persistence: `always` runs with
//                        appendfsync always; `none` with the AOF off, so a restart starts
//                        empty; `everysec` and `snapshot` append every write at once and
//                        record the file's length after each call: their `restart` kills
//                        the server and cuts the file back to what the sim's run of the
//                        same file keeps (sim_restarts, RealSession::restart_keeping), so
//                        the real server loses exactly the sim's lost writes.
//   --cluster N          with --server-bin: the runner starts a loopback cluster of N
//                        primaries, the module on every node (module/harness/
//                        real_cluster.h), and sends each call to the node that owns its
//                        key's slot (an EMQ verb's queue name, EVAL's first key, a plain
//                        command's first argument); every node's run_id is incarnation 1's,
//                        a sweep is judged against its queue's node, verb.atomic against
//                        every node's digest. A cluster keeps true time (so scores of
//                        server times are not compared), `reload` reloads every node, and
//                        files with restart, failover, clock or drift are skipped there
//                        (module.Cluster.* tests a cluster failover).
// Fault steps on a real server (issue 18), each skip naming the line that stops the file:
//   lose C     C's next call runs; the runner reads the reply (recorded as the server's, as
//              the sim records it, and matched against `=>`), then drops C's connection as
//              a timed-out client does. Works on both targets.
//   failover   --server-bin only. A second server (same module, persistence and clock)
//              takes a full copy of the primary (REPLICAOF, waits until its replication
//              offset equals the primary's, then REPLICAOF NO ONE) before the step at which
//              the sim's replica last synced: the first step on or after a multiple of
//              replication_lag_ms of true time, or right after a restart or failover. At the
//              failover the old primary is killed and the copy serves: its own run_id, the
//              dataset the sim's lagging replica holds (faults/failover.scn checks that a
//              write after the last sync is gone).
//   reload     --server-bin only (with --cluster, on every node): DEBUG RELOAD, which only
//              the servers the runner starts allow.
//   clock +-MS, drift RATE   --server-bin only. Every server process the runner starts
//              runs on one FakeClock (module/harness/fake_clock.h: a preloaded shim answers
//              the server's wall-clock reads from a page the runner writes), whatever the
//              file's steps. Before each step the runner holds that clock at the sim's server
//              time for the step's true time (a sim::LinearClock it steps and drifts as
//              World does), so every call reads exactly the time the sim's call reads: the
//              clock is 0 at the start, a step or drift changes it as on the sim, and a
//              restarted server or promoted replica reads the same clock. Leases, sweeps and
//              time scores then come out as the sim's, which lets the differential check
//              compare scores too (RunResult::clocks_agree).
//   replica, primary   --server-bin only, no cluster: REPLICAOF toward a port no one
//              answers, with replica-read-only off (the module's own fence answers, as on
//              the sim), then REPLICAOF NO ONE (RealSession::set_replica).
//   deny KEY, allow    --server-bin only, no cluster: the default user's ACL may write
//              every key but KEY (RealSession::deny_writes).
//   epoch fail, epoch malformed   sim only (scenario.h sim_only), on every target: nothing
//              makes a real run_id read fail.
// Times are real waits: step `at T` runs once T ms have passed on a
// steady clock since the scenario started (the server started and answered); the server's
// wall clock, with --server-bin, is the sim's (above), with --server its own. Each client
// name has its own connection. Replies are hiredis' RESP2 replies as core Replys, with
// every run_id rewritten to the sim's run_id of the same incarnation (differential.h
// RunIdMap), and the few error texts in which Valkey 8 and Redis 7.0 differ given in the
// sim's words (differential.h in_sim_wording), so expectations written for the sim hold
// here too, on either server.
//
// `check invariants` on a real server judges what it can observe of the server, not of the
// model's ground truth, by the one judge (properties/judge/rules.h; RealChecks adapts):
//   queue.conserve, queue.budget, epoch.stamp   judge_queue over each scenario queue's
//                    keys, with the run_ids of the processes the run started and no
//                    ledger: ids whose row the scenario itself DELeted are ghosts and
//                    excused; every row with a `state` is a job (no half-written job); the
//                    counts a job's history charges and which process stamped a lease are
//                    skipped, by the names judge_queue gives them (RunResult::unjudged),
//                    and an active row must name a process of this run
//   epoch.load       at each start, EMQ.EPOCH answers the run_id INFO server prints
//   epoch.exempt, epoch.counted   judge_sweep, from the active set and rows read just
//                    before each STALLED.CHECK (captured as the sim captures them): with
//                    --server-bin, whose clock the runner holds, exactly the first LIMIT
//                    expired members are judged; a lease stamped by the sweeping process
//                    gets stalled + 1 and is dead exactly when that reaches max_stalled;
//                    any other keeps `stalled` and goes back to pending
//   verb.atomic      verb_atomic: DEBUG DIGEST is unchanged across every EMQ call answered
//                    with an error (or with the 0 of "nothing done"), when the server
//                    allows DEBUG
// Not observable here: queue.transitions and queue.fence (they need the model's ledger).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scenarios/runner/run_result.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

struct RealTarget {
  std::string host;          // --server: a running server (port > 0)
  int port = 0;
  std::string server_bin;    // --server-bin: the runner starts this binary
  std::string module_path;   // trafikey.so for --server-bin (relative to the working directory, or absolute)
  std::size_t cluster_primaries = 0;  // --cluster N (with --server-bin): a loopback cluster

  bool starts_server() const { return !server_bin.empty(); }
  std::string describe() const;  // "redis-server /usr/bin/redis-server" or "HOST:PORT"
};

// Why `scenario` cannot run on `target`, naming the line that stops it; empty when it can.
std::string real_skip_reason(const Scenario& scenario, const RealTarget& target);
// The steps, by their first word ("restart", "epoch", ...), for which real_skip_reason
// skips a file on `target` under `persistence`: asked of it one step at a time, so a help
// text built from this names what the runner does.
std::vector<std::string> skipped_steps(const RealTarget& target, Persistence persistence);

// Runs a file real_skip_reason allows (otherwise: skipped, with the reason). A server that
// cannot be started or reached fails the run with the reason as the failure.
RunResult run_on_real(const Scenario& scenario, const RealTarget& target);

// sim.differential: runs the scenario on the sim and on `target`; failed when either run
// fails (the failure says which) or when their replies or final keyspaces differ (the
// failure names the line or key, invariant "sim.differential", the sim's side as
// expected and the real side as actual).
RunResult run_differential(const Scenario& scenario, const RealTarget& target);

}  // namespace trafikey::scenario
