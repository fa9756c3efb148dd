// The plain commands of sim/plain.cpp (HSET HGET HGETALL HDEL ZADD ZREM ZRANGE ZSCORE INCR
// SET DEL TYPE EXISTS) with the replies a RESP2 client sees from a real server, and the
// server's answer to a command it does not know.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "core/reply.h"
#include "sim/keyspace.h"
#include "sim/plain.h"
#include "sim/server.h"
#include "sim/tests/replies.h"
#include "sim/undo.h"

namespace trafikey::sim {
namespace {

using namespace std::string_literals;

using namespace test_replies;

const std::string kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

// One server process (module loaded) over its own keyspace.
struct PlainServer {
  PlainServer() { server.start(std::string(40, 'a')); }
  Reply call(const std::vector<std::string>& argv) {
    std::vector<std::string_view> v(argv.begin(), argv.end());
    return server.call(v);
  }
  Keyspace data;
  SimServer server{data};
};

TEST(PlainCommands, table_names_the_commands_scenarios_may_send) {
  for (auto name : {"HSET", "hget", "HGETALL", "HDEL", "ZADD", "ZREM", "ZRANGE", "ZSCORE",
                    "INCR", "SET", "DEL", "TYPE", "EXISTS"}) {
    EXPECT_TRUE(is_plain_command(name)) << name;
  }
  EXPECT_FALSE(is_plain_command("GET"));
  EXPECT_FALSE(is_plain_command("EMQ.ADD"));
}

TEST(PlainCommands, hset_counts_new_fields_and_updates_in_place) {
  PlainServer s;
  EXPECT_EQ(s.call({"HSET", "h", "a", "1", "b", "2"}), Int(2));
  EXPECT_EQ(s.call({"HSET", "h", "a", "9", "c", "3"}), Int(1));
  EXPECT_EQ(s.call({"HGETALL", "h"}),
            Arr({Bulk("a"), Bulk("9"), Bulk("b"), Bulk("2"), Bulk("c"), Bulk("3")}));
}

TEST(PlainCommands, hset_without_whole_pairs_is_wrong_arity) {
  PlainServer s;
  EXPECT_EQ(s.call({"HSET", "h", "a"}), Err("ERR wrong number of arguments for 'hset' command"));
  EXPECT_EQ(s.call({"HSET", "h", "a", "1", "b"}),
            Err("ERR wrong number of arguments for 'hset' command"));
  EXPECT_EQ(s.data.dump(), "");
}

TEST(PlainCommands, hget_answers_bulk_or_nil) {
  PlainServer s;
  ASSERT_EQ(s.call({"HSET", "h", "f", "v\0"s}), Int(1));
  EXPECT_EQ(s.call({"HGET", "h", "f"}), Bulk("v\0"s));
  EXPECT_EQ(s.call({"HGET", "h", "g"}), Reply::nil());
  EXPECT_EQ(s.call({"HGET", "absent", "f"}), Reply::nil());
  EXPECT_EQ(s.call({"HGETALL", "absent"}), Arr());
}

TEST(PlainCommands, hdel_counts_removed_fields_and_drops_an_empty_hash) {
  PlainServer s;
  ASSERT_EQ(s.call({"HSET", "h", "a", "1", "b", "2"}), Int(2));
  EXPECT_EQ(s.call({"HDEL", "h", "a", "x", "a"}), Int(1));
  EXPECT_EQ(s.call({"HDEL", "h", "b"}), Int(1));
  EXPECT_EQ(s.call({"EXISTS", "h"}), Int(0));
  EXPECT_EQ(s.call({"HDEL", "h", "b"}), Int(0));
}

TEST(PlainCommands, zadd_counts_added_members_and_updates_scores) {
  PlainServer s;
  EXPECT_EQ(s.call({"ZADD", "z", "1", "a", "2", "b"}), Int(2));
  EXPECT_EQ(s.call({"ZADD", "z", "5", "a", "0.5", "c"}), Int(1));
  EXPECT_EQ(s.call({"ZRANGE", "z", "0", "-1", "WITHSCORES"}),
            Arr({Bulk("c"), Bulk("0.5"), Bulk("b"), Bulk("2"), Bulk("a"), Bulk("5")}));
}

TEST(PlainCommands, zadd_refuses_bad_scores_before_writing) {
  PlainServer s;
  EXPECT_EQ(s.call({"ZADD", "z", "1", "a", "x", "b"}), Err("ERR value is not a valid float"));
  EXPECT_EQ(s.call({"ZADD", "z", "nan", "a"}), Err("ERR value is not a valid float"));
  EXPECT_EQ(s.call({"ZADD", "z", " 1", "a"}), Err("ERR value is not a valid float"));
  EXPECT_EQ(s.call({"ZADD", "z", "1", "a", "2"}), Err("ERR syntax error"));
  EXPECT_EQ(s.call({"ZADD", "z", "1"}), Err("ERR wrong number of arguments for 'zadd' command"));
  EXPECT_EQ(s.data.dump(), "");
}

TEST(PlainCommands, zadd_takes_infinities) {
  PlainServer s;
  EXPECT_EQ(s.call({"ZADD", "z", "-inf", "lo", "+inf", "hi", "inf", "top"}), Int(3));
  EXPECT_EQ(s.call({"ZSCORE", "z", "lo"}), Bulk("-inf"));
  EXPECT_EQ(s.call({"ZSCORE", "z", "hi"}), Bulk("inf"));
}

TEST(PlainCommands, zrem_counts_removed_members) {
  PlainServer s;
  ASSERT_EQ(s.call({"ZADD", "z", "1", "a", "2", "b"}), Int(2));
  EXPECT_EQ(s.call({"ZREM", "z", "a", "x", "a"}), Int(1));
  EXPECT_EQ(s.call({"ZRANGE", "z", "0", "-1"}), Arr({Bulk("b")}));
  EXPECT_EQ(s.call({"ZREM", "z", "b"}), Int(1));
  EXPECT_EQ(s.call({"TYPE", "z"}), Reply::simple("none"));
}

TEST(PlainCommands, zrange_refuses_unknown_options_and_non_integer_ranks) {
  PlainServer s;
  ASSERT_EQ(s.call({"ZADD", "z", "1", "a"}), Int(1));
  EXPECT_EQ(s.call({"ZRANGE", "z", "0", "-1", "WITHSCORE"}), Err("ERR syntax error"));
  EXPECT_EQ(s.call({"ZRANGE", "z", "0", "x"}),
            Err("ERR value is not an integer or out of range"));
  EXPECT_EQ(s.call({"ZRANGE", "absent", "0", "-1"}), Arr());
}

TEST(PlainCommands, zscore_answers_the_formatted_score_or_nil) {
  PlainServer s;
  ASSERT_EQ(s.call({"ZADD", "z", "2000", "a", "1.5", "b"}), Int(2));
  EXPECT_EQ(s.call({"ZSCORE", "z", "a"}), Bulk("2000"));
  EXPECT_EQ(s.call({"ZSCORE", "z", "b"}), Bulk("1.5"));
  EXPECT_EQ(s.call({"ZSCORE", "z", "c"}), Reply::nil());
  EXPECT_EQ(s.call({"ZSCORE", "absent", "c"}), Reply::nil());
}

TEST(PlainCommands, incr_counts_and_refuses_non_integers) {
  PlainServer s;
  EXPECT_EQ(s.call({"INCR", "n"}), Int(1));
  EXPECT_EQ(s.call({"INCR", "n"}), Int(2));
  s.data.set("word", "abc");
  EXPECT_EQ(s.call({"INCR", "word"}), Err("ERR value is not an integer or out of range"));
  s.data.set("max", "9223372036854775807");
  EXPECT_EQ(s.call({"INCR", "max"}), Err("ERR value is not an integer or out of range"));
  bool wrong = false;
  EXPECT_EQ(*s.data.string_at("max", wrong), "9223372036854775807");
}

// SET key value replaces a key of any type (a seq INCR refuses, a row key that is not a
// hash); its options are not known here: a syntax error, and nothing written.
TEST(PlainCommands, set_replaces_any_type_and_refuses_options) {
  PlainServer s;
  EXPECT_EQ(s.call({"SET", "seq", "9223372036854775807"}), Reply::simple("OK"));
  EXPECT_EQ(s.call({"INCR", "seq"}), Err("ERR value is not an integer or out of range"));
  ASSERT_EQ(s.call({"HSET", "row", "f", "v"}), Int(1));
  EXPECT_EQ(s.call({"SET", "row", "x"}), Reply::simple("OK"));
  EXPECT_EQ(s.call({"TYPE", "row"}), Reply::simple("string"));
  const std::string before = s.data.dump();
  EXPECT_EQ(s.call({"SET", "row", "y", "NX"}), Err("ERR syntax error"));
  EXPECT_EQ(s.call({"SET", "row"}), Err("ERR wrong number of arguments for 'set' command"));
  EXPECT_EQ(s.data.dump(), before);
}

TEST(PlainCommands, del_and_exists_count_their_keys) {
  PlainServer s;
  ASSERT_EQ(s.call({"INCR", "a"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "b", "f", "v"}), Int(1));
  EXPECT_EQ(s.call({"EXISTS", "a", "a", "b", "c"}), Int(3));
  EXPECT_EQ(s.call({"DEL", "a", "c", "b"}), Int(2));
  EXPECT_EQ(s.call({"EXISTS", "a", "b"}), Int(0));
}

TEST(PlainCommands, type_answers_simple_string_names) {
  PlainServer s;
  ASSERT_EQ(s.call({"INCR", "s"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "h", "f", "v"}), Int(1));
  ASSERT_EQ(s.call({"ZADD", "z", "1", "m"}), Int(1));
  EXPECT_EQ(s.call({"TYPE", "s"}), Reply::simple("string"));
  EXPECT_EQ(s.call({"TYPE", "h"}), Reply::simple("hash"));
  EXPECT_EQ(s.call({"TYPE", "z"}), Reply::simple("zset"));
  EXPECT_EQ(s.call({"TYPE", "x"}), Reply::simple("none"));
}

TEST(PlainCommands, commands_on_a_key_of_another_type_answer_wrongtype_and_write_nothing) {
  PlainServer s;
  ASSERT_EQ(s.call({"INCR", "s"}), Int(1));
  ASSERT_EQ(s.call({"HSET", "h", "f", "v"}), Int(1));
  ASSERT_EQ(s.call({"ZADD", "z", "1", "m"}), Int(1));
  const std::string before = s.data.dump();
  const std::vector<std::vector<std::string>> calls{
      {"HSET", "z", "f", "v"}, {"HGET", "z", "f"},   {"HGETALL", "s"},
      {"HDEL", "z", "f"},      {"ZADD", "h", "1", "m"}, {"ZREM", "h", "m"},
      {"ZRANGE", "s", "0", "-1"}, {"ZSCORE", "h", "f"}, {"INCR", "h"},
  };
  for (const auto& argv : calls) EXPECT_EQ(s.call(argv), Err(kWrongType)) << argv[0];
  EXPECT_EQ(s.data.dump(), before);
}

TEST(PlainCommands, wrong_arity_names_the_command_in_lower_case) {
  PlainServer s;
  EXPECT_EQ(s.call({"HGET", "h"}), Err("ERR wrong number of arguments for 'hget' command"));
  EXPECT_EQ(s.call({"type"}), Err("ERR wrong number of arguments for 'type' command"));
  EXPECT_EQ(s.call({"Del"}), Err("ERR wrong number of arguments for 'del' command"));
}

TEST(PlainCommands, names_match_case_insensitively) {
  PlainServer s;
  EXPECT_EQ(s.call({"hset", "h", "f", "v"}), Int(1));
  EXPECT_EQ(s.call({"HgEt", "h", "f"}), Bulk("v"));
}

TEST(PlainCommands, replica_refuses_writes_and_serves_reads) {
  PlainServer s;
  ASSERT_EQ(s.call({"HSET", "h", "f", "v"}), Int(1));
  s.server.set_role(Role::replica);
  const std::string before = s.data.dump();
  const std::string readonly = "READONLY You can't write against a read only replica.";
  EXPECT_EQ(s.call({"HSET", "h", "f", "w"}), Err(readonly));
  EXPECT_EQ(s.call({"DEL", "h"}), Err(readonly));
  EXPECT_EQ(s.call({"INCR", "n"}), Err(readonly));
  EXPECT_EQ(s.call({"ZADD", "z", "1", "m"}), Err(readonly));
  EXPECT_EQ(s.call({"HGET", "h", "f"}), Bulk("v"));
  EXPECT_EQ(s.data.dump(), before);
}

TEST(PlainCommands, writes_are_recorded_for_undo_one_entry_per_field) {
  PlainServer s;
  UndoLog undo;
  s.data.set_journal(&undo);
  ASSERT_EQ(s.call({"HSET", "h", "a", "1", "b", "2"}), Int(2));
  EXPECT_EQ(undo.position(), 2);
  ASSERT_EQ(s.call({"ZADD", "z", "7", "m"}), Int(1));
  ASSERT_EQ(s.call({"HGET", "h", "a"}), Bulk("1"));  // a read records nothing
  EXPECT_EQ(undo.position(), 3);
  undo.rewind(s.data, 2);
  EXPECT_EQ(s.data.dump(), "\"h\" hash \"a\"=\"1\" \"b\"=\"2\"\n");
  undo.rewind(s.data, 0);
  EXPECT_EQ(s.data.dump(), "");
}

TEST(PlainCommands, plain_commands_answer_without_the_module) {
  Keyspace data;
  SimServer server(data);
  server.start(Reply::error("ERR INFO failed"));
  const std::vector<std::string_view> argv{"HSET", "h", "f", "v"};
  EXPECT_EQ(server.call(argv), Int(1));
}

// ---- a command the server does not know (Valkey/Redis processCommand): the arguments
// are quoted while fewer than 128 bytes have been written, each cut to what is left of
// the 128, and CR/LF become spaces.

TEST(UnknownCommand, text_quotes_each_argument_with_a_trailing_space) {
  PlainServer s;
  EXPECT_EQ(s.call({"FOO", "a", "b"}),
            Err("ERR unknown command 'FOO', with args beginning with: 'a' 'b' "));
  EXPECT_EQ(s.call({"FOO"}), Err("ERR unknown command 'FOO', with args beginning with: "));
}

TEST(UnknownCommand, arguments_stop_after_128_bytes) {
  PlainServer s;
  const std::string long_arg(201, 'q');
  // the first argument is cut to 128 bytes; 131 bytes are then written, so no more follow
  EXPECT_EQ(s.call({"FOO", long_arg, "j1", "p"}),
            Err("ERR unknown command 'FOO', with args beginning with: '" +
                std::string(128, 'q') + "' "));
  // a later argument is cut to what is left of the 128 bytes
  const std::string hundred(100, 'a');
  EXPECT_EQ(s.call({"FOO", hundred, long_arg, "x"}),
            Err("ERR unknown command 'FOO', with args beginning with: '" + hundred + "' '" +
                std::string(128 - 103, 'q') + "' "));
}

TEST(UnknownCommand, name_is_cut_to_128_bytes) {
  PlainServer s;
  const std::string name(200, 'N');
  EXPECT_EQ(s.call({name}),
            Err("ERR unknown command '" + std::string(128, 'N') + "', with args beginning with: "));
}

TEST(UnknownCommand, arguments_stop_at_a_nul_as_c_strings_do) {
  PlainServer s;
  EXPECT_EQ(s.call({"FOO", "a\0b"s, "c"}),
            Err("ERR unknown command 'FOO', with args beginning with: 'a' 'c' "));
}

TEST(UnknownCommand, newlines_become_spaces) {
  PlainServer s;
  EXPECT_EQ(s.call({"FOO", "a\r\nb"}),
            Err("ERR unknown command 'FOO', with args beginning with: 'a  b' "));
}

TEST(UnknownCommand, long_arguments_are_checked_for_nul_and_newlines_in_every_word) {
  PlainServer s;
  // the control bytes sit past the first 8-byte word and in the last, partial one
  EXPECT_EQ(s.call({"FOO", "abcdefgh\rijklmnop\nq", "abcdefghijklmnopq\0rs"s, "tuvwxyzabc"}),
            Err("ERR unknown command 'FOO', with args beginning with: "
                "'abcdefgh ijklmnop q' 'abcdefghijklmnopq' 'tuvwxyzabc' "));
  // a control byte only the last (overlapping) word or half-word of an argument holds
  EXPECT_EQ(s.call({"FOO", "abcde\n", "abcdefghijkl\r", "ab\r"}),
            Err("ERR unknown command 'FOO', with args beginning with: "
                "'abcde ' 'abcdefghijkl ' 'ab ' "));
  EXPECT_EQ(s.call({"FOO\nBAR", "\x80\xff\x0e\x0dxyzw"}),
            Err("ERR unknown command 'FOO BAR', with args beginning with: '\x80\xff\x0e xyzw' "));
}

}  // namespace
}  // namespace trafikey::sim
