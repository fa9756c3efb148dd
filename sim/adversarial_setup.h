// What the adversarial client's catalogues (sim/adversarial_calls.h) build their calls and
// setups with. Internal to the files that implement the catalogues: not a public API.
//   adversarial_calls.cpp            single bad calls, and the fleet's calls
//   adversarial_corrupt_rows.cpp     corruption setups: corrupt counters, wrong types, ghosts, seq
//   adversarial_rare_setups.cpp      setups of sound but rare data: many jobs, long names,
//                                    two ids, rare rows (drawn as corruption setups)
//   adversarial_value_edges.cpp      value-edge setups
//   adversarial_boundary_probes.cpp  edge probes of a lease's live window
// Every draw comes from the Prng passed in, in the order the code reads: the same seed
// draws the same calls.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "sim/adversarial_calls.h"

namespace trafikey::sim::adversary {

using Call = std::vector<std::string>;

// One of `calls` (one draw).
inline Call pick(Prng& prng, std::initializer_list<Call> calls) {
  return *(calls.begin() + prng.between(0, static_cast<std::int64_t>(calls.size()) - 1));
}

// A setup's list with `more` after it, as each case of a setup returns it.
inline std::vector<Call> then_append(std::vector<Call>& calls, std::initializer_list<Call> more) {
  calls.insert(calls.end(), more.begin(), more.end());
  return calls;
}

// What a setup on queue `b` writes with: the spec's key names, the run's lease, and a
// deadline live now (the server's clock plus the lease), as texts.
struct SetupNames {
  SetupNames(const AdversaryTarget& t, const std::string& b)
      : k(b), pending(k.key("pending")), active(k.key("active")), lease(std::to_string(t.lease_ms)),
        live_score(std::to_string(t.server_ms + t.lease_ms)) {}
  SpecKeys k;
  std::string pending, active, lease, live_score;
};

// A setup under way on queue `b`: its names and its calls so far.
struct Setup : SetupNames {
  Setup(const AdversaryTarget& t, const std::string& queue, std::vector<Call> start)
      : SetupNames(t, queue), b(queue), calls(std::move(start)) {}
  // The calls so far with `more` after them, as each case of a setup returns them.
  std::vector<Call> then(std::initializer_list<Call> more) { return then_append(calls, more); }
  std::string b;
  std::vector<Call> calls;
};

// `hset` with the field `name` set to `value` after the others; as it is when `value` is
// empty (a row without that field).
inline Call with_field(Call hset, const char* name, const std::string& value) {
  if (!value.empty()) {
    hset.push_back(name);
    hset.push_back(value);
  }
  return hset;
}

// One of the four lease verbs on job `id` of queue `b` with `token` (one draw): EXTEND and
// EXTENDS by `lease`, COMPLETE and FAIL with the text "r".
inline Call lease_verb(Prng& prng, const std::string& b, const std::string& id, const std::string& token,
                       const std::string& lease) {
  return pick(prng, {{"EMQ.EXTEND", b, id, token, lease}, {"EMQ.EXTENDS", b, lease, id, token},
                     {"EMQ.COMPLETE", b, id, token, "r"}, {"EMQ.FAIL", b, id, token, "r"}});
}

inline std::string upper_case(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

// The setups of sound but rare data that draw_corruption_setup draws among its own
// (adversarial_rare_setups.cpp); `calls` is the setup's start (its queue cleared), `bad` the
// corrupt counter value it drew.
std::vector<Call> many_jobs(Prng& prng, const AdversaryTarget& t, const std::string& b);
std::vector<Call> long_names(Prng& prng, const AdversaryTarget& t);
std::vector<Call> two_id_setups(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> calls,
                                const std::string& bad);
std::vector<Call> rare_rows(Prng& prng, const AdversaryTarget& t, const std::string& b, std::vector<Call> calls);

}  // namespace trafikey::sim::adversary
