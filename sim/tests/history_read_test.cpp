// The one history reader: what the writer writes comes back typed, bytes as they were;
// anything else is refused naming its line.
#include <gtest/gtest.h>

#include <string>

#include "sim/history.h"
#include "sim/history_read.h"
#include "sim/plan.h"
#include "sim/run.h"
#include "sim/world.h"

namespace trafikey::sim {
namespace {

TEST(HistoryRead, every_kind_of_line_the_writer_writes_reads_back_typed) {
  History h(true);
  h.header("scenario", R"({"title":"t"})");
  const Instant at{5, 7, 2};
  const std::string argv0 = "EMQ.ADD", queue = "q\xff", id = "j\xc3\xa9";
  const std::string_view argv[] = {argv0, queue, id};
  h.call(at, "a\x80", argv, Reply::array({Reply::integer(1), Reply::bulk("x\xfe"), Reply::nil(),
                                          Reply::simple("OK"), Reply::error("ERR e")}),
         true, 3);
  h.fault(at, "restart", R"("run_id":"r1","kept_calls":4)");
  h.verdict(at, "s", id, "counted-dead", 2);
  h.phase(at, "liveness");
  h.end(at, "drained", R"("done":1)");
  std::string error;
  const auto read = read_history(h.text(), &error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->kind, "scenario");
  EXPECT_EQ(read->header["title"], "t");
  ASSERT_EQ(read->lines.size(), 6u);
  ASSERT_EQ(read->events.size(), 5u);
  const HistoryLine& call = read->events[0];
  EXPECT_EQ(call.number, 2);
  EXPECT_EQ(call.kind, HistoryLine::Kind::call);
  EXPECT_EQ(call.at.true_ms, 5);
  EXPECT_EQ(call.at.server_ms, 7);
  EXPECT_EQ(call.at.incarnation, 2);
  EXPECT_EQ(call.actor, "a\x80");
  EXPECT_EQ(call.argv, (std::vector<std::string>{argv0, queue, id}));
  EXPECT_EQ(call.reply, Reply::array({Reply::integer(1), Reply::bulk("x\xfe"), Reply::nil(), Reply::simple("OK"),
                                      Reply::error("ERR e")}));
  EXPECT_TRUE(call.lost);
  EXPECT_EQ(call.writes, 3);
  const HistoryLine& fault = read->events[1];
  EXPECT_EQ(fault.kind, HistoryLine::Kind::fault);
  EXPECT_EQ(fault.name, "restart");
  EXPECT_EQ(fault.text("run_id"), "r1");
  EXPECT_EQ(fault.integer("kept_calls"), 4);
  EXPECT_EQ(fault.integer("run_id"), std::nullopt);
  EXPECT_TRUE(fault.flag("module", true)) << "absent: the default";
  const HistoryLine& verdict = read->events[2];
  EXPECT_EQ(verdict.kind, HistoryLine::Kind::verdict);
  EXPECT_EQ(verdict.name, "counted-dead");
  EXPECT_EQ(verdict.job, id);
  EXPECT_EQ(verdict.stamp_inc, 2);
  EXPECT_EQ(read->events[3].name, "liveness");
  EXPECT_EQ(read->events[4].kind, HistoryLine::Kind::end);
  EXPECT_EQ(read->events[4].fields["done"], 1);
}

TEST(HistoryRead, a_bad_line_is_refused_naming_its_number_and_field) {
  const std::string header = "{\"trafikey\":\"history\",\"version\":1,\"kind\":\"scenario\"}\n";
  const std::string at = "\"t\":0,\"st\":0,\"inc\":1,\"actor\":\"a\"";
  const auto error_of = [&](const std::string& body) {
    std::string error;
    EXPECT_FALSE(read_history(header + body, &error)) << body;
    return error;
  };
  EXPECT_EQ(error_of("{" + at + ",\"phase\":\"x\"}\nnot json\n"), "line 3: not valid JSON");
  EXPECT_EQ(error_of("[1]\n"), "line 2: expected a JSON object");
  EXPECT_EQ(error_of("{\"t\":\"0\",\"st\":0,\"inc\":1,\"actor\":\"a\",\"phase\":\"x\"}\n"),
            "line 2: field \"t\" (true time) must be an integer");
  EXPECT_EQ(error_of("{" + at + "}\n"), "line 2: expected exactly one of call, fault, verdict, phase, end");
  EXPECT_EQ(error_of("{" + at + ",\"call\":[],\"reply\":1}\n"), "line 2: field \"call\" must be a non-empty array of strings");
  EXPECT_EQ(error_of("{" + at + ",\"call\":[\"PING\"],\"reply\":{\"x\":1}}\n").rfind("line 2: field \"reply\" is not a reply", 0), 0u);
  EXPECT_EQ(error_of("{" + at + ",\"fault\":\"clock_rate\"}\n"), "line 2: clock_rate needs integer \"rate_per_mille\"");
  EXPECT_EQ(error_of("{" + at + ",\"verdict\":\"stalled\",\"job\":\"j\",\"stamp_inc\":1}\n").rfind("line 2: unknown verdict \"stalled\"", 0), 0u);
  std::string error;
  EXPECT_FALSE(read_history("", &error));
  EXPECT_EQ(error, "line 1: empty file: expected a history header line");
  EXPECT_FALSE(read_history("{\"trafikey\":\"other\"}\n", &error));
  EXPECT_EQ(error, "line 1: not a trafikey history (expected a header line {\"trafikey\":\"history\",...})");
}

// What the writer keeps as values (History::events) is what the reader reads back from
// its text: an export from either gives the same file.
void expect_same_lines(const std::vector<HistoryLine>& kept, const std::vector<HistoryLine>& read) {
  ASSERT_EQ(kept.size(), read.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const HistoryLine& a = kept[i];
    const HistoryLine& b = read[i];
    SCOPED_TRACE("line " + std::to_string(b.number));
    EXPECT_EQ(a.number, b.number);
    EXPECT_EQ(a.at.true_ms, b.at.true_ms);
    EXPECT_EQ(a.at.server_ms, b.at.server_ms);
    EXPECT_EQ(a.at.incarnation, b.at.incarnation);
    EXPECT_EQ(a.actor, b.actor);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.argv, b.argv);
    EXPECT_EQ(a.reply, b.reply);
    EXPECT_EQ(a.lost, b.lost);
    EXPECT_EQ(a.writes, b.writes);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.job, b.job);
    EXPECT_EQ(a.stamp_inc, b.stamp_inc);
    EXPECT_EQ(a.fields, b.fields);
  }
}

