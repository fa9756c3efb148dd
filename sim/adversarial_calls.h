// The adversarial client: the calls a sloppy or hostile client sends among the fleet's (a plan's
// RunPlan::adversarial_calls). The fleet only ever sends well-formed calls with the spellings
// it was written with, so without these a core that misreads an argument, a bound, an
// option's case, a read-only verb or a token ahead of the row would pass every run.
//
// Each call is drawn from a catalog of the contract's edges (EMQ §4, §6, §7): malformed
// and out-of-range numbers, the bounds themselves (COUNT 1000, 200-byte names, LIMIT
// 10000, max_stalled 1000000, 1000 EXTENDS pairs), names with bytes only a stricter check
// refuses, 101 EXTENDS pairs, unknown and repeated options, wrong arity, lower-case verb names,
// STATS, JOB and EPOCH, an ADD of an id that exists, and a token one ahead of the row's
// attempts (never live). Most are refused or read-only or answer 0; the few that write
// (a sweep with an unusual spelling or budget) write what the contract says, so the
// checker and the model judge every one like any other call.
//
// Four catalogues, a file each (sim/adversarial_setup.h lists them): single calls
// (draw_adversarial_call, draw_fleet_call), corruption setups (draw_corruption_setup), value
// edges (draw_value_edges) and edge probes (draw_boundary_probe). The driver that sends them
// is sim/run_adversarial_client.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/prng.h"

namespace trafikey::sim {

// A queue's key names spelt as EMQ §1 writes them ("emq:{q}:pending", "emq:{q}:job:<id>"),
// not by the core's QueueKeys: the adversarial client's setups and its ACL step name keys through
// this, so a core that built a name wrong does not build the setup's names wrong with it.
struct SpecKeys {
  explicit SpecKeys(std::string_view q) : prefix("emq:{" + std::string(q) + "}:") {}
  std::string key(std::string_view suffix) const { return prefix + std::string(suffix); }
  std::string row(std::string_view id) const { return prefix + "job:" + std::string(id); }
  // DEL of the queue's five keys: a setup's first call, so it starts from nothing.
  std::vector<std::string> clear() const {
    return {"DEL", key("pending"), key("active"), key("done"), key("dead"), key("seq")};
  }
  std::string prefix;
};

// What an adversarial call is aimed at: one of the run's jobs, as the dataset holds it now.
struct AdversaryTarget {
  std::string queue;          // the job's queue
  std::string id;             // jN
  std::int64_t attempts = 0;  // the row's attempts (0: none, or no row)
  bool active = false;        // the row says state active
  bool exists = false;        // the row is a hash
  std::int64_t lease_ms = 1000;
  std::int64_t max_stalled = 2;  // the fleet's sweep budget
  std::int64_t server_ms = 0;    // the server's clock as the call will read it
  std::string run_id;            // the serving process's run_id
  std::string grant;             // the row's `lease`, the grant id of its last grant (EMQ §8)
};

// The adversarial call's arguments, argv[0] the verb. Draws from `prng` only.
std::vector<std::string> draw_adversarial_call(Prng& prng, const AdversaryTarget& target);

// A call as the fleet spells it, with the target's own token (live when the target holds
// a lease): every verb, each well-formed, so a server that may not write refuses each
// writing one at its fence (EMQ §6) and answers the read verbs.
std::vector<std::string> draw_fleet_call(Prng& prng, const AdversaryTarget& target);

// A queue of the adversarial client's own (the target's name + "-bad") set up by plain commands
// with one defect an operator or a bug could leave, then one verb that must meet it (EMQ
// §6): a row whose attempts, failures, max_failures or stalled is not a non-negative
// integer (`ERR EMQ corrupt job row`), a row key or a set key of the wrong type
// (`WRONGTYPE`: pending, active, done, dead or seq), a seq that INCR refuses (at int64's
// top, or not an integer), ghosts in pending (101, or 1001: one past the most one CLAIM
// removes, EMQ §7), a row that says active while its id is not in active, a stamp that is
// the run_id in upper case, more than 100 jobs for one CLAIM or one sweep, or a queue name,
// job id and payload far longer than the fleet's (on a queue of their own); a set key that
// holds a string, a row in active under a live deadline that says pending, done, dead or
// no state, a lease expired by one ms and not yet swept, failures past 32 bits on a budget
// of 0, a field name above 0x7f read by JOB, a lease verb under an ACL that denies a key
// it does not write. The calls in order;
// a call {"@DENY", key} is not a command but the runner's ACL for the one call after it
// (the caller may not write `key`); when a call is refused, the setup ends with its last
// call if that is a DEL (the rows it made are removed either way);
// the first clears the queue's keys, so every setup starts from nothing and the queue
// stays sound (each id in the one set its state names).
// Without these the fleet never meets a corrupt row or a wrong type, and a core that
// misreads one passes every run.
std::vector<std::vector<std::string>> draw_corruption_setup(Prng& prng, const AdversaryTarget& target);

// A setup of the same form (on the same queue of its own, the same runner) at the numbers and
// names past the few values the fleet writes: FAIL and the sweep against budgets of two
// digits or more (10, 11, 20, 100, 1000, 2^16, 10^6) with counts just below them or ending
// in 9; a live lease holding a token of two digits or past 2^31, 2^32, 2^53 met by a lease
// verb with that token or one 1 or 2^32 off; a CLAIM of a row whose attempts ends in 9 or
// lies past 2^31, then its token used; an id, a payload and a result or failure text that
// look like numbers (10, 007, -1, 1e3, past int64), added with MAXFAILURES at its bounds; a
// row with fields named near EMQ §1's (a prefix of one, upper case, sharing 12 bytes,
// differing after a NUL), or with more than its eleven, read by JOB; a counter with a space,
// line end or NUL after it met by CLAIM, FAIL or the sweep, and seq so (or "05", "+5") met by
// ADD. The fleet's
// budgets are 1..4, its tokens below a dozen, its ids jN, its texts short and not numeric:
// a core that compares counters as text, narrows a token or a budget to 16 or 32 bits or a
// double, bumps a counter's text with a wrong carry, answers a numeric bulk as an integer,
// sorts JOB's fields other than by bytes, or reads counters through a lax parser passes every
// run without these.
std::vector<std::vector<std::string>> draw_value_edges(Prng& prng, const AdversaryTarget& target);

// A lease written by hand at the edge of its live window, then one verb that judges it (a
// queue of its own, the target's name + "-edge", cleared first; the row deleted last). The
// deadline is now itself (live: EMQ §3, deadline >= now; the sweep leaves it, §5), one ms
// before now (expired: every lease verb answers 0, the sweep takes it), or half a ms either
// side of now (a deadline a script computed from TIME's microseconds: expired below now, live
// above); the row sound and stamped by this process, its budget 1 or 3; the verb one of
// EXTEND, EXTENDS (now and then naming the id twice, with its token or a token it never
// held), COMPLETE (with a result or without), FAIL and STALLED.CHECK (at max_stalled 1 or 5).
// The fleet lands on a deadline only by the grid's chance and never between two whole ms:
// without this a verb whose own live window is one ms off at one end, or a sweep that takes
// "expired" to mean "at or before the last whole ms", passes nearly every run.
std::vector<std::vector<std::string>> draw_boundary_probe(Prng& prng, const AdversaryTarget& target);

}  // namespace trafikey::sim
