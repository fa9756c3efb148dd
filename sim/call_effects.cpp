#include "sim/call_effects.h"

namespace trafikey::sim {

namespace {

using spec::EmqVerb;

std::int64_t int_arg(std::string_view text, std::int64_t fallback) { return parse_int64(text).value_or(fallback); }

bool is_integer(const Reply& r, std::int64_t want) {
  return r.kind() == Reply::Kind::integer && r.as_integer() == want;
}

// The calls that move jobs, told apart by argv[0] alone.
enum class Command : std::uint8_t { other, verb, script, del, set, hset, zadd };

Command command_of(std::string_view name, EmqVerb& verb) {
  if (verb == EmqVerb::none) verb = spec::verb_of(name);
  if (verb != EmqVerb::none) return Command::verb;
  if (equals_ignore_case(name, "EVAL") || equals_ignore_case(name, "EVALSHA")) return Command::script;
  if (equals_ignore_case(name, "DEL")) return Command::del;
  if (equals_ignore_case(name, "SET")) return Command::set;
  if (equals_ignore_case(name, "HSET")) return Command::hset;
  if (equals_ignore_case(name, "ZADD")) return Command::zadd;
  return Command::other;
}

class Decoder {
 public:
  Decoder(Args argv, const Reply& reply, CallEffects& out) : a_(argv), r_(reply), out_(out) {}

  void verb(EmqVerb verb);
  void script();
  void plain(Command command);

 private:
  Move& move(JobMove kind, std::string_view queue, std::string_view id) {
    Move& m = out_.moves.emplace_back();
    m.kind = kind;
    m.queue = queue;
    m.id = id;
    return m;
  }
  // A lease verb's answer for one job: 1 moves it as `done`, 0 refuses its token.
  void answered(const Reply& r, JobMove done, std::string_view queue, std::string_view id,
                std::string_view carried, std::int64_t lease_ms) {
    if (is_integer(r, 1)) {
      Move& m = move(done, queue, id);
      m.carried = carried;
      m.amount = lease_ms;
    } else if (is_integer(r, 0)) {
      move(JobMove::refused, queue, id).carried = carried;
    }
  }
  // CLAIM's (and claim.lua's) reply: a grant for each [id, token, payload], or [id, token,
  // payload, wire 2 token] when the call asked for WIRE 2 (EMQ §8).
  void grants(std::string_view queue, std::int64_t lease_ms, bool wire2) {
    if (r_.kind() != Reply::Kind::array) return;
    for (const Reply& claimed : r_.items()) {
      if (claimed.items_if_array().size() != (wire2 ? 4u : 3u)) continue;
      Move& m = move(JobMove::grant, queue, claimed.items()[0].text());
      m.token = claimed.items()[1].as_integer();
      m.amount = lease_ms;
      if (wire2) m.carried = claimed.items()[3].text();
    }
  }
  // CLAIM's options (EMQ §4, §8): whether they ask for WIRE 2.
  bool wire2_asked() const {
    for (std::size_t i = 3; i + 1 < a_.size(); i += 2) {
      if (equals_ignore_case(a_[i], "WIRE")) return a_[i + 1] == "2";
    }
    return false;
  }
  std::string_view arg(std::size_t i) const { return i < a_.size() ? a_[i] : std::string_view(); }

