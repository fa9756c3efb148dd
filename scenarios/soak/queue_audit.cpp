#include "scenarios/soak/queue_audit.h"

#include <cstdlib>
#include <stdexcept>

#include "core/args.h"
#include "core/keys.h"
#include "core/states.h"
#include "properties/judge/rules.h"
#include "scenarios/soak/part_run.h"

namespace trafikey::soak {

namespace {

Reply checked(real::ServerConnection& c, const std::vector<std::string>& argv) {
  Reply r = c.call(argv);
  if (r.is_error()) throw std::runtime_error(argv[0] + " " + (argv.size() > 1 ? argv[1] : "") + " answered " + r.text());
  return r;
}

}  // namespace

std::int64_t QueueState::field(const Row& row, const std::string& name, std::int64_t fallback) {
  const auto it = row.find(name);
  if (it == row.end()) return fallback;
  return parse_int64(it->second).value_or(fallback);
}

QueueState read_queue(real::ServerConnection& c, const std::string& queue) {
  const QueueKeys keys(queue);
  QueueState out;
  const std::vector<std::pair<std::string, std::string_view>> set_keys{
      {"pending", keys.pending()}, {"active", keys.active()}, {"done", keys.done()}, {"dead", keys.dead()}};
  for (const auto& [name, key] : set_keys) {
    const Reply members = checked(c, {"ZRANGE", std::string(key), "0", "-1", "WITHSCORES"});
    auto& set = out.sets[name];
    for (std::size_t i = 0; i + 1 < members.items().size(); i += 2) {
      set[members.items()[i].text()] = std::strtod(members.items()[i + 1].text().c_str(), nullptr);
    }
  }
  const Reply seq = checked(c, {"GET", std::string(keys.seq())});
  if (seq.kind() == Reply::Kind::bulk) out.seq = parse_int64(seq.text());

  std::string cursor = "0";
  const std::string pattern = std::string(keys.prefix()) + "job:*";
  do {
    const Reply page = checked(c, {"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    if (page.items().size() != 2) throw std::runtime_error("SCAN answered " + render_reply(page));
    cursor = page.items()[0].text();
    for (const Reply& key : page.items()[1].items()) {
      const auto parsed = parse_row_key(key.text());
      if (!parsed || parsed->queue != queue) continue;
      const Reply fields = c.call({"HGETALL", key.text()});
      if (fields.is_error()) continue;  // not a hash: a ghost row, no job
      Row row;
      for (std::size_t i = 0; i + 1 < fields.items().size(); i += 2) {
        row[fields.items()[i].text()] = fields.items()[i + 1].text();
      }
      out.rows[std::string(parsed->id)] = std::move(row);
    }
  } while (cursor != "0");
  out.stats = checked(c, {"EMQ.STATS", queue});
  return out;
}

std::vector<std::string> audit_queue(const std::string& queue, const QueueState& state) {
  // queue.conserve and queue.budget, by the one judge (properties/judge/rules.h), from the
  // keys alone: the soak keeps no ledger of each job's history and no run_ids, so the parts
  // of the rules that need them are skipped (by the names the judge gives them).
  class Problems final : public properties::judge::Findings {
   public:
    Problems(const std::string& queue, std::vector<std::string>& out) : queue_(queue), out_(out) {}
    void fail(std::string_view invariant, std::string facts) override {
      out_.push_back(std::string(invariant) + " in queue " + queue_ + ": " + facts);
    }

   private:
    const std::string& queue_;
    std::vector<std::string>& out_;
  };
  std::vector<std::string> problems;
  properties::judge::QueueSnapshot snapshot;
  snapshot.queue = queue;
  snapshot.rows = state.rows;
  for (const JobState set : all_job_states) {
    const auto it = state.sets.find(std::string(job_state_name(set)));
    if (it == state.sets.end()) continue;
    for (const auto& [id, score] : it->second) snapshot.members[id].push_back(set);
  }
  Problems findings(queue, problems);
  properties::judge::judge_queue(snapshot, {}, findings);
  // EMQ.STATS: pending n active n done n dead n.
  const auto& items = state.stats.items();
  for (std::size_t i = 0; i < set_names().size(); ++i) {
    const std::string& name = set_names()[i];
    const std::int64_t want = static_cast<std::int64_t>(state.sets.at(name).size());
    if (items.size() != 8 || items[2 * i].text() != name || items[2 * i + 1].as_integer() != want) {
      problems.push_back("EMQ.STATS " + queue + " answered " + render_reply(state.stats) + " but " + name + " holds " +
                         std::to_string(want));
      break;
    }
  }
  return problems;
}

}  // namespace trafikey::soak
