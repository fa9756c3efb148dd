// The soak (issue 18 item 3): long randomised runs against a real server the soak starts
// itself (module/harness/real_server.h), in three parts:
//  - fuzz:    random and malformed calls to every EMQ verb among valid traffic; every
//             refusal (and every reply that promises "nothing written") must leave
//             DEBUG DIGEST unchanged, and every error text must be one of EMQ §6's;
//  - kill:    claim/complete load under `appendfsync always`, the server SIGKILLed at
//             random moments and restarted on its AOF: no acknowledged transition lost,
//             every job in exactly one set, the epoch rule of the sweep across the kills;
//  - replica: a replica with the module follows the primary through a random history and
//             holds its DEBUG DIGEST; an AOF reload and a restart on the AOF give it back.
// A part stops at its first broken check and says what broke, with the calls that led
// there. The calls a part makes are drawn from the seed (sim/prng.h); what a real server
// answers, and when a kill lands, is not deterministic.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trafikey::soak {

enum class Part { fuzz, kill, replica };
std::string_view part_name(Part part);

// How long a part runs: until it has made `calls` calls or `seconds` have passed, whichever
// comes first (0 = no bound of that kind; at least one must be set).
struct Budget {
  std::int64_t calls = 0;
  std::int64_t seconds = 0;
};

struct SoakOptions {
  std::uint64_t seed = 1;
  Budget budget;
  std::string server_bin;   // empty: the launcher's choice (TRAFIKEY_SERVER_BIN, valkey, redis)
  std::string module_path;  // trafikey.so, absolute
  // Called now and then with a one-line summary of the part so far (progress on a terminal).
  std::function<void(const std::string&)> progress;
};

// What a part did: named counts (printed in order) and, when a check broke, what broke.
struct PartResult {
  Part part = Part::fuzz;
  std::vector<std::pair<std::string, std::int64_t>> counts;  // e.g. {"calls fuzzed", 12000}
  bool broke = false;
  std::string failure;  // the broken check, its facts and the last calls, when broke
  std::int64_t elapsed_ms = 0;

  void add(const std::string& name, std::int64_t by = 1);
  std::int64_t count(const std::string& name) const;
};

// Each throws std::runtime_error when the server cannot be started or reached at all
// (not a finding: the soak could not run).
PartResult run_fuzz(const SoakOptions& options);
PartResult run_kill(const SoakOptions& options);
PartResult run_replica(const SoakOptions& options);
PartResult run_part(Part part, const SoakOptions& options);

}  // namespace trafikey::soak
