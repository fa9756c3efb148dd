// trafikey-sim report as a user runs it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/tests/fixtures.h"

namespace trafikey::reports {
namespace {

namespace fs = std::filesystem;

struct Ran {
  int status = -1;
  std::string out;  // stdout and stderr
};

Ran run(const std::string& args, const fs::path& dir) {
  const fs::path log = dir / "command.log";
  const std::string cmd = std::string("'") + TRAFIKEY_SIM_BIN + "' " + args + " >'" + log.string() + "' 2>&1";
  const int raw = std::system(cmd.c_str());
  Ran r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  r.out = s.str();
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(TRAFIKEY_TEST_OUT) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(Cli, report_writes_the_html_and_the_markdown) {
  const fs::path dir = fresh_dir("cli-report");
  std::ofstream(dir / "history.jsonl", std::ios::binary) << testing::crossed_restart_then_extended();
  const Ran r = run("report '" + (dir / "history.jsonl").string() + "' -o '" + (dir / "r.html").string() +
                        "' --md '" + (dir / "r.md").string() + "'",
                    dir);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(slurp(dir / "r.html").find("<svg class=\"timeline\""), std::string::npos);
  EXPECT_NE(slurp(dir / "r.md").find("Full report: `" + (dir / "r.html").string() + "`"), std::string::npos);
}

TEST(Cli, a_directory_contributes_every_history_beneath_it_in_natural_order) {
  const fs::path dir = fresh_dir("cli-dir");
  for (const char* run_dir : {"runs/seed-10", "runs/seed-2"}) {
    fs::create_directories(dir / run_dir);
    std::ofstream(dir / run_dir / "history.jsonl", std::ios::binary) << testing::crossed_restart_then_extended();
  }
  const Ran r = run("report '" + (dir / "runs").string() + "' -o '" + (dir / "c.html").string() + "'", dir);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("(2 histories)"), std::string::npos) << r.out;
  const std::string html = slurp(dir / "c.html");
  EXPECT_NE(html.find("<h2>Campaign: 2 histories</h2>"), std::string::npos);
  EXPECT_LT(html.find("seed-2/history.jsonl"), html.find("seed-10/history.jsonl")) << "seed-2 before seed-10";
}

TEST(Cli, bad_input_is_refused_with_its_file_and_line) {
  const fs::path dir = fresh_dir("cli-bad");
  const std::string good = testing::crossed_restart_then_extended();
  std::ofstream(dir / "bad.jsonl", std::ios::binary) << testing::lines_of(good)[0] << "\n" << testing::lines_of(good)[1]
                                                     << "\n{\"t\":1,\n";
  const Ran r = run("report '" + (dir / "bad.jsonl").string() + "' -o '" + (dir / "r.html").string() + "'", dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find((dir / "bad.jsonl").string() + ":3: not valid JSON"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "r.html"));
  const Ran missing = run("report '" + (dir / "nope.jsonl").string() + "' -o '" + (dir / "r.html").string() + "'", dir);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("nope.jsonl: cannot read"), std::string::npos) << missing.out;
}

TEST(Cli, baseline_compares_two_directories) {
  const fs::path dir = fresh_dir("cli-baseline");
  for (const char* side : {"old", "new"}) {
    fs::create_directories(dir / side);
    std::ofstream(dir / side / "history.jsonl", std::ios::binary) << testing::crossed_restart_then_extended();
  }
  const Ran r = run("report --baseline '" + (dir / "old").string() + "' '" + (dir / "new").string() + "' -o '" +
                        (dir / "diff.html").string() + "' --md '" + (dir / "diff.md").string() + "'",
                    dir);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(slurp(dir / "diff.md").rfind("**trafikey baseline comparison: no differences**", 0), 0u);
}

TEST(Cli, help_describes_report) {
  const fs::path dir = fresh_dir("cli-help");
  const Ran r = run("report --help", dir);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--baseline"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--md"), std::string::npos);
}

TEST(Cli, run_writes_a_report_with_its_history) {
  const fs::path dir = fresh_dir("cli-run");
  const Ran r = run("run --seed 3 --faults restart --out '" + (dir / "run").string() + "' --report '" +
                        (dir / "run.html").string() + "'",
                    dir);
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string html = slurp(dir / "run.html");
  EXPECT_NE(html.find("trafikey-sim replay " + (dir / "run" / "history.jsonl").string()), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"timeline\""), std::string::npos);
}

}  // namespace
}  // namespace trafikey::reports
