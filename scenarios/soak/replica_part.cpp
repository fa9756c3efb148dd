// The replica part (soak.h): a replica with the module loaded follows the primary through
// a random history (the fuzz part's calls, some through EVAL, and valid calls batched in
// MULTI/EXEC). Writes are replicated as effects (EMQ §4), so at every sync point (WAIT,
// then the replica's offset equal to the primary's) the two DEBUG DIGESTs must be equal;
// now and then the primary reloads its AOF (DEBUG LOADAOF) and must come back with the
// same digest; at the end the replica and then the primary restart on their own AOFs and
// must hold it still.
#include <chrono>
#include <stdexcept>
#include <thread>

#include "sim/prng.h"
#include "scenarios/soak/call_generator.h"
#include "scenarios/soak/part_run.h"
#include "scenarios/soak/soak_server.h"

namespace trafikey::soak {

namespace {

using namespace std::chrono_literals;

constexpr auto sync_timeout = 15s;
constexpr std::int64_t calls_between_syncs_max = 200;
constexpr std::int64_t syncs_per_aof_reload = 5;
constexpr std::uint64_t spacing_stream = 0x5eed5eed5eedULL;  // the sync spacing's own draws

std::string replication(real::ServerConnection& c, std::string_view field) {
  return real::info_field(c.call({"INFO", "replication"}).text(), field);
}

// Redis refuses SHUTDOWN while it writes its first AOF (a replica does, right after a full
// sync: "Writing initial AOF, can't exit"), and the launcher would then wait out its grace
// period and SIGKILL it. So a clean restart waits for the rewrite first.
bool aof_rewrite_done(real::ServerConnection& c) {
  const std::string info = c.call({"INFO", "persistence"}).text();
  return real::info_field(info, "aof_rewrite_in_progress") == "0" && real::info_field(info, "aof_rewrite_scheduled") == "0";
}

class ReplicaSoak {
 public:
  ReplicaSoak(const SoakOptions& options, PartRun& run)
      : run_(run), generator_(options.seed), spacing_(options.seed ^ spacing_stream),
        // A primary waits 5 s for more replicas before a diskless full sync by default.
        primary_(server_config(options, {"--repl-diskless-sync-delay", "0"})), replica_(server_config(options)),
        p_(primary_.connect()), r_(replica_.connect()) {
    const Reply ok = r_.call({"REPLICAOF", "127.0.0.1", std::to_string(primary_.port())});
    if (ok.is_error()) throw std::runtime_error("REPLICAOF answered " + ok.text());
  }

  void run() {
    std::int64_t until_sync = spacing_.between(1, calls_between_syncs_max);
    while (!run_.spent()) {
      if (spacing_.chance(30)) {
        transaction();
      } else if (spacing_.chance(30)) {
        scripted(generator_.next());
      } else {
        one_call(generator_.next());
      }
      if (run_.broke()) return;
      if (--until_sync > 0) continue;
      until_sync = spacing_.between(1, calls_between_syncs_max);
      if (!replica_agrees()) return;
      if (++syncs_ % syncs_per_aof_reload == 0 && !aof_reload_agrees()) return;
    }
    if (replica_agrees() && aof_reload_agrees()) restarts_agree();
  }

 private:
  void one_call(const Call& call) {
    const Reply reply = p_.call(call.argv);
    run_.record(call.argv, reply, "primary");
    if (connection_lost(reply)) {
      run_.fail("the primary stopped answering (" + reply.text() + "); its log ends:\n" + log_tail(primary_));
      return;
    }
    generator_.observe(call, reply);
    run_.add("calls on the primary");
  }

  // One call through a Lua script (redis.pcall, so a refusal comes back as a reply): the
  // module's writes are then part of the script's effects.
  void scripted(const Call& call) {
    std::vector<std::string> argv{"EVAL", "return redis.pcall(unpack(ARGV))", "0"};
    argv.insert(argv.end(), call.argv.begin(), call.argv.end());
    const Reply reply = p_.call(argv);
    run_.record(argv, reply, "primary");
    if (connection_lost(reply)) {
      run_.fail("the primary stopped answering (" + reply.text() + "); its log ends:\n" + log_tail(primary_));
      return;
    }
    generator_.observe(call, reply);
    run_.add("calls through scripts");
  }

