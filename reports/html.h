// Small helpers the HTML and SVG writers share: escaping, fixed-precision numbers,
// incarnation colours. Every number that reaches a report goes through `num` so the
// bytes do not depend on locale or on floating-point printing defaults.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace trafikey::reports {

// Text and attribute values: & < > " ' escaped.
std::string esc(std::string_view text);
// A coordinate with one decimal ("12.5", "-3.0"), locale-free.
std::string num(double value);
// A time in ms for labels: "850 ms", "12.3 s".
std::string ms_label(std::int64_t ms);
// Incarnation n's colour (cycles through 10 distinct colours); 0 -> grey (no stamp).
std::string_view incarnation_colour(int incarnation);
// The anchor id of line `line` of run `run` ("r0-L57").
std::string line_anchor(std::size_t run, std::int64_t line);
// A run_id shortened for labels: "617c…4e93" (empty -> "none").
std::string short_run_id(std::string_view run_id);
// A wire 2 token (EMQ §8, `<attempts>-<run_id>-<n>`) shortened for labels, its run_id cut
// to its first 6 characters: "1-5c017c…-1000". Anything else comes back as it is.
std::string short_wire2_token(std::string_view token);
// A wire 2 token as HTML: its short form in a <code> whose title attribute holds it whole.
std::string wire2_token_html(std::string_view token);

}  // namespace trafikey::reports