TEST(HistoryRead, the_lines_the_writer_keeps_are_the_lines_the_reader_reads) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    PlanChoices choices;
    choices.seed = seed;
    for (std::size_t k = 0; k < fault_kind_names().size(); ++k) choices.fault_kinds.push_back(static_cast<FaultKind>(k));
    const RunSummary run = run_plan(draw_plan(choices));
    std::string error;
    const auto read = read_history(run.history, &error);
    ASSERT_TRUE(read) << error;
    EXPECT_EQ(run.history_header, read->header);
    expect_same_lines(run.history_events, read->events);
    ASSERT_GT(run.history_events.size(), 10u);
  }
}

TEST(HistoryRead, lines_split_at_newlines_and_a_last_line_without_one_counts) {
  EXPECT_EQ(history_lines(""), std::vector<std::string_view>{});
  EXPECT_EQ(history_lines("a\nb\n"), (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(history_lines("a\n\nb"), (std::vector<std::string_view>{"a", "", "b"}));
}

TEST(HistoryRead, history_text_is_the_inverse_of_history_bytes) {
  std::string every;
  for (int c = 0; c < 256; ++c) every += static_cast<char>(c);
  EXPECT_EQ(history_bytes(history_text(every)), every);
  EXPECT_EQ(history_text("j\xe9"), "j\xc3\xa9");
}

}  // namespace
}  // namespace trafikey::sim