  // A few valid calls in one MULTI/EXEC: the module's effects of each, in one transaction.
  void transaction() {
    const Reply multi = p_.call({"MULTI"});
    run_.record({"MULTI"}, multi, "primary");
    std::vector<Call> calls;
    const std::int64_t n = spacing_.between(1, 4);
    for (std::int64_t i = 0; i < n; ++i) {
      calls.push_back(generator_.valid());
      const Reply queued = p_.call(calls.back().argv);
      run_.record(calls.back().argv, queued, "primary");
    }
    const Reply exec = p_.call({"EXEC"});
    run_.record({"EXEC"}, exec, "primary");
    if (connection_lost(exec)) {
      run_.fail("the primary stopped answering (" + exec.text() + "); its log ends:\n" + log_tail(primary_));
      return;
    }
    if (exec.kind() != Reply::Kind::array || exec.items().size() != calls.size()) {
      run_.fail("EXEC of " + std::to_string(calls.size()) + " valid calls answered " + render_reply(exec));
      return;
    }
    for (std::size_t i = 0; i < calls.size(); ++i) generator_.observe(calls[i], exec.items()[i]);
    run_.add("transactions");
  }

  // WAIT for the replica, then its offset equal to the primary's, then the digests.
  bool replica_agrees() {
    const Reply waited = p_.call({"WAIT", "1", "5000"});
    run_.record({"WAIT", "1", "5000"}, waited, "primary");
    const auto deadline = std::chrono::steady_clock::now() + sync_timeout;
    while (true) {
      const std::string wanted = replication(p_, "master_repl_offset");
      if (replication(r_, "master_link_status") == "up" && replication(r_, "master_repl_offset") == wanted) break;
      if (std::chrono::steady_clock::now() > deadline) {
        run_.fail("the replica did not catch up with the primary in time (offset " + wanted + "); its log ends:\n" +
                  log_tail(replica_));
        return false;
      }
      std::this_thread::sleep_for(1ms);
    }
    const std::string primary = dataset_digest(p_);
    const std::string replica = dataset_digest(r_);
    run_.note("synced: primary digest " + primary + ", replica " + replica);
    run_.add("replica digests compared");
    if (primary != replica) {
      run_.fail("the replica's DEBUG DIGEST " + replica + " differs from the primary's " + primary +
                " at the same replication offset");
      return false;
    }
    return true;
  }

  bool aof_reload_agrees() {
    const std::string before = dataset_digest(p_);
    const Reply loaded = p_.call({"DEBUG", "LOADAOF"});
    run_.record({"DEBUG", "LOADAOF"}, loaded, "primary");
    if (loaded.is_error()) {
      run_.fail("DEBUG LOADAOF answered " + loaded.text() + "; the log ends:\n" + log_tail(primary_));
      return false;
    }
    const std::string after = dataset_digest(p_);
    run_.add("AOF reloads compared");
    if (before != after) {
      run_.fail("DEBUG LOADAOF changed the primary's digest from " + before + " to " + after);
      return false;
    }
    return true;
  }

  // The replica, then the primary, restarted on their own AOFs (the replica comes back
  // detached: REPLICAOF was a command, not its configuration).
  void restarts_agree() {
    const std::string primary = dataset_digest(p_);
    for (const auto deadline = std::chrono::steady_clock::now() + sync_timeout;
         !(aof_rewrite_done(r_) && aof_rewrite_done(p_));) {
      if (std::chrono::steady_clock::now() > deadline) {
        run_.fail("an AOF rewrite did not finish in time; the replica's log ends:\n" + log_tail(replica_));
        return;
      }
      std::this_thread::sleep_for(1ms);
    }
    replica_.restart();
    r_ = replica_.connect();
    const std::string replica = dataset_digest(r_);
    run_.note("replica restarted on its AOF: digest " + replica);
    run_.add("restarts on the AOF compared");
    if (replica != primary) {
      run_.fail("the replica restarted on its AOF holds digest " + replica + ", the primary " + primary);
      return;
    }
    primary_.restart();
    p_ = primary_.connect();
    const std::string restarted = dataset_digest(p_);
    run_.note("primary restarted on its AOF: digest " + restarted);
    run_.add("restarts on the AOF compared");
    if (restarted != primary) run_.fail("the primary restarted on its AOF holds digest " + restarted + ", before " + primary);
  }

  PartRun& run_;
  CallGenerator generator_;
  sim::Prng spacing_;
  real::RealServer primary_;
  real::RealServer replica_;
  real::ServerConnection p_;
  real::ServerConnection r_;
  std::int64_t syncs_ = 0;
};

}  // namespace

PartResult run_replica(const SoakOptions& options) {
  PartRun run(Part::replica, options);
  {
    ReplicaSoak soak(options, run);
    soak.run();
    if (!run.broke()) run.note("stopping the servers");
  }
  return run.finish();
}

PartResult run_part(Part part, const SoakOptions& options) {
  switch (part) {
    case Part::fuzz: return run_fuzz(options);
    case Part::kill: return run_kill(options);
    case Part::replica: return run_replica(options);
  }
  throw std::logic_error("unknown soak part");
}

}  // namespace trafikey::soak
