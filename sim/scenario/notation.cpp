#include "sim/scenario/notation.h"

#include "sim/keyspace.h"

namespace trafikey::scenario {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// A byte that may appear in a word the lexer reads (backslash included).
bool is_word_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x21 && u <= 0x7e && c != '"' && c != '#' && c != '[' && c != ']' && c != '=';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string describe_byte(unsigned char c) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "byte \\x";
  out += digits[c >> 4];
  out += digits[c & 15];
  return out;
}

// Reads the string whose opening quote is at line[start]; on success sets `end` one past
// the closing quote.
std::variant<std::string, LexError> lex_string(std::string_view line, std::size_t start,
                                               std::size_t& end) {
  const int open_column = static_cast<int>(start) + 1;
  std::string bytes;
  std::size_t i = start + 1;
  while (i < line.size()) {
    const char c = line[i];
    if (c == '"') {
      end = i + 1;
      return bytes;
    }
    if (c != '\\') {
      bytes += c;
      ++i;
      continue;
    }
    const int escape_column = static_cast<int>(i) + 1;
    if (i + 1 >= line.size()) break;  // a backslash at the end: unterminated
    const char e = line[i + 1];
    switch (e) {
      case '"': bytes += '"'; i += 2; continue;
      case '\\': bytes += '\\'; i += 2; continue;
      case 'n': bytes += '\n'; i += 2; continue;
      case 't': bytes += '\t'; i += 2; continue;
      case 'x': {
        const int hi = i + 2 < line.size() ? hex_value(line[i + 2]) : -1;
        const int lo = i + 3 < line.size() ? hex_value(line[i + 3]) : -1;
        if (hi < 0 || lo < 0) {
          return LexError{escape_column, "expected two hex digits after '\\x'"};
        }
        bytes += static_cast<char>(hi * 16 + lo);
        i += 4;
        continue;
      }
      default:
        return LexError{escape_column,
                        "expected an escape \\\" \\\\ \\n \\t or \\xHH after '\\' in a string"};
    }
  }
  return LexError{open_column,
                  "unterminated string: expected a closing '\"' before the end of the line"};
}

}  // namespace

std::variant<std::vector<Token>, LexError> lex_line(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    const int column = static_cast<int>(i) + 1;
    if (is_space(c)) {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      std::size_t end = 0;
      auto s = lex_string(line, i, end);
      if (auto* e = std::get_if<LexError>(&s)) return std::move(*e);
      tokens.push_back({Token::Kind::string, std::move(std::get<std::string>(s)), column,
                        static_cast<int>(end) + 1});
      i = end;
    } else if (c == '[' || c == ']') {
      tokens.push_back({c == '[' ? Token::Kind::open : Token::Kind::close, std::string(1, c),
                        column, column + 1});
      ++i;
    } else if (c == '=') {
      const bool arrow = i + 1 < line.size() && line[i + 1] == '>';
      const std::size_t width = arrow ? 2 : 1;
      tokens.push_back({arrow ? Token::Kind::arrow : Token::Kind::equals,
                        std::string(line.substr(i, width)), column,
                        column + static_cast<int>(width)});
      i += width;
    } else if (is_word_byte(c)) {
      std::size_t end = i;
      while (end < line.size() && is_word_byte(line[end])) ++end;
      tokens.push_back({Token::Kind::word, std::string(line.substr(i, end - i)), column,
                        static_cast<int>(end) + 1});
      i = end;
    } else {
      return LexError{column, "unexpected " + describe_byte(static_cast<unsigned char>(c)) +
                                  ": expected a word, a quoted string or punctuation "
                                  "(write such bytes inside a string)"};
    }
  }
  return tokens;
}

bool is_plain_word(std::string_view bytes) {
  if (bytes.empty()) return false;
  for (char c : bytes) {
    if (!is_word_byte(c) || c == '\\') return false;
  }
  return true;
}

bool is_integer_word(std::string_view bytes) {
  std::string_view digits = bytes;
  if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
  if (digits.empty()) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string write_word(std::string_view bytes) {
  if (is_plain_word(bytes) && bytes != "-" && bytes.front() != '>') return std::string(bytes);
  return sim::quote_bytes(bytes);
}

std::string write_reply_string(std::string_view bytes) {
  const bool reserved =
      is_integer_word(bytes) || bytes == "nil" || bytes == "_" || bytes == "error";
  if (reserved) return sim::quote_bytes(bytes);
  return write_word(bytes);
}

}  // namespace trafikey::scenario
