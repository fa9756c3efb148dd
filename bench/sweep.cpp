// trafikey-bench-sweep: the cost of EMQ.STALLED.CHECK per expired member as the number of
// live leases grows: 10^3, 10^4, 10^5, 10^6 (issue 8). The aim: the per-member cost stays
// within 2x from 10^3 to 10^6, since a sweep should touch only what expired.
//
// One queue. Its active zset is filled with live leases (deadline a day ahead, rows as a
// claim leaves them) by pipelined ZADD (500 members a command) and HSET from 4 clients.
// At each size, each repetition adds a fixed 1,000 expired leases (deadline 1 ms after the
// epoch, stamped with the current run_id, so each is *counted*: the sweep reads TYPE,
// group, lease_epoch and stalled, then moves it back to pending with stalled 1) and runs
// one EMQ.STALLED.CHECK q 1000000 LIMIT 1000. The cost is measured three ways for that
// call: the main thread's CPU time around it (INFO cpu, robust to other load on the
// machine), the call's own time (INFO commandstats usec) and the client's round trip,
// each divided by 1,000.
#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "bench/support.h"
#include "core/keys.h"

namespace trafikey::bench {
namespace {

constexpr std::string_view q = "sweep";
constexpr std::int64_t expired_per_sweep = 1000;
constexpr int load_clients = 4;
constexpr std::string_view payload = "0123456789abcdef";

const std::string active(QueueKeys("sweep").active());
const std::string row_prefix = QueueKeys("sweep").row("");

// Adds live leases l<from> .. l<to-1>, rows as a claim leaves them, deadline a day ahead.
void add_live(real::RealServer& server, std::int64_t from, std::int64_t to,
              const std::string& run_id, const std::string& deadline) {
  run_clients(load_clients, [&](int c) {
    Pipe pipe(server.port());
    constexpr std::int64_t chunk = 500;
    std::int64_t sent = 0, taken = 0;
    std::vector<std::string> ids;
    std::vector<std::string_view> zadd;
    for (std::int64_t base = from + c * chunk; base < to; base += chunk * load_clients) {
      const std::int64_t end = std::min(to, base + chunk);
      ids.clear();
      for (std::int64_t i = base; i < end; ++i) ids.push_back("l" + std::to_string(i));
      for (const auto& id : ids) {
        const std::string row = row_prefix + id;
        pipe.append({"HSET", row, "state", "active", "payload", payload, "attempts", "1",
                     "failures", "0", "max_failures", "3", "lease_epoch", run_id});
        ++sent;
      }
      zadd = {"ZADD", active};
      for (const auto& id : ids) {
        zadd.push_back(deadline);
        zadd.push_back(id);
      }
      pipe.append(zadd);
      ++sent;
      while (sent - taken > 1024) {
        pipe.take_ok("load");
        ++taken;
      }
    }
    while (taken < sent) {
      pipe.take_ok("load");
      ++taken;
    }
  });
}

// Adds `expired_per_sweep` expired, counted leases x<rep>-<i>.
void add_expired(Pipe& pipe, int rep, const std::string& run_id) {
  std::vector<std::string> ids;
  for (std::int64_t i = 0; i < expired_per_sweep; ++i) {
    ids.push_back("x" + std::to_string(rep) + "-" + std::to_string(i));
  }
  for (const auto& id : ids) {
    pipe.append({"HSET", row_prefix + id, "state", "active", "payload", payload, "attempts", "1",
                 "failures", "0", "max_failures", "3", "lease_epoch", run_id});
  }
  std::vector<std::string_view> zadd{"ZADD", active};
  for (const auto& id : ids) {
    zadd.push_back("1");
    zadd.push_back(id);
  }
  pipe.append(zadd);
  for (std::size_t i = 0; i <= ids.size(); ++i) pipe.take_ok("expired");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double least(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

int main_(int argc, char** argv) {
  const Options options = parse_options(
      argc, argv, "trafikey-bench-sweep: EMQ.STALLED.CHECK cost per expired member, 10^3..10^6 live leases");
  const std::vector<std::int64_t> sizes =
      options.quick ? std::vector<std::int64_t>{1000, 10000}
                    : std::vector<std::int64_t>{1000, 10000, 100000, 1000000};
  const int reps = options.quick ? 3 : 7;

  real::RealServer server(module_server_config());
  auto admin = server.connect();
  const std::string run_id = admin.call({"EMQ.EPOCH"}).text();
  const std::string deadline =
      std::to_string(std::stoll(admin.call({"TIME"}).items()[0].text()) * 1000 + 86400000);
  Pipe pipe(server.port());

  // The server CPU an INFO round trip costs around nothing: subtracted from each sweep's.
  std::vector<double> idle;
  for (int r = 0; r < 9; ++r) {
    const double cpu0 = server_main_cpu_s(admin);
    idle.push_back(server_main_cpu_s(admin) - cpu0);
  }
  const double idle_cpu_s = median(idle);

  Table t("EMQ.STALLED.CHECK cost per expired member (1,000 counted expiries per sweep, " +
              std::to_string(reps) + " sweeps per size)",
          {"live leases", "server CPU us/member (median)", "call us/member (min)",
           "round trip us/member (min)", "load s", "used_memory"});
  std::int64_t live = 0;
  int rep_id = 0;
  double first = 0, last = 0, first_wall = 0, last_wall = 0;
  for (const std::int64_t size : sizes) {
    const auto load_start = Clock::now();
    add_live(server, live, size, run_id, deadline);
    live = size;
    const double load_s = seconds_since(load_start);
    std::vector<double> cpu_us, call_us, rtt_us;
    for (int r = 0; r < reps; ++r) {
      add_expired(pipe, rep_id++, run_id);
      const CommandStat before = command_stat(admin, "EMQ.STALLED.CHECK");
      const double cpu0 = server_main_cpu_s(admin);
      const auto start = Clock::now();
      const ReplyPtr reply = pipe.call({"EMQ.STALLED.CHECK", q, "1000000", "LIMIT", "1000"});
      const double rtt = seconds_since(start) * 1e6;
      const double cpu1 = server_main_cpu_s(admin);
      const CommandStat after = command_stat(admin, "EMQ.STALLED.CHECK");
      if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 8 ||
          reply->element[1]->elements != static_cast<std::size_t>(expired_per_sweep)) {
        throw std::runtime_error("bench: the sweep did not recover every expired lease");
      }
      if (after.calls != before.calls + 1) throw std::runtime_error("bench: no commandstats for the sweep");
      cpu_us.push_back((cpu1 - cpu0 - idle_cpu_s) * 1e6 / expired_per_sweep);
      call_us.push_back(static_cast<double>(after.usec - before.usec) / expired_per_sweep);
      rtt_us.push_back(rtt / expired_per_sweep);
    }
    const auto zcard = pipe.call({"ZCARD", active});
    if (zcard->integer != live) throw std::runtime_error("bench: active does not hold the live leases");
    if (size == sizes.front()) {
      first = median(cpu_us);
      first_wall = least(call_us);
    }
    last = median(cpu_us);
    last_wall = least(call_us);
    const Reply mem = admin.call({"INFO", "memory"});
    std::string used;
    if (auto at = mem.text().find("used_memory_human:"); at != std::string::npos) {
      used = mem.text().substr(at + 18, mem.text().find("\r\n", at) - at - 18);
    }
    t.row({grouped(static_cast<double>(size)), fixed(median(cpu_us), 2), fixed(least(call_us), 2),
           fixed(least(rtt_us), 2), fixed(load_s, 1), used});
  }
  t.note("largest/smallest = " + fixed(last / first, 2) + "x by server CPU, " +
         fixed(last_wall / first_wall, 2) + "x by call time  (aim: within 2x)");
  t.note("server CPU: INFO cpu main thread around the call, less an idle INFO pair; call: INFO commandstats usec");
  t.note("server: " + server_facts(admin) + "; AOF off");
  t.print();
  return 0;
}

}  // namespace
}  // namespace trafikey::bench

int main(int argc, char** argv) {
  return trafikey::bench::run_main("trafikey-bench-sweep", trafikey::bench::main_, argc, argv);
}
