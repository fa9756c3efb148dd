// trafikey-bench-extends: leases extended per second by EMQ.EXTENDS with 1, 10 and 100
// (id, attempts) pairs per call (issue 8), with EMQ.EXTEND and the scripted extend.lua
// (one lease per call) beside them for scale.
//
// Each client thread owns a queue in which it claimed 100 leases (lease 1 h, so every pair
// stays live); it then extends them round-robin in pipelined calls for a fixed window.
// Every reply is checked (an extension that answers 0 breaks the benchmark).
#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "bench/support.h"
#include "core/keys.h"

namespace trafikey::bench {
namespace {

constexpr int clients = 4;
constexpr int leases_per_client = 100;
constexpr std::string_view lease_ms = "3600000";
constexpr int pairs_in_flight = 400;  // per client: pipeline depth x pairs per call

struct ClientState {
  std::unique_ptr<Pipe> pipe;
  std::string q, active, row_prefix;
  std::vector<std::string> ids, tokens, rows;
};

enum class Kind { extends, extend, script };

struct Result {
  double leases_per_s = 0, calls_per_s = 0, server_cpu_us_per_lease = 0;
};

class ExtendBench {
 public:
  ExtendBench(real::RealServer& server, const Scripts& scripts)
      : server_(server), scripts_(scripts) {
    auto admin = server_.connect();
    for (int c = 0; c < clients; ++c) {
      ClientState s;
      s.pipe = std::make_unique<Pipe>(server_.port());
      s.q = "ext-" + std::to_string(c);
      s.active = QueueKeys(s.q).active();
      s.row_prefix = QueueKeys(s.q).row("");
      load_pending(*s.pipe, s.q, "j", leases_per_client, "0123456789abcdef");
      const ReplyPtr r = s.pipe->call(
          {"EMQ.CLAIM", s.q, lease_ms, "COUNT", std::to_string(leases_per_client)});
      if (r->type != REDIS_REPLY_ARRAY || r->elements != leases_per_client) {
        throw std::runtime_error("bench: setup claim did not claim every job");
      }
      for (std::size_t i = 0; i < r->elements; ++i) {
        const redisReply* job = r->element[i];
        s.ids.emplace_back(job->element[0]->str, static_cast<std::size_t>(job->element[0]->len));
        s.tokens.push_back(std::to_string(job->element[1]->integer));
        s.rows.push_back(s.row_prefix + s.ids.back());
      }
      state_.push_back(std::move(s));
    }
  }

  Result measure(Kind kind, int pairs, double window_s) {
    auto admin = server_.connect();
    run_for(kind, pairs, 0.2);  // warm-up
    const double cpu0 = server_main_cpu_s(admin);
    std::vector<std::int64_t> calls(clients, 0);
    const double wall = run_for(kind, pairs, window_s, &calls);
    const double cpu1 = server_main_cpu_s(admin);
    std::int64_t total_calls = 0;
    for (auto n : calls) total_calls += n;
    const double leases = static_cast<double>(total_calls) * pairs;
    return {leases / wall, static_cast<double>(total_calls) / wall, (cpu1 - cpu0) * 1e6 / leases};
  }

 private:
  double run_for(Kind kind, int pairs, double window_s, std::vector<std::int64_t>* calls = nullptr) {
    std::atomic<bool> stop{false};
    std::thread timer([&] {
      std::this_thread::sleep_for(std::chrono::duration<double>(window_s));
      stop = true;
    });
    const double wall = run_clients(clients, [&](int c) {
      ClientState& s = state_[static_cast<std::size_t>(c)];
      const int depth = std::max(1, pairs_in_flight / pairs);
      std::size_t next = 0;
      std::int64_t done = 0;
      std::vector<std::string_view> argv;
      while (!stop.load(std::memory_order_relaxed)) {
        for (int d = 0; d < depth; ++d) {
          argv.clear();
          if (kind == Kind::extends) {
            argv = {"EMQ.EXTENDS", s.q, lease_ms};
            for (int p = 0; p < pairs; ++p) {
              argv.push_back(s.ids[next]);
              argv.push_back(s.tokens[next]);
              next = (next + 1) % s.ids.size();
            }
          } else if (kind == Kind::extend) {
            argv = {"EMQ.EXTEND", s.q, s.ids[next], s.tokens[next], lease_ms};
            next = (next + 1) % s.ids.size();
          } else {
            argv = {"EVALSHA", scripts_.extend_sha, "2", s.active, s.rows[next], s.ids[next],
                    s.tokens[next], lease_ms};
            next = (next + 1) % s.ids.size();
          }
          s.pipe->append(argv);
        }
        for (int d = 0; d < depth; ++d) {
          if (kind == Kind::extends) {
            const ReplyPtr r = s.pipe->take_array("EMQ.EXTENDS");
            for (std::size_t i = 0; i < r->elements; ++i) {
              if (r->element[i]->integer != 1) throw std::runtime_error("bench: a lease was not extended");
            }
          } else {
            s.pipe->take_integer(1, "extend");
          }
        }
        done += depth;
      }
      if (calls) (*calls)[static_cast<std::size_t>(c)] = done;
    });
    timer.join();
    return wall;
  }

  real::RealServer& server_;
  const Scripts& scripts_;
  std::vector<ClientState> state_;
};

int main_(int argc, char** argv) {
  const Options options = parse_options(
      argc, argv, "trafikey-bench-extends: leases extended per second by EMQ.EXTENDS (1/10/100 pairs)");
  const double window_s = options.quick ? 0.3 : 1.5;

  real::RealServer server(module_server_config());
  auto admin = server.connect();
  Scripts scripts = read_scripts();
  load_scripts(admin, scripts);
  ExtendBench bench(server, scripts);

  Table t("lease extensions (" + std::to_string(clients) + " clients x " +
              std::to_string(leases_per_client) + " live leases, ~" +
              std::to_string(pairs_in_flight) + " pairs in flight per client, " +
              fixed(window_s, 1) + " s per row)",
          {"call", "pairs/call", "leases/s", "calls/s", "server CPU us/lease", "leases/s vs 1 pair"});
  struct Row {
    const char* name;
    Kind kind;
    int pairs;
  };
  const Row rows[] = {{"EMQ.EXTENDS", Kind::extends, 1},
                      {"EMQ.EXTENDS", Kind::extends, 10},
                      {"EMQ.EXTENDS", Kind::extends, 100},
                      {"EMQ.EXTEND", Kind::extend, 1},
                      {"EVALSHA extend.lua", Kind::script, 1}};
  double one = 0;
  for (const Row& r : rows) {
    const Result res = bench.measure(r.kind, r.pairs, window_s);
    if (r.kind == Kind::extends && r.pairs == 1) one = res.leases_per_s;
    t.row({r.name, std::to_string(r.pairs), grouped(res.leases_per_s), grouped(res.calls_per_s),
           fixed(res.server_cpu_us_per_lease, 2),
           one > 0 ? fixed(res.leases_per_s / one, 2) + "x" : "-"});
  }
  t.note("server: " + server_facts(admin) + "; AOF off");
  t.print();
  return 0;
}

}  // namespace
}  // namespace trafikey::bench

int main(int argc, char** argv) {
  return trafikey::bench::run_main("trafikey-bench-extends", trafikey::bench::main_, argc, argv);
}
