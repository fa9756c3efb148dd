// trafikey-bench-memory: bytes per pending job (issue 8): MEMORY USAGE of the job's row
// (key, dict entry and value, as the server counts it) plus the job's share of the
// pending zset (MEMORY USAGE pending SAMPLES 0, divided by its members), for 10,000 jobs
// added with EMQ.ADD. The whole-server view (used_memory before and after, per job) is
// printed beside it. Two payload sizes show the row encodings (a listpack while every value
// is at most 64 bytes, a hashtable beyond). For scale, the same jobs once claimed: the
// native claim stamps lease_epoch (40 bytes of run_id) on the row, the script does not.
#include <iostream>
#include <stdexcept>

#include "bench/support.h"
#include "core/keys.h"

namespace trafikey::bench {
namespace {

constexpr std::int64_t jobs = 10000;

std::int64_t used_memory(real::ServerConnection& c) {
  const Reply r = c.call({"INFO", "memory"});
  const auto at = r.text().find("used_memory:");
  if (at == std::string::npos) throw std::runtime_error("bench: no used_memory in INFO");
  return std::stoll(r.text().substr(at + 12));
}

// The mean MEMORY USAGE of the rows of ids j0..j(n-1) of queue q.
double mean_row_bytes(Pipe& pipe, const std::string& q) {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < jobs; ++i) {
    pipe.append({"MEMORY", "USAGE", QueueKeys(q).row("j" + std::to_string(i))});
  }
  for (std::int64_t i = 0; i < jobs; ++i) {
    const ReplyPtr r = pipe.take();
    if (r->type != REDIS_REPLY_INTEGER) throw std::runtime_error("bench: MEMORY USAGE of a row failed");
    total += r->integer;
  }
  return static_cast<double>(total) / jobs;
}

double zset_share(Pipe& pipe, const std::string& key) {
  const ReplyPtr usage = pipe.call({"MEMORY", "USAGE", key, "SAMPLES", "0"});
  const ReplyPtr card = pipe.call({"ZCARD", key});
  if (usage->type != REDIS_REPLY_INTEGER || card->integer != jobs) {
    throw std::runtime_error("bench: " + key + " does not hold every job");
  }
  return static_cast<double>(usage->integer) / jobs;
}

std::string encoding(Pipe& pipe, const std::string& key) {
  const ReplyPtr r = pipe.call({"OBJECT", "ENCODING", key});
  return r->type == REDIS_REPLY_STRING ? std::string(r->str, static_cast<std::size_t>(r->len)) : "?";
}

void add_jobs(Pipe& pipe, const std::string& q, const std::string& payload) {
  for (std::int64_t i = 0; i < jobs; ++i) {
    pipe.append({"EMQ.ADD", q, "j" + std::to_string(i), payload});
    if (i % 512 == 511) {
      for (int k = 0; k < 512; ++k) pipe.take_integer(1, "EMQ.ADD");
    }
  }
  for (std::int64_t i = 0; i < jobs % 512; ++i) pipe.take_integer(1, "EMQ.ADD");
}

void claim_all(Pipe& pipe, const std::string& q, const Scripts* scripts) {
  const QueueKeys keys(q);
  const std::string pending(keys.pending()), active(keys.active());
  for (std::int64_t done = 0; done < jobs;) {
    const ReplyPtr r = scripts ? pipe.call({"EVALSHA", scripts->claim_sha, "2", pending, active,
                                            "3600000", "1000"})
                               : pipe.call({"EMQ.CLAIM", q, "3600000", "COUNT", "1000"});
    if (r->type != REDIS_REPLY_ARRAY || r->elements == 0) throw std::runtime_error("bench: claim failed");
    done += static_cast<std::int64_t>(r->elements);
  }
}

int main_(int argc, char** argv) {
  parse_options(argc, argv, "trafikey-bench-memory: bytes per pending job (row + zset share)");
  real::RealServer server(module_server_config());
  auto admin = server.connect();
  Scripts scripts = read_scripts();
  load_scripts(admin, scripts);
  Pipe pipe(server.port());

  Table t("bytes per job (" + grouped(static_cast<double>(jobs)) + " jobs per row, MEMORY USAGE)",
          {"jobs", "row bytes", "row encoding", "zset share", "bytes/job", "used_memory delta/job"});
  for (const std::string& payload : {std::string(16, 'p'), std::string(256, 'p')}) {
    const std::string q = "mem-" + std::to_string(payload.size());
    const std::int64_t before = used_memory(admin);
    add_jobs(pipe, q, payload);
    const std::int64_t after = used_memory(admin);
    const double row = mean_row_bytes(pipe, q);
    const double share = zset_share(pipe, std::string(QueueKeys(q).pending()));
    t.row({"pending, payload " + std::to_string(payload.size()) + " B", fixed(row, 1),
           encoding(pipe, QueueKeys(q).row("j0")), fixed(share, 1), fixed(row + share, 1),
           fixed(static_cast<double>(after - before) / jobs, 1)});
  }
  for (const bool scripted : {false, true}) {
    const std::string q = scripted ? "mem-script" : "mem-native";
    add_jobs(pipe, q, std::string(16, 'p'));
    claim_all(pipe, q, scripted ? &scripts : nullptr);
    const double row = mean_row_bytes(pipe, q);
    const double share = zset_share(pipe, std::string(QueueKeys(q).active()));
    t.row({scripted ? "active via claim.lua (no lease_epoch), payload 16 B"
                    : "active via EMQ.CLAIM (lease_epoch), payload 16 B",
           fixed(row, 1), encoding(pipe, QueueKeys(q).row("j0")), fixed(share, 1),
           fixed(row + share, 1), "-"});
  }
  t.note("bytes/job = row (key + dict entry + hash, as MEMORY USAGE counts) + the job's share of its zset");
  t.note("server: " + server_facts(admin) + "; AOF off");
  t.print();
  return 0;
}

}  // namespace
}  // namespace trafikey::bench

int main(int argc, char** argv) {
  return trafikey::bench::run_main("trafikey-bench-memory", trafikey::bench::main_, argc, argv);
}
