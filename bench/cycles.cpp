// trafikey-bench-cycles: claim -> complete cycles per second on three executors of the
// same transition (issue 8), on one server, in one run, the native one on both wires:
//
//   native  EMQ.CLAIM q lease_ms ; EMQ.COMPLETE q id attempts ok
//   native-wire2  EMQ.CLAIM q lease_ms WIRE 2 ; EMQ.COMPLETE q id <attempts>-<run_id>-<n> ok
//           (EMQ §8: the same transition, fenced by the wire 2 token; issue 35 item 7)
//   script  EVALSHA claim.lua ; EVALSHA complete.lua (bench/scripts/: same keys, rows and
//           replies, time from TIME, no lease_epoch)
//   floor   the same writes the native verbs make, sent as plain commands inside
//           MULTI/EXEC with values the client precomputed (ids, attempts, deadline, now):
//             MULTI ZREM pending id; HSET row state active attempts 1 lease_epoch E;
//                   ZADD active deadline id EXEC
//             MULTI ZREM active id; ZADD done now id; HSET row state done result ok EXEC
//           no decision and no reads: the cost of the writes and of talking to the server.
//
// Each client thread has its own connection and its own queue, preloaded with pending
// jobs; it runs batches of `depth` claims (pipelined), then the `depth` completes of what
// it claimed. Every mode gets a fresh keyspace, a warm-up, then a measured run of a fixed
// number of cycles; rounds alternate the modes and the best round of each is reported.
#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "bench/support.h"
#include "core/keys.h"

