// Notation: the lexical layer of scenario files, shared by the parser and the writer so
// that what one writes the other reads back (see shared spec SCENARIO.md).
//
// A line is split into tokens:
//   - whitespace (space, tab, CR) separates tokens; '#' outside a string starts a comment
//     that runs to the end of the line;
//   - a string is double-quoted, on one line, with the escapes \" \\ \n \t and \xHH (two
//     hex digits); every other byte but a newline may appear in it as is;
//   - '[', ']', '=' and '=>' are punctuation, whether or not spaces surround them;
//   - a word is a run of printable ASCII (0x21..0x7e) other than '"', '#', '[', ']', '='.
//     Any other byte outside a string (a control byte, a byte >= 0x80) is an error: such
//     bytes must be written inside a string.
// Columns are 1-based byte offsets (a tab counts as one).
//
// The writer spells a value as a bare word when that reads back as the same bytes in the
// position it is written to, and as a string otherwise (see `write_word` and
// `write_reply_string`); strings are written with sim::quote_bytes, which only uses the
// escapes \" \\ and \xHH.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace trafikey::scenario {

struct Token {
  enum class Kind : unsigned char { word, string, open, close, equals, arrow };
  Kind kind;
  std::string text;    // a word's bytes, or a string's bytes with escapes decoded
  int column = 0;      // first byte of the token
  int end_column = 0;  // one past its last byte
};

struct LexError {
  int column = 0;
  std::string message;  // what was expected there
};

// Tokens of one line (`line` holds no '\n'); the comment, if any, is dropped.
std::variant<std::vector<Token>, LexError> lex_line(std::string_view line);

// A word of the notation as the lexer reads it, without a backslash (which the lexer
// would take literally but a reader might not): non-empty, printable ASCII, none of
// '"', '#', '[', ']', '=', '\\'.
bool is_plain_word(std::string_view bytes);
// `-?[0-9]+`: a word that, in a reply, is an integer (or, out of int64, an error).
bool is_integer_word(std::string_view bytes);

// Bytes in a word position (an argument, queue, id, field, value): bare when a plain
// word other than "-" (which a row check reads as "absent") that does not start with '>'
// (which after a row check's '=' would read as '=>'), else quoted.
std::string write_word(std::string_view bytes);
// A string reply: as write_word, and also quoted when bare it would read as another
// reply: an integer word, `nil`, `_` or `error`. So "12" is written "12" with quotes.
std::string write_reply_string(std::string_view bytes);

}  // namespace trafikey::scenario
