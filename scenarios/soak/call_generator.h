// CallGenerator: the random history of the fuzz and replica parts, drawn from one seed.
// Each call is one of:
//  - valid: an EMQ verb with well-formed arguments on the traffic queues q0..q2 (ids from a
//    bounded set, so the dataset stays a few thousand keys); EXTEND/COMPLETE/FAIL mostly
//    present tokens that earlier CLAIM replies handed out, so leases really move;
//  - malformed: a valid call of any verb with one thing broken: wrong arity, a bad number
//    (negative, zero, huge, "01", "1.5", spaces, binary junk), a bad queue name or job id,
//    an unknown, repeated or value-less option, too many EXTENDS pairs, junk bytes;
//  - on a poisoned queue (p0, p1): a valid-looking call where the queue's keys have been
//    set to the wrong type or its rows corrupted by a setup call;
//  - setup: a plain command (SET, HSET, ZADD, DEL...) that poisons or clears a p queue.
// Every verb of the command table (core/commands.h) is drawn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/reply.h"
#include "sim/prng.h"

namespace trafikey::soak {

struct Call {
  enum class Kind { valid, malformed, poisoned, setup };
  Kind kind = Kind::valid;
  std::vector<std::string> argv;
};

class CallGenerator {
 public:
  explicit CallGenerator(std::uint64_t seed);

  // q0..q2: the queues only valid calls and refusals reach (the fuzz audits them).
  static std::vector<std::string> traffic_queues();

  Call next();
  // Learns from a reply: the leases a CLAIM granted become tokens to present later.
  void observe(const Call& call, const Reply& reply);

  // A valid call (never malformed or poisoned), for histories that must move the dataset.
  Call valid();

 private:
  struct Token {
    std::string queue, id;
    std::int64_t attempts = 0;
  };

  std::vector<std::string> valid_argv(std::size_t verb, const std::string& queue);
  Call malformed();
  Call poisoned();
  Call setup();

  std::string traffic_queue();
  std::string traffic_id();
  std::string lease_ms();
  std::string bytes(std::size_t max_len);
  std::string junk();
  std::string bad_number();
  std::string bad_queue();
  std::string bad_id();
  Token token();  // a held token mostly; sometimes stale or made up
  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(prng_.between(0, static_cast<std::int64_t>(items.size()) - 1))];
  }

  sim::Prng prng_;
  std::vector<Token> tokens_;  // handed out by CLAIM, newest last; bounded
};

}  // namespace trafikey::soak
