// Reply keeps one kind's payload at a time (a union): copies, moves, assignment across
// kinds and equality must behave as a plain value with all three fields would.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/reply.h"

namespace trafikey {
namespace {

Reply sample() {
  return Reply::array_of(Reply::bulk(std::string(40, 'x')), Reply::integer(-7),
                         Reply::array_of(Reply::simple("OK"), Reply::nil()),
                         Reply::error("ERR no"));
}

TEST(Reply, other_kinds_read_as_empty_text_and_zero) {
  EXPECT_EQ(Reply::integer(5).text(), "");
  EXPECT_EQ(Reply::bulk("5").as_integer(), 0);
  EXPECT_EQ(Reply::array().text(), "");
  EXPECT_EQ(Reply::nil().as_integer(), 0);
  // a list of unknown shape: only an array lists anything
  EXPECT_TRUE(Reply::integer(5).items_if_array().empty());
  EXPECT_TRUE(Reply::bulk("5").items_if_array().empty());
  EXPECT_EQ(Reply::array_of(Reply::nil()).items_if_array().size(), 1u);
}

// items() is an array's: asking a reply of another kind is the caller's mistake (it reads
// a reply whose shape it did not check) and stops the program, in every build.
TEST(ReplyDeathTest, items_of_a_reply_that_is_not_an_array_aborts) {
  EXPECT_DEATH((void)Reply::integer(5).items(), "assertion failed: kind_ == Kind::array \\(items\\(\\) of a reply");
  Reply bulk = Reply::bulk("5");
  EXPECT_DEATH(bulk.items().push_back(Reply::integer(1)), "items\\(\\) of a reply that is not an array");
}

TEST(Reply, equality_compares_kind_then_payload) {
  // the same value built two ways (moved in, copied from a vector) is equal
  EXPECT_EQ(sample(), Reply::array({Reply::bulk(std::string(40, 'x')), Reply::integer(-7),
                                    Reply::array({Reply::simple("OK"), Reply::nil()}), Reply::error("ERR no")}));
  // and one byte, one kind or one item less anywhere in the tree is not
  EXPECT_NE(sample(), Reply::array_of(Reply::bulk(std::string(40, 'x')), Reply::integer(-7),
                                      Reply::array_of(Reply::simple("OK"), Reply::nil()), Reply::error("ERR No")));
  EXPECT_NE(sample(), Reply::array_of(Reply::bulk(std::string(40, 'x')), Reply::integer(-7),
                                      Reply::array_of(Reply::bulk("OK"), Reply::nil()), Reply::error("ERR no")));
  EXPECT_NE(sample(), Reply::array_of(Reply::bulk(std::string(40, 'x')), Reply::integer(-7),
                                      Reply::array_of(Reply::simple("OK")), Reply::error("ERR no")));
  EXPECT_NE(Reply::integer(0), Reply::nil());
  EXPECT_NE(Reply::bulk("a"), Reply::simple("a"));
  EXPECT_NE(Reply::bulk("a"), Reply::bulk("b"));
  EXPECT_NE(Reply::integer(1), Reply::integer(2));
  EXPECT_NE(Reply::array_of(Reply::integer(1)), Reply::array_of(Reply::integer(2)));
  EXPECT_EQ(Reply::array(), Reply::array_of());
}

TEST(Reply, copies_and_moves_keep_the_value) {
  const Reply a = sample();
  Reply b = a;  // copy
  EXPECT_EQ(b, a);
  Reply c = std::move(b);  // move
  EXPECT_EQ(c, a);
  EXPECT_EQ(c.items()[0].text(), std::string(40, 'x'));
  EXPECT_EQ(c.items()[2].items()[0].text(), "OK");
}

TEST(Reply, assignment_across_kinds) {
  Reply r = Reply::bulk(std::string(40, 'y'));
  r = sample();
  EXPECT_EQ(r, sample());
  r = Reply::integer(3);
  EXPECT_EQ(r, Reply::integer(3));
  EXPECT_EQ(r.text(), "");
  const Reply text = Reply::error("ERR long enough to live on the heap, not inline");
  r = text;
  EXPECT_EQ(r, text);
  r = r;  // self-assignment keeps the value
  EXPECT_EQ(r, text);
  r = Reply::nil();
  EXPECT_EQ(r, Reply::nil());
}

}  // namespace
}  // namespace trafikey
