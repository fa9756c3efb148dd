#include "scenarios/soak/call_generator.h"

#include <algorithm>
#include <cassert>

#include "core/commands.h"

namespace trafikey::soak {

namespace {

using namespace std::string_literals;

constexpr std::int64_t traffic_queue_count = 3;  // q0..q2
constexpr std::int64_t traffic_ids = 60;    // j0..j59 per queue: the dataset stays bounded
constexpr std::size_t tokens_max = 200;
constexpr std::int64_t poisoned_queues = 2;  // p0, p1
const std::vector<std::string> poisoned_ids{"a", "b", "c"};

// Numbers a verb must refuse, or (the range ends) must take: the spec's bounds and the
// ways a decimal can be malformed.
const std::vector<std::string> odd_numbers{
    "", "abc", "-1", "0", "01", "-0", "+1", " 1", "1 ", "1.5", "1e3", "0x10", "1\0"s, "\xd9\xa1",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
    "9007199254740991", "9007199254740992", "1000", "1001", "10000", "10001", "1000000", "1000001",
    "-9007199254740991", "18446744073709551616"};

const std::vector<std::string> odd_keywords{"BOGUS", "", "COUNTS", "LIMIT", "COUNT", "MAXFAILURES",
                                            "count", "limit", "maxfailures", "Count", "\xff"};

std::string key(const std::string& queue, const std::string& part) { return "emq:{" + queue + "}:" + part; }

}  // namespace

CallGenerator::CallGenerator(std::uint64_t seed) : prng_(seed) {}

std::vector<std::string> CallGenerator::traffic_queues() {
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < traffic_queue_count; ++i) out.push_back("q" + std::to_string(i));
  return out;
}

std::string CallGenerator::traffic_queue() { return "q" + std::to_string(prng_.between(0, traffic_queue_count - 1)); }
std::string CallGenerator::traffic_id() { return "j" + std::to_string(prng_.between(0, traffic_ids - 1)); }

std::string CallGenerator::lease_ms() {
  // Mostly long leases (they stay live), some so short that the sweep finds them expired.
  return std::to_string(prng_.chance(700) ? prng_.between(10000, 120000) : prng_.between(1, 30));
}

std::string CallGenerator::bytes(std::size_t max_len) {
  std::string out(static_cast<std::size_t>(prng_.between(0, static_cast<std::int64_t>(max_len))), '\0');
  for (auto& c : out) c = static_cast<char>(prng_.chance(800) ? prng_.between('a', 'z') : prng_.between(0, 255));
  return out;
}

std::string CallGenerator::junk() {
  std::string out(static_cast<std::size_t>(prng_.between(0, 40)), '\0');
  for (auto& c : out) c = static_cast<char>(prng_.between(0, 255));
  return out;
}

std::string CallGenerator::bad_number() {
  if (prng_.chance(150)) return junk();
  if (prng_.chance(150)) return std::to_string(static_cast<std::int64_t>(prng_.next()));
  return pick(odd_numbers);
}

std::string CallGenerator::bad_queue() {
  switch (prng_.between(0, 6)) {
    case 0: return "";
    case 1: return "a{b";
    case 2: return "}";
    case 3: return std::string("x\0y", 3);
    case 4: return std::string(201, 'q');
    case 5: return std::string(200, 'q');  // the longest valid name
    default: return junk();
  }
}

std::string CallGenerator::bad_id() {
  switch (prng_.between(0, 4)) {
    case 0: return "";
    case 1: return std::string("a\0b", 3);
    case 2: return std::string(201, 'i');
    case 3: return std::string(200, 'i');  // the longest valid id
    default: return junk();
  }
}

CallGenerator::Token CallGenerator::token() {
  if (!tokens_.empty() && prng_.chance(850)) {
    Token t = tokens_[static_cast<std::size_t>(
        prng_.between(std::max<std::int64_t>(0, static_cast<std::int64_t>(tokens_.size()) - 20),
                      static_cast<std::int64_t>(tokens_.size()) - 1))];
    if (prng_.chance(100)) t.attempts = std::max<std::int64_t>(1, t.attempts - 1);  // stale
    return t;
  }
  return Token{traffic_queue(), traffic_id(), prng_.between(1, 4)};
}

