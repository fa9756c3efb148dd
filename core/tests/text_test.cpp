#include "core/states.h"
#include "core/text.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace trafikey {
namespace {

TEST(Text, upper_changes_ascii_letters_only) {
  EXPECT_EQ(upper("emq.claim"), "EMQ.CLAIM");
  EXPECT_EQ(upper("EmQ.Add 1-z"), "EMQ.ADD 1-Z");
  const std::string bytes("a\0\xe9{z}", 5);
  EXPECT_EQ(upper(bytes), std::string("A\0\xe9{Z}", 5));
  EXPECT_EQ(upper(""), "");
}

TEST(Text, read_file_reads_every_byte_and_refuses_a_missing_file) {
  const std::string path = testing::TempDir() + "trafikey_text_test.bin";
  const std::string bytes("line 1\r\n\0line 2\xff", 16);
  {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
  }
  const auto text = read_file(path);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, bytes);
  std::remove(path.c_str());
  EXPECT_FALSE(read_file(path).has_value());
  EXPECT_FALSE(read_file(testing::TempDir()).has_value()) << "a directory is not a file";
}

// The names summaries and reports list are the transitions' own names, in their order.
TEST(Text, each_allowed_transition_name_is_its_states_names) {
  ASSERT_EQ(allowed_transition_names.size(), allowed_transitions.size());
  for (std::size_t i = 0; i < allowed_transitions.size(); ++i) {
    const auto [from, to] = allowed_transitions[i];
    EXPECT_EQ(allowed_transition_names[i], transition_name(from, to));
  }
  EXPECT_EQ(transition_name(JobState::active, JobState::dead), "active->dead");
}

}  // namespace
}  // namespace trafikey
