#include "sim/scenario/parse.h"

#include <charconv>
#include <optional>
#include <vector>

#include "core/args.h"
#include "sim/run_id.h"
#include "sim/keyspace.h"
#include "sim/scenario/notation.h"

namespace trafikey::scenario {

std::string to_string(const ParseError& error) {
  std::string out;
  if (!error.file.empty()) out += error.file + ":";
  out += std::to_string(error.line) + ":" + std::to_string(error.column) + ": " + error.message;
  return out;
}

namespace {

// How an error names the token it found: 'word', "string" (escaped), '[', ...
std::string describe(const Token* token) {
  if (!token) return "the end of the line";
  if (token->kind == Token::Kind::string) return sim::quote_bytes(token->text);
  return "'" + token->text + "'";
}

std::optional<std::uint64_t> parse_uint64(std::string_view text) {
  if (text.empty() || (text[0] == '0' && text.size() > 1)) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// `+MS` or `-MS`: a sign, then a canonical decimal.
std::optional<std::int64_t> parse_signed_step(std::string_view text) {
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  if (text[1] < '0' || text[1] > '9') return std::nullopt;
  if (text == "-0") return 0;  // parse_int64 refuses "-0"; "+0" and "-0" are both no step
  return parse_int64(text[0] == '+' ? text.substr(1) : text);
}

std::optional<double> parse_rate(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  if (!(value >= 0 && value <= drift_rate_max)) return std::nullopt;
  return value;
}

// The tokens of one line and a cursor over them. Every failure records the column and
// what was expected, and the caller returns false up to the line loop.
class LineCursor {
 public:
  explicit LineCursor(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  const Token* peek() const { return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr; }
  const Token* next() { return pos_ < tokens_.size() ? &tokens_[pos_++] : nullptr; }
  bool at_end() const { return pos_ >= tokens_.size(); }
  // Where a missing token would go: just past the token read last.
  int end_column() const { return pos_ == 0 ? 1 : tokens_[pos_ - 1].end_column; }

  // Records "expected ...": at the next token's column, or past the last one at the end.
  bool fail_here(std::string message) {
    const Token* t = peek();
    return fail_at(t ? t->column : end_column(), std::move(message));
  }
  bool fail_at(int column, std::string message) {
    column_ = column;
    message_ = std::move(message);
    return false;
  }
  // "expected X, found Y" at the next token.
  bool expected(std::string_view what) {
    return fail_here("expected " + std::string(what) + ", found " + describe(peek()));
  }
  bool expect_end(std::string_view after) {
    if (at_end()) return true;
    return expected("the end of the line after " + std::string(after));
  }

  int column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int column_ = 0;
  std::string message_;
};

bool is_word(const Token* t, std::string_view text) {
  return t && t->kind == Token::Kind::word && t->text == text;
}
bool is_value(const Token* t) {
  return t && (t->kind == Token::Kind::word || t->kind == Token::Kind::string);
}

// REPLY (reply_pattern.h), nested at most `depth_left` arrays deeper.
bool parse_reply(LineCursor& in, int depth_left, ReplyPattern& out) {
  const Token* t = in.peek();
  if (!t) return in.fail_here("expected a reply");
  switch (t->kind) {
    case Token::Kind::string:
      out = ReplyPattern::make_string(in.next()->text);
      return true;
    case Token::Kind::open: {
      if (depth_left == 0) {
        return in.fail_here("expected at most " + std::to_string(reply_depth_max) +
                            " nested arrays in a reply");
      }
      const int open_column = in.next()->column;
      out = ReplyPattern::make_array();
      while (in.peek() && in.peek()->kind != Token::Kind::close) {
        ReplyPattern item;
        if (!parse_reply(in, depth_left - 1, item)) return false;
        out.items.push_back(std::move(item));
      }
      if (!in.next()) {
        return in.fail_here("expected ']' to close the array opened at column " +
                            std::to_string(open_column));
      }
      return true;
    }
    case Token::Kind::word:
      break;
    default:
      return in.expected("a reply (an integer, a string, [array], nil, error \"TEXT\" or _)");
  }
  const std::string& word = t->text;
  if (word == "nil" || word == "_") {
    out = word == "nil" ? ReplyPattern::make_nil() : ReplyPattern::make_any();
    in.next();
    return true;
  }
  if (word == "error") {
    in.next();
    const Token* text = in.peek();
    if (!text || text->kind != Token::Kind::string) {
      return in.expected("the error text as a quoted string after 'error'");
    }
    out = ReplyPattern::make_error(in.next()->text);
    return true;
  }
  if (is_integer_word(word)) {
    const auto value = parse_int64(word);
    if (!value) {
      return in.fail_here("expected an integer reply in int64 without leading zeros, found '" +
                          word + "' (quote it for a string)");
    }
    out = ReplyPattern::make_integer(*value);
    in.next();
    return true;
  }
  out = ReplyPattern::make_string(in.next()->text);
  return true;
}

class FileParser {
 public:
  FileParser(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Parsed<Scenario> run() {
    int line_number = 0;
    std::size_t start = 0;
    std::string_view line;
    while (start <= text_.size()) {
      const std::size_t newline = text_.find('\n', start);
      const std::size_t end = newline == std::string_view::npos ? text_.size() : newline;
      line = text_.substr(start, end - start);
      ++line_number;
      if (auto error = parse_line(line, line_number)) return *std::move(error);
      start = end + 1;
    }
    if (title_line_ == 0) {
      return error_at(line_number, static_cast<int>(line.size()) + 1,
                      "expected a 'scenario \"TITLE\"' line, found the end of the file");
    }
    return std::move(scenario_);
  }

 private:
  ParseError error_at(int line, int column, std::string message) const {
    return ParseError{std::string(file_), line, column, std::move(message)};
  }

  std::optional<ParseError> parse_line(std::string_view line, int line_number) {
    auto lexed = lex_line(line);
    if (auto* e = std::get_if<LexError>(&lexed)) {
      return error_at(line_number, e->column, std::move(e->message));
    }
    LineCursor in(std::move(std::get<std::vector<Token>>(lexed)));
    if (in.at_end()) return std::nullopt;  // blank or comment only
    line_ = line_number;
    if (!parse_statement(in)) return error_at(line_number, in.column(), in.message());
    return std::nullopt;
  }

  bool parse_statement(LineCursor& in) {
    const Token* first = in.peek();
    if (title_line_ == 0) {
      if (!is_word(first, "scenario")) {
        return in.expected("'scenario \"TITLE\"' as the first line");
      }
      return parse_title(in);
    }
    if (is_word(first, "scenario")) {
      return in.fail_here("expected one 'scenario' line, found a second (the first is on line " +
                          std::to_string(title_line_) + ")");
    }
    if (is_word(first, "option")) return parse_option(in);
    if (is_word(first, "at")) return parse_step(in);
    return in.expected("'at' or 'option' at the start of a line");
  }

  bool parse_title(LineCursor& in) {
    in.next();
    const Token* title = in.peek();
    if (!title || title->kind != Token::Kind::string) {
      return in.expected("a quoted title after 'scenario'");
    }
    scenario_.title = in.next()->text;
    title_line_ = line_;
    return in.expect_end("the title");
  }

  bool parse_option(LineCursor& in) {
    const int option_column = in.next()->column;
    if (first_step_line_ != 0) {
      return in.fail_at(option_column, "expected 'at': options come before the first step (line " +
                                           std::to_string(first_step_line_) + ")");
    }
    const Token* name = in.peek();
    if (!name || name->kind != Token::Kind::word) return in.expected("an option name");
    int* seen = nullptr;
    if (name->text == "persistence") {
      seen = &persistence_line_;
    } else if (name->text == "seed") {
      seen = &seed_line_;
    } else if (name->text == "snapshot_interval_ms") {
      seen = &snapshot_line_;
    } else if (name->text == "replication_lag_ms") {
      seen = &replication_line_;
    } else {
      return in.expected("an option name (persistence, seed, snapshot_interval_ms or replication_lag_ms)");
    }
    if (*seen != 0) {
      return in.fail_here("expected each option once, found '" + name->text +
                          "' again (first set on line " + std::to_string(*seen) + ")");
    }
    *seen = line_;
    in.next();
    const Token* value = in.peek();
    if (seen == &persistence_line_) {
      const auto mode = value && value->kind == Token::Kind::word
                            ? parse_persistence(value->text)
                            : std::nullopt;
      if (!mode) return in.expected("a persistence mode: always, everysec, snapshot or none");
      scenario_.options.persistence = *mode;
    } else if (seen == &snapshot_line_ || seen == &replication_line_) {
      const auto ms = value && value->kind == Token::Kind::word ? parse_int64(value->text)
                                                                : std::nullopt;
      if (!ms || *ms < 1 || *ms > interval_ms_max) {
        return in.expected("an interval in ms, an integer in 1.." + std::to_string(interval_ms_max));
      }
      (seen == &snapshot_line_ ? scenario_.options.snapshot_interval_ms
                               : scenario_.options.replication_lag_ms) = *ms;
    } else {
      const auto seed = value && value->kind == Token::Kind::word ? parse_uint64(value->text)
                                                                  : std::nullopt;
      if (!seed) return in.expected("a seed, an integer in 0..18446744073709551615");
      scenario_.options.seed = *seed;
    }
    in.next();
    return in.expect_end("the option's value");
  }

  bool parse_step(LineCursor& in) {
    in.next();
    const Token* time = in.peek();
    const auto time_ms = time && time->kind == Token::Kind::word ? parse_int64(time->text)
                                                                 : std::nullopt;
    if (!time_ms || *time_ms < 0 || *time_ms > time_ms_max) {
      return in.expected("a time in ms after 'at', an integer in 0.." +
                         std::to_string(time_ms_max));
    }
    if (*time_ms < last_time_ms_) {
      return in.fail_here("expected a time of at least " + std::to_string(last_time_ms_) +
                          " (the time on line " + std::to_string(last_time_line_) +
                          "), found " + time->text + ": times must not go backwards");
    }
    in.next();
    Step step;
    step.time_ms = *time_ms;
    step.line = line_;
    if (!parse_action(in, step.action)) return false;
    if (first_step_line_ == 0) first_step_line_ = line_;
    last_time_ms_ = *time_ms;
    last_time_line_ = line_;
    scenario_.steps.push_back(std::move(step));
    return true;
  }

  bool parse_action(LineCursor& in, Action& action) {
    const Token* t = in.peek();
    static constexpr std::string_view steps =
        "a step (CLIENT: VERB ..., restart, failover, failback, reload, replica, primary, deny, allow, clock, drift, epoch, lose "
        "or check)";
    if (!t || t->kind != Token::Kind::word) return in.expected(steps);
    const std::string& word = t->text;
    if (word.size() > 1 && word.back() == ':') return parse_call(in, action);
    if (word == "restart" || word == "failover" || word == "failback" || word == "reload" || word == "replica" ||
        word == "primary") {
      in.next();
      if (word == "replica" || word == "primary") {
        action = ReplicaRole{word == "replica"};
      } else if (word == "restart") {
        action = Restart{};
      } else if (word == "failover") {
        action = Failover{};
      } else if (word == "failback") {
        action = Failback{};
      } else {
        action = Reload{};
      }
      return in.expect_end("'" + word + "'");
    }
    if (word == "clock") return parse_clock(in, action);
    if (word == "drift") return parse_drift(in, action);
    if (word == "epoch") return parse_epoch(in, action);
    if (word == "lose") return parse_lose(in, action);
    if (word == "allow") {
      in.next();
      action = WriteDenied{};
      return in.expect_end("'allow'");
    }
    if (word == "deny") {
      in.next();
      const Token* key = in.peek();
      if (!is_value(key) || key->text.empty()) return in.expected("a key after 'deny'");
      action = WriteDenied{in.next()->text};
      return in.expect_end("the key");
    }
    if (word == "check") return parse_check(in, action);
    return in.expected(steps);
  }

  bool parse_call(LineCursor& in, Action& action) {
    Call call;
    const Token* client = in.next();
    call.client = client->text.substr(0, client->text.size() - 1);
    if (!is_client_name(call.client)) {
      return in.fail_at(client->column,
                        "expected a client name (a plain word without ':') before ':', found '" +
                            client->text + "'");
    }
    const Token* verb = in.peek();
    if (!verb || verb->kind != Token::Kind::word || !is_known_verb(verb->text)) {
      return in.expected(known_verbs() + " after '" + client->text + "'");
    }
    while (is_value(in.peek())) call.argv.push_back(in.next()->text);
    if (!in.at_end()) {
      if (in.peek()->kind != Token::Kind::arrow) {
        return in.expected("an argument, '=>' or the end of the line (quote an argument that "
                           "holds '[', ']' or '=')");
      }
      in.next();
      if (in.at_end()) return in.fail_here("expected a reply after '=>'");
      ReplyPattern expect;
      if (!parse_reply(in, reply_depth_max, expect)) return false;
      call.expect = std::move(expect);
      if (!in.expect_end("the reply (an array is written [a b])")) return false;
    }
    action = std::move(call);
    return true;
  }

  bool parse_clock(LineCursor& in, Action& action) {
    in.next();
    const Token* t = in.peek();
    const auto delta = t && t->kind == Token::Kind::word ? parse_signed_step(t->text)
                                                         : std::nullopt;
    if (!delta || *delta < -time_ms_max || *delta > time_ms_max) {
      return in.expected("a signed step in ms after 'clock', like +500 or -500, of at most " +
                         std::to_string(time_ms_max));
    }
    in.next();
    action = ClockStep{*delta};
    return in.expect_end("the clock step");
  }

  bool parse_drift(LineCursor& in, Action& action) {
    in.next();
    const Token* t = in.peek();
    const auto rate = t && t->kind == Token::Kind::word ? parse_rate(t->text) : std::nullopt;
    if (!rate) return in.expected("a rate after 'drift', a number in 0..1000 such as 1.5");
    in.next();
    action = Drift{*rate};
    return in.expect_end("the drift rate");
  }

  bool parse_epoch(LineCursor& in, Action& action) {
    in.next();
    const Token* t = in.peek();
    if (is_word(t, "fail")) {
      action = EpochFault{EpochFault::Kind::fail};
    } else if (is_word(t, "malformed")) {
      in.next();
      const Token* text = in.peek();
      if (text && text->kind == Token::Kind::string) {
        // the exact bytes (a generated run's drawn shape, exported; "" an empty read);
        // never a good run_id
        if (sim::run_id_shape_ok(text->text)) {
          return in.expected("a malformed run_id after 'epoch malformed' (this one is 40 lowercase hex digits)");
        }
        action = EpochFault{EpochFault::Kind::malformed_text, text->text};
        in.next();
      } else {
        action = EpochFault{EpochFault::Kind::malformed_drawn};
      }
      return in.expect_end("the epoch fault");
    } else if (t && (t->kind == Token::Kind::word || t->kind == Token::Kind::string) &&
               sim::run_id_shape_ok(t->text)) {
      action = EpochFault{EpochFault::Kind::run_id, t->text};
    } else {
      return in.expected("'fail', 'malformed' (optionally with the malformed text, quoted) or a run_id (40 lowercase hex digits) after 'epoch'");
    }
    in.next();
    return in.expect_end("the epoch fault");
  }

  bool parse_lose(LineCursor& in, Action& action) {
    in.next();
    const Token* t = in.peek();
    if (!t || t->kind != Token::Kind::word || !is_client_name(t->text)) {
      return in.expected("a client name after 'lose' (a plain word without ':')");
    }
    action = Lose{in.next()->text};
    return in.expect_end("the client name");
  }

  bool parse_check(LineCursor& in, Action& action) {
    in.next();
    const Token* t = in.peek();
    if (is_word(t, "invariants")) {
      in.next();
      action = CheckInvariants{};
      return in.expect_end("'check invariants'");
    }
    if (is_word(t, "row")) return parse_check_row(in, action);
    if (is_word(t, "set")) return parse_check_set(in, action);
    return in.expected("'row', 'set' or 'invariants' after 'check'");
  }

  bool parse_check_row(LineCursor& in, Action& action) {
    in.next();
    CheckRow row;
    if (!is_value(in.peek())) return in.expected("a queue name after 'check row'");
    row.queue = in.next()->text;
    if (!is_value(in.peek())) return in.expected("a job id after the queue name");
    row.id = in.next()->text;
    if (in.at_end()) return in.fail_here("expected a field check F=V (V '-' for absent)");
    while (!in.at_end()) {
      const Token* field = in.peek();
      if (!is_value(field)) return in.expected("a field check F=V (V '-' for absent)");
      for (const FieldCheck& seen : row.fields) {
        if (seen.field == field->text) {
          return in.fail_here("expected each field once in a row check, found " +
                              describe(field) + " again");
        }
      }
      FieldCheck check{in.next()->text, std::nullopt};
      if (!in.peek() || in.peek()->kind != Token::Kind::equals) {
        return in.expected("'=' after the field name");
      }
      in.next();
      const Token* value = in.peek();
      if (!is_value(value)) return in.expected("a value or '-' (absent) after '='");
      if (!is_word(value, "-")) check.value = value->text;
      in.next();
      row.fields.push_back(std::move(check));
    }
    action = std::move(row);
    return true;
  }

  bool parse_check_set(LineCursor& in, Action& action) {
    in.next();
    CheckSet set;
    if (!is_value(in.peek())) return in.expected("a queue name after 'check set'");
    set.queue = in.next()->text;
    const Token* name = in.peek();
    const auto which = name && name->kind == Token::Kind::word ? parse_set_name(name->text)
                                                               : std::nullopt;
    if (!which) return in.expected("a set name: pending, active, done or dead");
    set.set = *which;
    in.next();
    while (is_value(in.peek())) set.ids.push_back(in.next()->text);
    if (!in.at_end()) return in.expected("a job id or the end of the line");
    action = std::move(set);
    return true;
  }

  std::string_view text_;
  std::string_view file_;
  Scenario scenario_;
  int line_ = 0;              // the line being parsed
  int title_line_ = 0;        // 0: not seen yet
  int persistence_line_ = 0;  // 0: not set
  int seed_line_ = 0;
  int snapshot_line_ = 0;
  int replication_line_ = 0;
  int first_step_line_ = 0;
  std::int64_t last_time_ms_ = 0;
  int last_time_line_ = 0;
};

}  // namespace

Parsed<Scenario> parse_scenario(std::string_view text, std::string_view file_name) {
  return FileParser(text, file_name).run();
}

Parsed<ReplyPattern> parse_reply_pattern(std::string_view text) {
  auto lexed = lex_line(text);
  if (auto* e = std::get_if<LexError>(&lexed)) {
    return ParseError{"", 1, e->column, std::move(e->message)};
  }
  LineCursor in(std::move(std::get<std::vector<Token>>(lexed)));
  ReplyPattern pattern;
  if (!parse_reply(in, reply_depth_max, pattern) || !in.expect_end("the reply")) {
    return ParseError{"", 1, in.column(), in.message()};
  }
  return pattern;
}

}  // namespace trafikey::scenario
