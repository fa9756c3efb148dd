// The situations' name table (sim/situations.h): the names are the texts campaign.json and
// the coverage table hold, so each is distinct, spelt in lower case with hyphens, and stays
// what it was when an enumerator is renamed.
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "sim/situations.h"

namespace trafikey::sim {
namespace {

TEST(Situations, every_name_is_distinct_and_lower_case_with_hyphens) {
  ASSERT_EQ(situation_names().size(), situation_count);
  std::set<std::string_view> seen;
  for (std::string_view name : situation_names()) {
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-"), std::string_view::npos) << name;
  }
}

TEST(Situations, renamed_enumerators_keep_their_names) {
  EXPECT_EQ(situation_name(Situation::adversarial_call_refused), "odd-call-refused");
  EXPECT_EQ(situation_name(Situation::adversarial_call_read), "odd-call-read");
  EXPECT_EQ(situation_name(Situation::rare_bytes_name_answered), "odd-bytes-name-answered");
  EXPECT_EQ(situation_name(Situation::sweep_cut_by_limit), "sweep-cut-by-limit");
  EXPECT_EQ(situation_name(Situation::lease_verb_at_a_fractional_deadline), "lease-verb-at-a-fractional-deadline");
}

}  // namespace
}  // namespace trafikey::sim
