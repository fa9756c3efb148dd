// The command table (core/commands.cpp) pinned to EMQ.md's literal verb list (§4) and to
// MODULE-ABI's flag words: the ten names, their arity (the verb counted; EXTENDS up to 1000
// pairs, §7), which verbs write (everything but STATS, JOB and EPOCH, the three §4 calls
// read-only), their module flags, and where the queue name sits (argv[1]; EPOCH names no
// key). No history reads these fields: the simulator dispatches by name and the module
// registers what the table says, so a table wrong in all three places at once passes every
// property and every registration test; only this list, written from the page, tells.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/commands.h"

namespace trafikey {
namespace {

struct Expected {
  const char* name;
  int arity_min, arity_max;
  bool writes;
};

// EMQ §4's usage lines: q id payload [MAXFAILURES n] is 4..6 with the verb, and so on.
constexpr Expected emq_verbs[] = {
    {"EMQ.ADD", 4, 6, true},           {"EMQ.CLAIM", 3, 7, true},
    {"EMQ.EXTEND", 5, 5, true},        {"EMQ.EXTENDS", 5, 3 + 2 * 1000, true},
    {"EMQ.COMPLETE", 4, 5, true},      {"EMQ.FAIL", 5, 5, true},
    {"EMQ.STALLED.CHECK", 3, 5, true}, {"EMQ.STATS", 2, 2, false},
    {"EMQ.JOB", 3, 3, false},          {"EMQ.EPOCH", 1, 1, false},
};

TEST(CommandTable, holds_exactly_the_verbs_of_section_4) {
  std::set<std::string> names;
  for (const CommandSpec& c : command_table()) names.insert(std::string(c.name));
  std::set<std::string> expected;
  for (const Expected& e : emq_verbs) expected.insert(e.name);
  EXPECT_EQ(names, expected);
}

TEST(CommandTable, each_verb_has_its_arity_write_flag_module_flags_and_key_position) {
  for (const Expected& e : emq_verbs) {
    SCOPED_TRACE(e.name);
    const CommandSpec* c = find_command(e.name);
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->name, e.name);
    EXPECT_EQ(c->arity_min, e.arity_min);
    EXPECT_EQ(c->arity_max, e.arity_max);
    EXPECT_EQ(c->writes, e.writes);
    EXPECT_EQ(c->flags, e.writes ? "write deny-oom" : "readonly fast");
    const bool keyless = std::string(e.name) == "EMQ.EPOCH";
    EXPECT_EQ(c->first_key, keyless ? 0 : 1) << "the queue name is argv[1] (§1: it routes the call)";
    EXPECT_EQ(c->last_key, keyless ? 0 : 1);
    EXPECT_EQ(c->key_step, keyless ? 0 : 1);
    EXPECT_TRUE(c->usage.starts_with(c->name)) << c->usage;
    EXPECT_NE(c->handler, nullptr);
  }
}

TEST(CommandTable, names_match_in_any_case_and_nothing_else_matches) {
  EXPECT_EQ(find_command("emq.stalled.check"), find_command("EMQ.STALLED.CHECK"));
  EXPECT_EQ(find_command("Emq.Job"), find_command("EMQ.JOB"));
  EXPECT_EQ(find_command("EMQ.CLAIMS"), nullptr);
  EXPECT_EQ(find_command("EMQ.CLAI"), nullptr);
  EXPECT_EQ(find_command(""), nullptr);
}

}  // namespace
}  // namespace trafikey