std::vector<std::string> CallGenerator::valid_argv(std::size_t verb, const std::string& queue) {
  const CommandSpec& spec = command_table()[verb];
  std::vector<std::string> argv{std::string(spec.name)};
  const bool poisoned = queue.front() == 'p';
  auto id = [&] { return poisoned ? pick(poisoned_ids) : traffic_id(); };
  auto held = [&] {
    Token t = token();
    if (poisoned) t = Token{queue, pick(poisoned_ids), prng_.between(1, 3)};
    return t;
  };
  switch (spec.id) {
    case VerbId::add:
      argv.insert(argv.end(), {queue, id(), bytes(24)});
      if (prng_.chance(300)) argv.insert(argv.end(), {"MAXFAILURES", std::to_string(prng_.between(1, 4))});
      break;
    case VerbId::claim:
      argv.insert(argv.end(), {queue, lease_ms()});
      if (prng_.chance(600)) argv.insert(argv.end(), {"COUNT", std::to_string(prng_.between(1, 6))});
      break;
    case VerbId::extend: {
      const Token t = held();
      argv.insert(argv.end(), {poisoned ? queue : t.queue, t.id, std::to_string(t.attempts), lease_ms()});
      break;
    }
    case VerbId::extends: {
      argv.insert(argv.end(), {queue, lease_ms()});
      const std::int64_t pairs = prng_.between(1, 5);
      for (std::int64_t i = 0; i < pairs; ++i) {
        const Token t = held();
        argv.insert(argv.end(), {t.id, std::to_string(t.attempts)});
      }
      break;
    }
    case VerbId::complete: {
      const Token t = held();
      argv.insert(argv.end(), {poisoned ? queue : t.queue, t.id, std::to_string(t.attempts)});
      if (prng_.chance(500)) argv.push_back(bytes(24));
      break;
    }
    case VerbId::fail: {
      const Token t = held();
      argv.insert(argv.end(), {poisoned ? queue : t.queue, t.id, std::to_string(t.attempts), bytes(16)});
      break;
    }
    case VerbId::stalled_check:
      argv.insert(argv.end(), {queue, std::to_string(prng_.between(1, 3))});
      if (prng_.chance(300)) argv.insert(argv.end(), {"LIMIT", std::to_string(prng_.between(1, 20))});
      break;
    case VerbId::stats: argv.push_back(queue); break;
    case VerbId::job: argv.insert(argv.end(), {queue, id()}); break;
    case VerbId::epoch: break;
  }
  if (prng_.chance(50)) {  // verb names are case-insensitive
    std::transform(argv[0].begin(), argv[0].end(), argv[0].begin(),
                   [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
  }
  return argv;
}

Call CallGenerator::valid() {
  // Writers more often than readers, CLAIM and ADD most, so leases keep moving.
  static const std::vector<VerbId> weighted{
      VerbId::add, VerbId::add, VerbId::add, VerbId::claim, VerbId::claim, VerbId::claim, VerbId::extend,
      VerbId::extends, VerbId::complete, VerbId::complete, VerbId::fail, VerbId::stalled_check,
      VerbId::stalled_check, VerbId::stats, VerbId::job, VerbId::epoch};
  const auto verb = static_cast<std::size_t>(pick(weighted));
  return Call{Call::Kind::valid, valid_argv(verb, traffic_queue())};
}

Call CallGenerator::malformed() {
  const auto verbs = command_table();
  const auto verb = static_cast<std::size_t>(prng_.between(0, static_cast<std::int64_t>(verbs.size()) - 1));
  const CommandSpec& spec = verbs[verb];
  std::vector<std::string> argv = valid_argv(verb, traffic_queue());
  const std::int64_t mutation = prng_.between(0, 9);
  const bool has_queue = spec.first_key == 1;
  switch (mutation) {
    case 0:  // too few arguments
      argv.resize(static_cast<std::size_t>(prng_.between(1, std::max<std::int64_t>(1, spec.arity_min - 1))));
      break;
    case 1: {  // too many, or an odd tail
      const std::int64_t extra = prng_.between(1, 3);
      for (std::int64_t i = 0; i < extra; ++i) argv.push_back(prng_.chance(500) ? bad_number() : junk());
      break;
    }
    case 2:
    case 3: {  // a bad number where a number goes (every position past the queue that parses as one)
      std::vector<std::size_t> numeric;
      for (std::size_t i = 2; i < argv.size(); ++i) {
        if (!argv[i].empty() && std::all_of(argv[i].begin(), argv[i].end(), [](char c) { return c >= '0' && c <= '9'; })) {
          numeric.push_back(i);
        }
      }
      if (!numeric.empty()) argv[pick(numeric)] = bad_number();
      else argv.push_back(bad_number());  // a verb without numbers: one too many
      break;
    }
    case 4:  // a bad queue name
      if (has_queue && argv.size() > 1) argv[1] = bad_queue();
      else argv.push_back(bad_queue());
      break;
    case 5:  // a bad job id (the verbs that name one)
      if (spec.id == VerbId::add || spec.id == VerbId::extend || spec.id == VerbId::complete ||
          spec.id == VerbId::fail || spec.id == VerbId::job) {
        if (argv.size() > 2) argv[2] = bad_id();
      } else if (spec.id == VerbId::extends && argv.size() > 3) {
        argv[3] = bad_id();
      } else {
        argv.push_back(bad_id());
      }
      break;
    case 6: {  // an odd option: unknown, repeated, without value, on a verb without options
      argv.push_back(pick(odd_keywords));
      if (prng_.chance(700)) argv.push_back(prng_.chance(500) ? std::to_string(prng_.between(1, 5)) : bad_number());
      break;
    }
    case 7:  // junk bytes in any argument but the verb
      if (argv.size() > 1) {
        argv[static_cast<std::size_t>(prng_.between(1, static_cast<std::int64_t>(argv.size()) - 1))] = junk();
      } else {
        argv.push_back(junk());
      }
      break;
    case 8:  // EXTENDS: too many pairs, or half a pair
      argv = {"EMQ.EXTENDS", traffic_queue(), lease_ms()};
      if (prng_.chance(300)) {
        for (int i = 0; i < 1001; ++i) argv.insert(argv.end(), {traffic_id(), "1"});
      } else {
        argv.insert(argv.end(), {traffic_id(), "1", traffic_id()});
      }
      break;
    default:  // a lease so long that the deadline passes 2^53 - 1
      if (spec.id == VerbId::claim || spec.id == VerbId::extends) {
        argv[2] = std::to_string(prng_.between((std::int64_t{1} << 53) - 1000000000000, (std::int64_t{1} << 53) - 1));
      } else if (spec.id == VerbId::extend) {
        argv[4] = "9007199254740991";
      } else if (argv.size() > 1) {
        argv.back() = bad_number();
      }
      break;
  }
  return Call{Call::Kind::malformed, std::move(argv)};
}

Call CallGenerator::poisoned() {
  const std::string queue = "p" + std::to_string(prng_.between(0, poisoned_queues - 1));
  const auto verbs = command_table();
  const auto verb = static_cast<std::size_t>(prng_.between(0, static_cast<std::int64_t>(verbs.size()) - 1));
  return Call{Call::Kind::poisoned, valid_argv(verb, queue)};
}

Call CallGenerator::setup() {
  const std::string q = "p" + std::to_string(prng_.between(0, poisoned_queues - 1));
  const std::string row = key(q, "job:" + pick(poisoned_ids));
  static const std::vector<std::string> sets{"pending", "active", "done", "dead"};
  static const std::vector<std::string> row_fields{"attempts", "failures", "max_failures", "stalled"};
  std::vector<std::string> argv;
  switch (prng_.between(0, 11)) {
    case 0: argv = {"SET", key(q, pick(sets)), "junk"}; break;
    case 1: argv = {"RPUSH", key(q, pick(sets)), "x"}; break;
    case 2: argv = {"SET", key(q, "seq"), prng_.chance(500) ? "abc" : "9223372036854775807"}; break;
    case 3: argv = {"HSET", key(q, "seq"), "f", "v"}; break;
    case 4: argv = {"HSET", row, pick(row_fields), prng_.chance(300) ? bad_number() : "x"}; break;
    case 5: argv = {"SET", row, "a string row"}; break;
    case 6: argv = {"ZADD", key(q, pick(sets)), std::to_string(prng_.between(0, 5)), pick(poisoned_ids)}; break;
    case 7: argv = {"HSET", row, "state", prng_.chance(500) ? "active" : "weird", "attempts", "1"}; break;
    case 8: argv = {"HSET", row, "group", "g"}; break;
    case 9: argv = {"HSET", row, "lease_epoch", prng_.chance(500) ? "" : std::string(40, '0')}; break;
    case 10: argv = {"DEL", key(q, prng_.chance(500) ? pick(sets) : "seq"), row}; break;
    default:
      argv = {"DEL", key(q, "pending"), key(q, "active"), key(q, "done"), key(q, "dead"), key(q, "seq")};
      for (const auto& id : poisoned_ids) argv.push_back(key(q, "job:" + id));
      break;
  }
  return Call{Call::Kind::setup, std::move(argv)};
}

Call CallGenerator::next() {
  const std::int64_t draw = prng_.between(0, 999);
  if (draw < 450) return valid();
  if (draw < 850) return malformed();
  if (draw < 950) return poisoned();
  return setup();
}

void CallGenerator::observe(const Call& call, const Reply& reply) {
  if (call.kind != Call::Kind::valid || reply.kind() != Reply::Kind::array) return;
  const CommandSpec* spec = find_command(call.argv[0]);
  if (spec == nullptr || spec->id != VerbId::claim) return;
  for (const Reply& job : reply.items()) {
    if (job.items_if_array().size() != 3) continue;
    tokens_.push_back(Token{call.argv[1], job.items()[0].text(), job.items()[1].as_integer()});
  }
  if (tokens_.size() > tokens_max) tokens_.erase(tokens_.begin(), tokens_.begin() + (tokens_.size() - tokens_max));
}

}  // namespace trafikey::soak
