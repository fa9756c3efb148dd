// --baseline: what changed between two directories of histories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "reports/load.h"
#include "reports/report.h"
#include "reports/tests/fixtures.h"

namespace trafikey::reports {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(TRAFIKEY_TEST_OUT) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::vector<ReportInput> load(const fs::path& dir) {
  std::string error;
  auto inputs = load_dir_relative(dir.string(), &error);
  EXPECT_TRUE(inputs) << error;
  return inputs ? *inputs : std::vector<ReportInput>{};
}

Report diff(const fs::path& old_dir, const fs::path& new_dir) {
  std::string error;
  auto r = render_baseline_diff(load(old_dir), load(new_dir), {}, &error);
  EXPECT_TRUE(r) << error;
  return r ? *r : Report{};
}

// Replaces the first occurrence of `from` in the line holding `marker`.
std::string edit_line(const std::string& text, const std::string& marker, const std::string& from,
                      const std::string& to) {
  std::string out;
  bool done = false;
  for (std::string line : testing::lines_of(text)) {
    if (!done && line.find(marker) != std::string::npos) {
      line.replace(line.find(from), from.size(), to);
      done = true;
    }
    out += line + "\n";
  }
  EXPECT_TRUE(done) << marker;
  return out;
}

TEST(Baseline, identical_directories_report_no_differences) {
  const fs::path base = fresh_dir("baseline-same");
  for (const char* side : {"old", "new"}) {
    write(base / side / "crossed" / "history.jsonl", testing::crossed_restart_then_extended());
    write(base / side / "seed-3" / "history.jsonl", testing::generated_run(3, {sim::FaultKind::restart}));
  }
  const Report r = diff(base / "old", base / "new");
  EXPECT_NE(r.html.find("<b>NO DIFFERENCES</b>"), std::string::npos);
  EXPECT_NE(r.html.find("2 histories compared, every one identical"), std::string::npos);
  EXPECT_EQ(r.markdown, "**trafikey baseline comparison: no differences** \u2014 2 histories compared, every one identical\n");
  EXPECT_EQ(r.markdown.rfind("**trafikey baseline comparison: no differences**", 0), 0u) << r.markdown;
}

TEST(Baseline, a_changed_reply_is_named_with_both_lines) {
  const fs::path base = fresh_dir("baseline-reply");
  const std::string history = testing::crossed_restart_then_extended();
  write(base / "old" / "crossed.jsonl", history);
  // The candidate core answers the late COMPLETE of j1 with 1 instead of 0.
  const std::string changed = edit_line(history, "\"EMQ.COMPLETE\",\"q\",\"j1\"", "\"reply\":0", "\"reply\":1");
  write(base / "new" / "crossed.jsonl", changed);
  const Report r = diff(base / "old", base / "new");
  EXPECT_NE(r.html.find("<b>CHANGED</b>"), std::string::npos);
  EXPECT_NE(r.html.find("first differing reply"), std::string::npos);
  EXPECT_NE(r.html.find("&quot;EMQ.COMPLETE&quot;,&quot;q&quot;,&quot;j1&quot;,&quot;1&quot;],&quot;reply&quot;:1"),
            std::string::npos);
  EXPECT_NE(r.markdown.find("1 call line differs (first: reply)"), std::string::npos) << r.markdown;
  EXPECT_NE(r.markdown.find("`crossed.jsonl`"), std::string::npos);
  // the replies imply another final row for j1: done instead of dead
  EXPECT_NE(r.html.find("<td>j1</td><td>dead, attempts 1, failures 0, stalled 1</td><td>done, attempts 1"),
            std::string::npos);
}

TEST(Baseline, a_changed_history_shows_the_candidate_run_as_a_report_does) {
  const fs::path base = fresh_dir("baseline-run-section");
  const std::string history = testing::crossed_restart_then_extended();
  write(base / "old" / "crossed.jsonl", history);
  write(base / "new" / "crossed.jsonl", edit_line(history, "\"EMQ.COMPLETE\",\"q\",\"j1\"", "\"reply\":0", "\"reply\":1"));
  const Report r = diff(base / "old", base / "new");
  // The same run section, byte for byte, as the candidate's own report shows.
  std::string error;
  const auto candidate = load(base / "new");
  const auto own = render_report(candidate, {}, &error);
  ASSERT_TRUE(own) << error;
  const std::size_t from = own->html.find("<section class=\"run\" id=\"run-0\">");
  ASSERT_NE(from, std::string::npos);
  const std::size_t to = own->html.find("</section>\n", from);
  const std::string section = own->html.substr(from, to - from);
  EXPECT_NE(r.html.find(section), std::string::npos);
  // The candidate's side of the first differing line links into that section's history.
  EXPECT_NE(r.html.find("<th>candidate <a href=\"#r0-L"), std::string::npos);
}

TEST(Baseline, changed_verdicts_and_one_sided_files_are_listed) {
  const fs::path base = fresh_dir("baseline-verdict");
  const std::string history = testing::crossed_restart_then_extended();
  write(base / "old" / "crossed.jsonl", history);
  write(base / "old" / "gone.jsonl", history);
  write(base / "new" / "crossed.jsonl",
        edit_line(history, "\"verdict\":\"exempt\"", "\"verdict\":\"exempt\"", "\"verdict\":\"counted-recovered\""));
  write(base / "new" / "added.jsonl", history);
  const Report r = diff(base / "old", base / "new");
  EXPECT_NE(r.html.find("first differing verdict"), std::string::npos);
  EXPECT_NE(r.html.find("j2 exempt (stamp inc 1, sweep inc 2)"), std::string::npos);
  EXPECT_NE(r.html.find("j2 counted-recovered (stamp inc 1, sweep inc 2)"), std::string::npos);
  EXPECT_NE(r.markdown.find("| `gone.jsonl` | only in the baseline |"), std::string::npos) << r.markdown;
  EXPECT_NE(r.markdown.find("| `added.jsonl` | only in the candidate |"), std::string::npos) << r.markdown;
}

TEST(Baseline, the_same_input_gives_the_same_bytes) {
  const fs::path base = fresh_dir("baseline-determinism");
  write(base / "old" / "a.jsonl", testing::generated_run(5, {sim::FaultKind::restart}));
  write(base / "new" / "a.jsonl", testing::generated_run(6, {sim::FaultKind::restart}));
  const Report a = diff(base / "old", base / "new");
  const Report b = diff(base / "old", base / "new");
  EXPECT_EQ(a.html, b.html);
  EXPECT_EQ(a.markdown, b.markdown);
}

}  // namespace
}  // namespace trafikey::reports
