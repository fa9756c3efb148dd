#include "reports/tests/fixtures.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sim/run.h"
#include "sim/world.h"

namespace trafikey::reports::testing {

std::string crossed_restart_then_extended() {
  sim::WorldOptions options;
  options.seed = 7;
  options.persistence = sim::Persistence::always;
  sim::World w(options);
  w.begin("scenario", R"({"title":"crossed a restart, then extended","max_stalled":1})");
  w.call("p", {"EMQ.ADD", "q", "j1", "a"});
  w.call("p", {"EMQ.ADD", "q", "j2", "b"});
  w.advance_to(10);
  w.call("w1", {"EMQ.CLAIM", "q", "1000", "COUNT", "2"});
  w.advance_to(400);
  w.restart();
  w.advance_to(500);
  w.call("w1", {"EMQ.EXTEND", "q", "j1", "1", "1000"});
  w.advance_to(1200);
  w.call("s", {"EMQ.STALLED.CHECK", "q", "1"});
  w.advance_to(1600);
  w.call("s", {"EMQ.STALLED.CHECK", "q", "1"});
  w.advance_to(1700);
  w.call("w1", {"EMQ.COMPLETE", "q", "j1", "1"});
  w.advance_to(1800);
  w.call("w2", {"EMQ.CLAIM", "q", "1000"});
  w.advance_to(2000);
  w.call("w2", {"EMQ.COMPLETE", "q", "j2", "2"});
  w.end("drained", R"("dead":1,"done":1)");
  return w.history().text();
}

Wire2Run claimed_on_wire_2() {
  sim::WorldOptions options;
  options.seed = 7;
  sim::World w(options);
  w.begin("scenario", R"({"title":"a lease on wire 2"})");
  w.call("p", {"EMQ.ADD", "q", "j1", "a"});
  w.call("p", {"EMQ.ADD", "q", "j2", "b"});
  w.advance_to(10);
  const Reply& claimed = w.call("w1", {"EMQ.CLAIM", "q", "1000", "WIRE", "2"}).reply;
  const auto array = [](const Reply& r, std::size_t n) {
    return r.kind() == Reply::Kind::array && r.items().size() == n;
  };
  if (!array(claimed, 1) || !array(claimed.items()[0], 4)) {
    throw std::runtime_error("CLAIM ... WIRE 2 did not hand out one [id, attempts, payload, token] item");
  }
  // copied now: the reply lives only until the world's next call
  const std::string token(claimed.items()[0].items()[3].text());
  w.advance_to(300);
  w.call("w1", {"EMQ.EXTEND", "q", "j1", token, "1000"});
  w.advance_to(600);
  w.call("w1", {"EMQ.COMPLETE", "q", "j1", token});
  w.advance_to(700);
  w.call("w1", {"EMQ.COMPLETE", "q", "j1", token});
  w.call("w2", {"EMQ.CLAIM", "q", "1000"});
  w.advance_to(900);
  w.call("w2", {"EMQ.COMPLETE", "q", "j2", "1"});
  w.end("drained", R"("done":2)");
  return {w.history().text(), token};
}

std::string generated_run(std::uint64_t seed, const std::vector<sim::FaultKind>& faults) {
  sim::PlanChoices choices;
  choices.seed = seed;
  choices.fault_kinds = faults;
  choices.persistence = sim::Persistence::always;
  return sim::run_plan(sim::draw_plan(choices)).history;
}

std::string generated_run_with_restart() {
  for (std::uint64_t seed = 1; seed < 100; ++seed) {
    std::string h = generated_run(seed, {sim::FaultKind::restart, sim::FaultKind::worker_death});
    if (h.find("\"fault\":\"restart\"") != std::string::npos && h.find("\"verdict\":") != std::string::npos &&
        claim_grants(h) > 0) {
      return h;
    }
  }
  throw std::runtime_error("no seed below 100 gives a run with a restart and a verdict");
}

ReportInput input(const std::string& name, const std::string& history) {
  ReportInput in;
  in.name = name;
  in.history_text = history;
  return in;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::size_t occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1)) ++n;
  return n;
}

bool missing_tool_allowed(std::string_view tool) {
  const char* env = std::getenv("TRAFIKEY_ALLOW_MISSING_TOOLS");
  std::string_view rest = env ? env : "";
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == tool) return true;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return false;
}

std::string missing_tool_message(std::string_view tool, std::string_view install) {
  return std::string(tool) + " is not on PATH, so this test cannot run: install it (" + std::string(install) +
         "; ./dev.sh deps installs what the tests need), or, where it cannot be, let the test skip with "
         "TRAFIKEY_ALLOW_MISSING_TOOLS=" + std::string(tool) + " (a comma-separated list, e.g. chromium,dot)";
}

std::size_t claim_grants(const std::string& history) {
  std::size_t n = 0;
  for (const std::string& line : lines_of(history)) {
    const auto j = nlohmann::json::parse(line);
    if (!j.contains("call") || j["call"][0] != "EMQ.CLAIM" || !j["reply"].is_array()) continue;
    n += j["reply"].size();
  }
  return n;
}

}  // namespace trafikey::reports::testing
