// The soak's judge of error texts: every refusal of EMQ §6, spelt as the page spells it,
// and nothing else (the server's own texts for an EMQ verb are findings, not refusals).
#include <gtest/gtest.h>

#include "scenarios/soak/spec_errors.h"

namespace trafikey::soak {
namespace {

TEST(SpecErrors, accepts_every_fixed_text_of_section_6) {
  for (const char* text :
       {"ERR EMQ wrong number of arguments", "ERR EMQ syntax error", "ERR EMQ bad queue name", "ERR EMQ bad job id",
        "ERR EMQ lease out of range", "ERR EMQ host call failed", "ERR EMQ corrupt job row",
        "READONLY EMQ not a writable primary", "ERR value is not an integer or out of range",
        "WRONGTYPE Operation against a key holding the wrong kind of value"}) {
    EXPECT_TRUE(is_spec_error(text)) << text;
  }
}

TEST(SpecErrors, accepts_the_ranges_of_section_7) {
  for (const char* text : {"ERR EMQ lease_ms must be an integer in 1..9007199254740991",
                           "ERR EMQ attempts must be an integer in 1..9223372036854775807",
                           "ERR EMQ count must be an integer in 1..1000", "ERR EMQ limit must be an integer in 1..10000",
                           "ERR EMQ max_stalled must be an integer in 1..1000000",
                           "ERR EMQ max_failures must be an integer in 1..1000000"}) {
    EXPECT_TRUE(is_spec_error(text)) << text;
  }
}

TEST(SpecErrors, accepts_noperm_on_a_queue_key) {
  EXPECT_TRUE(is_spec_error("NOPERM EMQ no write access to emq:{q}:pending"));
  EXPECT_FALSE(is_spec_error("NOPERM EMQ no write access to somewhere"));
}

TEST(SpecErrors, refuses_other_texts) {
  for (const char* text : {"ERR wrong number of arguments for 'emq.add' command", "ERR unknown command 'EMQ.NOPE'",
                           "ERR EMQ count must be an integer in 1..1001", "ERR EMQ lease_ms must be an integer in 0..9007199254740991",
                           "ERR EMQ syntax error ", "err emq syntax error", "ERR increment or decrement would overflow",
                           "ERR EMQ", ""}) {
    EXPECT_FALSE(is_spec_error(text)) << text;
  }
}

}  // namespace
}  // namespace trafikey::soak