  Args a_;
  const Reply& r_;
  CallEffects& out_;
};

void Decoder::verb(EmqVerb verb) {
  const std::string_view q = a_[1];
  switch (verb) {
    case EmqVerb::add:
      if (!is_integer(r_, 1) || a_.size() < 4) break;
      move(JobMove::add, q, a_[2]).amount = a_.size() >= 6 ? int_arg(a_[5], 3) : 3;
      break;
    case EmqVerb::claim:
      grants(q, a_.size() > 2 ? int_arg(a_[2], 0) : 0, wire2_asked());
      break;
    case EmqVerb::extend:
      if (a_.size() != 5) break;
      answered(r_, JobMove::extend, q, a_[2], a_[3], int_arg(a_[4], 0));
      break;
    case EmqVerb::extends: {
      if (r_.kind() != Reply::Kind::array) break;
      const std::int64_t lease_ms = a_.size() > 2 ? int_arg(a_[2], 0) : 0;
      for (std::size_t i = 0; i < r_.items().size() && 3 + 2 * i < a_.size(); ++i) {
        answered(r_.items()[i], JobMove::extend, q, a_[3 + 2 * i], arg(4 + 2 * i), lease_ms);
      }
      break;
    }
    case EmqVerb::complete:
      if (a_.size() <= 2) break;
      answered(r_, JobMove::complete, q, a_[2], arg(3), 0);
      break;
    case EmqVerb::fail:
      if (a_.size() <= 2) break;
      if (is_integer(r_, 2)) {
        move(JobMove::dead, q, a_[2]).carried = arg(3);
      } else {
        answered(r_, JobMove::requeue, q, a_[2], arg(3), 0);
      }
      break;
    case EmqVerb::sweep: {
      if (r_.kind() != Reply::Kind::array || r_.items().size() != 8) break;
      constexpr JobMove lists[] = {JobMove::sweep_recovered, JobMove::sweep_dead, JobMove::sweep_ghost,
                                   JobMove::sweep_lane};
      for (std::size_t l = 0; l < 4; ++l) {
        for (const Reply& id : r_.items()[1 + 2 * l].items_if_array()) move(lists[l], q, id.text());
      }
      break;
    }
    case EmqVerb::stats:
    case EmqVerb::job:
    case EmqVerb::epoch:
    case EmqVerb::none:
      break;
  }
  if (!out_.moves.empty()) out_.mover = spec::verb_name(verb);
}

// EVAL body|sha numkeys keys... args...
void Decoder::script() {
  if (a_.size() < 3) return;
  const ExecutorScript which =
      equals_ignore_case(a_[0], "EVALSHA") ? executor_script_of_sha(a_[1]) : executor_script_of_body(a_[1]);
  out_.script = which;
  const Args rest = a_.subspan(3);
  const auto numkeys = static_cast<std::size_t>(int_arg(a_[2], -1));
  if (which == ExecutorScript::claim && numkeys == 2 && rest.size() == 4) {
    const std::string_view queue = spec::pending_key_queue(rest[0]);
    if (!queue.empty()) grants(queue, int_arg(rest[2], 0), false);
    if (!out_.moves.empty()) out_.mover = "claim.lua";
  } else if (which == ExecutorScript::extend && numkeys == 2 && rest.size() == 5) {
    if (const auto row = spec::parse_row_key(rest[1])) {
      answered(r_, JobMove::extend, row->queue, rest[2], rest[3], int_arg(rest[4], 0));
    }
    if (!out_.moves.empty()) out_.mover = "extend.lua";
  } else if (which == ExecutorScript::complete && numkeys == 3 && rest.size() >= 5) {
    if (const auto row = spec::parse_row_key(rest[2])) answered(r_, JobMove::complete, row->queue, rest[3], rest[4], 0);
    if (!out_.moves.empty()) out_.mover = "complete.lua";
  }
}

void Decoder::plain(Command command) {
  switch (command) {
    case Command::del:
      // DEL takes any number of keys: each row among them is a ghost
      for (std::size_t i = 1; i < a_.size(); ++i) {
        if (const auto row = spec::parse_row_key(a_[i])) move(JobMove::ghost, row->queue, row->id);
      }
      if (!out_.moves.empty()) out_.mover = "DEL";
      break;
    case Command::set:
      // SET key value: a row key left holding a string is a ghost's, as after a DEL
      if (const auto row = spec::parse_row_key(a_[1])) move(JobMove::ghost, row->queue, row->id);
      if (!out_.moves.empty()) out_.mover = "SET";
      break;
    case Command::hset: {
      const auto row = spec::parse_row_key(a_[1]);
      if (!row) break;
      Move& written = move(JobMove::row_written, row->queue, row->id);
      bool group = false;
      for (std::size_t i = 2; i < a_.size(); i += 2) {
        group = group || a_[i] == "group";
        if (i + 1 >= a_.size()) break;
        if (a_[i] == "state") written.state = a_[i + 1];
        if (a_[i] == "attempts") written.token = int_arg(a_[i + 1], 0);
      }
      // an HSET answering 0 wrote no new field: not a lane mark
      if (group && !is_integer(r_, 0)) move(JobMove::lane, row->queue, row->id);
      out_.mover = "HSET";
      break;
    }
    case Command::zadd: {
      // ZADD emq:{q}:active score member ...: a deadline set by hand
      const std::string_view key = a_[1];
      const auto queue = spec::set_key_queue(key);
      if (!queue || !key.ends_with(":active") || a_.size() % 2 != 0) break;
      for (std::size_t i = 2; i + 1 < a_.size(); i += 2) {
        if (const auto score = parse_int64(a_[i])) move(JobMove::deadline, *queue, a_[i + 1]).amount = *score;
      }
      if (!out_.moves.empty()) out_.mover = "ZADD";
      break;
    }
    case Command::other:
    case Command::verb:
    case Command::script:
      break;
  }
}

}  // namespace

void decode_call(Args argv, const Reply& reply, CallEffects& out, EmqVerb verb) {
  out.verb = EmqVerb::none;
  out.script = ExecutorScript::none;
  out.mover = {};
  out.moves.clear();
  if (argv.size() < 2 || reply.is_error()) return;
  const Command command = command_of(argv[0], verb);
  Decoder decoder(argv, reply, out);
  if (command == Command::verb) {
    out.verb = verb;
    decoder.verb(verb);
  } else if (command == Command::script) {
    decoder.script();
  } else {
    decoder.plain(command);
  }
}

}  // namespace trafikey::sim