namespace trafikey::bench {
namespace {

constexpr int clients = 4;
constexpr int depth = 64;  // cycles per pipelined batch
constexpr std::string_view lease_ms = "60000";
constexpr std::string_view payload = "0123456789abcdef";  // 16 bytes

enum class Mode { native, native_wire2, script, floor };
const char* mode_name(Mode m) {
  switch (m) {
    case Mode::native: return "native";
    case Mode::native_wire2: return "native-wire2";
    case Mode::script: return "script";
    case Mode::floor: return "floor";
  }
  return "?";
}

struct ClientState {
  std::unique_ptr<Pipe> pipe;
  std::string q, pending, active, done, row_prefix;
  std::vector<std::string> ids, rows;  // preloaded, in pending order
  std::int64_t next = 0;               // the floor's next id
};

struct Result {
  double cycles_per_s = 0;
  double server_cpu_us_per_cycle = 0;
};

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class CycleBench {
 public:
  CycleBench(real::RealServer& server, const Scripts& scripts, std::string run_id)
      : server_(server), scripts_(scripts), run_id_(std::move(run_id)) {}

  Result measure(Mode mode, std::int64_t warm, std::int64_t cycles) {
    auto admin = server_.connect();
    admin.call({"FLUSHALL"});
    std::vector<ClientState> state(clients);
    for (int c = 0; c < clients; ++c) {
      ClientState& s = state[static_cast<std::size_t>(c)];
      s.pipe = std::make_unique<Pipe>(server_.port());
      s.q = std::string("cyc-") + mode_name(mode) + "-" + std::to_string(c);
      const QueueKeys keys(s.q);
      s.pending = keys.pending();
      s.active = keys.active();
      s.done = keys.done();
      s.row_prefix = keys.row("");
      const std::int64_t jobs = warm + cycles;
      load_pending(*s.pipe, s.q, "j", jobs, payload);
      for (std::int64_t i = 0; i < jobs; ++i) {
        s.ids.push_back("j" + std::to_string(i));
        s.rows.push_back(s.row_prefix + s.ids.back());
      }
    }
    run_clients(clients, [&](int c) { run(mode, state[static_cast<std::size_t>(c)], warm); });
    const double cpu0 = server_main_cpu_s(admin);
    const double wall =
        run_clients(clients, [&](int c) { run(mode, state[static_cast<std::size_t>(c)], cycles); });
    const double cpu1 = server_main_cpu_s(admin);
    // Every job went pending -> active -> done exactly once.
    for (auto& s : state) {
      const auto done = s.pipe->call({"ZCARD", s.done});
      const auto active = s.pipe->call({"ZCARD", s.active});
      if (done->integer != warm + cycles || active->integer != 0) {
        throw std::runtime_error("bench: " + s.q + " ended with done " +
                                 std::to_string(done->integer) + ", active " +
                                 std::to_string(active->integer));
      }
    }
    const double total = static_cast<double>(cycles) * clients;
    return {total / wall, (cpu1 - cpu0) * 1e6 / total};
  }

 private:
  void run(Mode mode, ClientState& s, std::int64_t cycles) {
    std::vector<std::string> ids(depth), tokens(depth);
    for (std::int64_t left = cycles; left > 0;) {
      const int n = static_cast<int>(std::min<std::int64_t>(depth, left));
      left -= n;
      switch (mode) {
        case Mode::native: native_batch(s, n, ids, tokens, false); break;
        case Mode::native_wire2: native_batch(s, n, ids, tokens, true); break;
        case Mode::script: script_batch(s, n, ids, tokens); break;
        case Mode::floor: floor_batch(s, n); break;
      }
    }
  }

  // A claim reply [[id, attempts, payload]] -> id and attempts; with wire 2
  // [[id, attempts, payload, token]] -> id and the token, "<attempts>-<run_id>-<n>".
  static void take_claim(Pipe& pipe, std::string& id, std::string& token, bool wire2 = false) {
    const ReplyPtr r = pipe.take_array("claim");
    const std::size_t items = wire2 ? 4 : 3;
    if (r->elements != 1 || r->element[0]->type != REDIS_REPLY_ARRAY ||
        r->element[0]->elements != items) {
      throw std::runtime_error("bench: claim did not answer one job");
    }
    const redisReply* job = r->element[0];
    id.assign(job->element[0]->str, static_cast<std::size_t>(job->element[0]->len));
    token = std::to_string(job->element[1]->integer);
    if (wire2) {
      const redisReply* t = job->element[3];
      const std::string_view text =
          t->type == REDIS_REPLY_STRING ? std::string_view(t->str, static_cast<std::size_t>(t->len)) : "";
      if (!text.starts_with(token + "-")) {
        throw std::runtime_error("bench: a WIRE 2 claim did not answer its token");
      }
      token.assign(text);
    }
  }

  void native_batch(ClientState& s, int n, std::vector<std::string>& ids,
                    std::vector<std::string>& tokens, bool wire2) {
    Pipe& p = *s.pipe;
    for (int i = 0; i < n; ++i) {
      if (wire2) {
        p.append({"EMQ.CLAIM", s.q, lease_ms, "WIRE", "2"});
      } else {
        p.append({"EMQ.CLAIM", s.q, lease_ms});
      }
    }
    for (int i = 0; i < n; ++i) {
      take_claim(p, ids[static_cast<std::size_t>(i)], tokens[static_cast<std::size_t>(i)], wire2);
    }
    for (int i = 0; i < n; ++i) {
      p.append({"EMQ.COMPLETE", s.q, ids[static_cast<std::size_t>(i)], tokens[static_cast<std::size_t>(i)], "ok"});
    }
    for (int i = 0; i < n; ++i) p.take_integer(1, "EMQ.COMPLETE");
  }

  void script_batch(ClientState& s, int n, std::vector<std::string>& ids,
                    std::vector<std::string>& tokens) {
    Pipe& p = *s.pipe;
    for (int i = 0; i < n; ++i) {
      p.append({"EVALSHA", scripts_.claim_sha, "2", s.pending, s.active, lease_ms, "1"});
    }
    for (int i = 0; i < n; ++i) take_claim(p, ids[static_cast<std::size_t>(i)], tokens[static_cast<std::size_t>(i)]);
    for (int i = 0; i < n; ++i) {
      const std::string row = s.row_prefix + ids[static_cast<std::size_t>(i)];
      p.append({"EVALSHA", scripts_.complete_sha, "3", s.active, s.done, row,
                ids[static_cast<std::size_t>(i)], tokens[static_cast<std::size_t>(i)], "ok"});
    }
    for (int i = 0; i < n; ++i) p.take_integer(1, "complete.lua");
  }

  void floor_batch(ClientState& s, int n) {
    Pipe& p = *s.pipe;
    const std::string deadline = std::to_string(unix_ms() + 60000);
    const auto first = static_cast<std::size_t>(s.next);
    for (int i = 0; i < n; ++i) {
      const std::string& id = s.ids[first + static_cast<std::size_t>(i)];
      const std::string& row = s.rows[first + static_cast<std::size_t>(i)];
      p.append({"MULTI"});
      p.append({"ZREM", s.pending, id});
      p.append({"HSET", row, "state", "active", "attempts", "1", "lease_epoch", run_id_});
      p.append({"ZADD", s.active, deadline, id});
      p.append({"EXEC"});
    }
    for (int i = 0; i < n; ++i) take_exec(p);
    const std::string now = std::to_string(unix_ms());
    for (int i = 0; i < n; ++i) {
      const std::string& id = s.ids[first + static_cast<std::size_t>(i)];
      const std::string& row = s.rows[first + static_cast<std::size_t>(i)];
      p.append({"MULTI"});
      p.append({"ZREM", s.active, id});
      p.append({"ZADD", s.done, now, id});
      p.append({"HSET", row, "state", "done", "result", "ok"});
      p.append({"EXEC"});
    }
    for (int i = 0; i < n; ++i) take_exec(p);
    s.next += n;
  }

  static void take_exec(Pipe& p) {
    for (int i = 0; i < 4; ++i) p.take_ok("MULTI/QUEUED");
    const ReplyPtr r = p.take_array("EXEC");
    if (r->elements != 3) throw std::runtime_error("bench: EXEC did not run 3 commands");
  }

  real::RealServer& server_;
  const Scripts& scripts_;
  std::string run_id_;
};

int main_(int argc, char** argv) {
  const Options options = parse_options(
      argc, argv,
      "trafikey-bench-cycles: claim->complete cycles/s, native vs scripts vs MULTI/EXEC floor");
  const std::int64_t warm = options.quick ? 256 : 2048;
  const std::int64_t cycles = options.count > 0 ? options.count : options.quick ? 1024 : 12288;
  const int rounds = options.quick ? 1 : 2;

  real::RealServer server(module_server_config());
  auto admin = server.connect();
  Scripts scripts = read_scripts();
  load_scripts(admin, scripts);
  const std::string run_id = admin.call({"EMQ.EPOCH"}).text();
  CycleBench bench(server, scripts, run_id);

  std::vector<Mode> modes;
  for (Mode m : {Mode::native, Mode::native_wire2, Mode::script, Mode::floor}) {
    if (options.only.empty() || options.only == mode_name(m)) modes.push_back(m);
  }
  if (modes.empty()) throw std::runtime_error("--only takes native, native-wire2, script or floor");
  std::map<Mode, std::vector<Result>> results;
  for (int round = 0; round < rounds; ++round) {
    for (Mode m : modes) results[m].push_back(bench.measure(m, warm, cycles));
  }
  std::map<Mode, Result> best;
  for (Mode m : modes) {
    Result b = results[m][0];
    for (const Result& r : results[m]) {
      b.cycles_per_s = std::max(b.cycles_per_s, r.cycles_per_s);
      b.server_cpu_us_per_cycle = std::min(b.server_cpu_us_per_cycle, r.server_cpu_us_per_cycle);
    }
    best[m] = b;
  }

  Table t("claim -> complete cycles (" + std::to_string(clients) + " clients, pipeline " +
              std::to_string(depth) + ", " + grouped(static_cast<double>(cycles * clients)) +
              " cycles per round, best of " + std::to_string(rounds) + ")",
          {"executor", "cycles/s", "server CPU us/cycle", "commands/cycle", "all rounds cycles/s"});
  const std::map<Mode, const char*> commands{{Mode::native, "2 (EMQ.CLAIM, EMQ.COMPLETE)"},
                                              {Mode::native_wire2, "2 (the same, WIRE 2 token)"},
                                              {Mode::script, "2 (EVALSHA x2)"},
                                              {Mode::floor, "10 (2 x MULTI+3+EXEC)"}};
  for (Mode m : modes) {
    std::string all;
    for (const Result& r : results[m]) all += (all.empty() ? "" : " / ") + grouped(r.cycles_per_s);
    t.row({mode_name(m), grouped(best[m].cycles_per_s), fixed(best[m].server_cpu_us_per_cycle, 2),
           commands.at(m), all});
  }
  if (best.contains(Mode::native) && best.contains(Mode::script) && best.contains(Mode::floor)) {
    const Result& n = best[Mode::native];
    const Result& s = best[Mode::script];
    const Result& f = best[Mode::floor];
    t.note("native/script = " + fixed(n.cycles_per_s / s.cycles_per_s, 2) +
           "x  (aim >= 1.5; by server CPU per cycle: " +
           fixed(s.server_cpu_us_per_cycle / n.server_cpu_us_per_cycle, 2) + "x)");
    t.note("native/floor  = " + fixed(n.cycles_per_s / f.cycles_per_s, 2) +
           "   (aim >= 0.7; by server CPU per cycle: " +
           fixed(f.server_cpu_us_per_cycle / n.server_cpu_us_per_cycle, 2) + ")");
  }
  if (best.contains(Mode::native) && best.contains(Mode::native_wire2)) {
    const Result& w1 = best[Mode::native];
    const Result& w2 = best[Mode::native_wire2];
    t.note("wire2/wire1   = " + fixed(w2.cycles_per_s / w1.cycles_per_s, 2) +
           "   (native on both wires; by server CPU per cycle: " +
           fixed(w1.server_cpu_us_per_cycle / w2.server_cpu_us_per_cycle, 2) + ")");
  }
  t.note("server: " + server_facts(admin) + "; AOF off");
  t.print();
  server.shutdown();  // a clean exit (a profiler wrapping the server writes its data)
  return 0;
}

}  // namespace
}  // namespace trafikey::bench

int main(int argc, char** argv) {
  return trafikey::bench::run_main("trafikey-bench-cycles", trafikey::bench::main_, argc, argv);
}
