// The report as a person sees it: Debian's headless Chromium loads the page from disk,
// the DOM must hold the timeline with one bar per lease grant, and a screenshot must show
// it drawn (not a blank page); a campaign's dashboard must hold its charts, labelled, and
// show them drawn. Without Chromium they fail, unless TRAFIKEY_ALLOW_MISSING_TOOLS lists
// chromium (fixtures.h).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#ifdef TRAFIKEY_HAVE_ZLIB
#include <zlib.h>
#endif

#include "reports/html.h"
#include "reports/report.h"
#include "reports/tests/fixtures.h"

namespace trafikey::reports {
namespace {

namespace fs = std::filesystem;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path candidate = fs::path(dir) / name;
      if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return {};
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs Chromium headless on `page` with one more flag (--dump-dom or --screenshot=...),
// with a fresh profile directory, in a window 1400 wide and `height` tall (a screenshot's
// size); stdout goes to `out`. Returns the exit status.
int chromium(const std::string& binary, const fs::path& page, const std::string& flag, const fs::path& out,
             int height = 2000) {
  std::string profile = (fs::path(TRAFIKEY_TEST_OUT) / "chromium-profile-XXXXXX").string();
  fs::create_directories(TRAFIKEY_TEST_OUT);
  if (!::mkdtemp(profile.data())) return -1;
  const std::string cmd = "timeout 180 '" + binary +
                          "' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                          "--disable-background-networking --disable-component-update --disable-sync "
                          "--user-data-dir='" + profile + "' --window-size=1400," + std::to_string(height) + " " + flag + " 'file://" +
                          fs::absolute(page).string() + "' >'" + out.string() + "' 2>'" + out.string() + ".log'";
  const int raw = std::system(cmd.c_str());
  std::error_code ec;
  fs::remove_all(profile, ec);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

#ifdef TRAFIKEY_HAVE_ZLIB
// The pixels of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes).
struct Pixels {
  std::uint32_t width = 0, height = 0;
  std::size_t channels = 0;
  std::vector<std::uint8_t> data;  // rows of width * channels bytes
};

std::optional<Pixels> decode_png(const std::string& png) {
  auto be32 = [&](std::size_t at) {
    return (std::uint32_t(std::uint8_t(png[at])) << 24) | (std::uint32_t(std::uint8_t(png[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(png[at + 2])) << 8) | std::uint32_t(std::uint8_t(png[at + 3]));
  };
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return std::nullopt;
  Pixels p;
  std::string idat;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t len = be32(at);
    const std::string type = png.substr(at + 4, 4);
    if (at + 12 + len > png.size()) return std::nullopt;
    if (type == "IHDR") {
      p.width = be32(at + 8);
      p.height = be32(at + 12);
      const int depth = png[at + 16], colour = png[at + 17], interlace = png[at + 20];
      if (depth != 8 || interlace != 0 || (colour != 2 && colour != 6)) return std::nullopt;
      p.channels = colour == 2 ? 3 : 4;
    } else if (type == "IDAT") {
      idat.append(png, at + 8, len);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  const std::size_t stride = p.width * p.channels;
  std::vector<std::uint8_t> raw(p.height * (stride + 1));
  uLongf raw_len = raw.size();
  if (p.channels == 0 || uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK ||
      raw_len != raw.size()) {
    return std::nullopt;
  }
  p.data.assign(p.height * stride, 0);
  for (std::size_t y = 0; y < p.height; ++y) {
    const std::uint8_t filter = raw[y * (stride + 1)];
    const std::uint8_t* in = &raw[y * (stride + 1) + 1];
    std::uint8_t* row = &p.data[y * stride];
    const std::uint8_t* up = y ? &p.data[(y - 1) * stride] : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      const int a = i >= p.channels ? row[i - p.channels] : 0;
      const int b = up ? up[i] : 0;
      const int c = up && i >= p.channels ? up[i - p.channels] : 0;
      int v = in[i];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) / 2; break;
        case 4: {
          const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
          v += (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default: return std::nullopt;
      }
      row[i] = static_cast<std::uint8_t>(v);
    }
  }
  return p;
}

// How many pixels are within 6 of the colour "#rrggbb" on each channel.
std::size_t pixels_of(const Pixels& p, std::string_view hex) {
  const int r = std::stoi(std::string(hex.substr(1, 2)), nullptr, 16);
  const int g = std::stoi(std::string(hex.substr(3, 2)), nullptr, 16);
  const int b = std::stoi(std::string(hex.substr(5, 2)), nullptr, 16);
  std::size_t n = 0;
  for (std::size_t i = 0; i + 2 < p.data.size(); i += p.channels) {
    n += std::abs(p.data[i] - r) <= 6 && std::abs(p.data[i + 1] - g) <= 6 && std::abs(p.data[i + 2] - b) <= 6;
  }
  return n;
}
#endif

// Renders `history` to DIR/report.html, loads it in Chromium twice (DOM, screenshot) and
// checks what a person would: the timeline is there with one bar per lease grant and a
// restart marker, and the screenshot is a drawn page in the incarnations' colours.
void check_in_browser(const std::string& name, const std::string& history) {
  const std::string binary = find_chromium();
  TRAFIKEY_REQUIRE_TOOL(!binary.empty(), "chromium", "Debian: apt-get install chromium");
  const fs::path dir = fs::path(TRAFIKEY_TEST_OUT) / ("browser-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "history.jsonl", std::ios::binary) << history;  // to rerun the report by hand
  const fs::path page = dir / "report.html";
  ASSERT_EQ(write_report({testing::input(name, history)}, page.string(), (dir / "report.md").string()), "");

  const fs::path dom = dir / "dom.html";
  ASSERT_EQ(chromium(binary, page, "--dump-dom", dom), 0) << slurp(dom.string() + ".log");
  const std::string loaded = slurp(dom);
  ASSERT_NE(loaded.find("<svg class=\"timeline\""), std::string::npos) << "the page did not load: " << loaded.substr(0, 400);
  EXPECT_EQ(testing::occurrences(loaded, "<rect class=\"lease"), testing::claim_grants(history))
      << "one bar per lease grant, in the DOM Chromium built";
  EXPECT_GE(testing::occurrences(loaded, "<g class=\"marker marker-restart\">"), 1u);
  EXPECT_EQ(testing::occurrences(loaded, "<g class=\"verdict verdict-"), testing::occurrences(history, "\"verdict\":"))
      << "one mark per sweep verdict";

  const fs::path png = dir / "screenshot.png";
  ASSERT_EQ(chromium(binary, page, "--screenshot=" + png.string(), dir / "screenshot.out"), 0)
      << slurp((dir / "screenshot.out").string() + ".log");
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 30000u) << "a blank 1400x2000 page compresses far below this";
#ifdef TRAFIKEY_HAVE_ZLIB
  const auto pixels = decode_png(slurp(png));
  ASSERT_TRUE(pixels) << "not an 8-bit RGB(A) PNG";
  EXPECT_EQ(pixels->width, 1400u);
  EXPECT_EQ(pixels->height, 2000u);
  std::size_t non_white = 0;
  for (std::size_t i = 0; i + 2 < pixels->data.size(); i += pixels->channels) {
    non_white += pixels->data[i] < 240 || pixels->data[i + 1] < 240 || pixels->data[i + 2] < 240;
  }
  EXPECT_GT(non_white, pixels->data.size() / pixels->channels / 50) << "more than 2% of the page is drawn";
  EXPECT_GT(pixels_of(*pixels, incarnation_colour(1)), 500u) << "leases of incarnation 1 are drawn";
  EXPECT_GT(pixels_of(*pixels, incarnation_colour(2)), 200u) << "incarnation 2 (after the restart) is drawn";
#else
  std::cout << "zlib not found at build time: the screenshot's pixels are not read, only its size\n";
#endif
}

// A real campaign's --report page (trafikey-sim campaign, 300 runs) in Chromium: the DOM it
// built holds the coverage charts (fault kinds, sweep verdicts, state edges, situations)
// with a labelled bar per target, both histograms holding every run, the collapsed runs
// table; the screenshot shows the coverage bars and the histogram bars drawn.
TEST(Browser, a_campaign_dashboard_shows_its_charts) {
  const std::string binary = find_chromium();
  TRAFIKEY_REQUIRE_TOOL(!binary.empty(), "chromium", "Debian: apt-get install chromium");
  const fs::path dir = fs::path(TRAFIKEY_TEST_OUT) / "browser-campaign";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path page = dir / "report.html";
  const std::string cmd = std::string("'") + TRAFIKEY_SIM_BIN + "' campaign --runs 300 --seed 4 --parallel 2 --out '" +
                          dir.string() + "' --report '" + page.string() + "' >'" + (dir / "campaign.log").string() +
                          "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(dir / "campaign.log");

  const fs::path dom = dir / "dom.html";
  ASSERT_EQ(chromium(binary, page, "--dump-dom", dom), 0) << slurp(dom.string() + ".log");
  const std::string loaded = slurp(dom);
  ASSERT_NE(loaded.find("<h2>Campaign: seed 4, 300 runs</h2>"), std::string::npos) << loaded.substr(0, 400);
  for (const char* chart : {"fault kinds", "sweep verdicts", "state edges", "situations"}) {
    EXPECT_NE(loaded.find("<figcaption>" + std::string(chart) + "</figcaption>\n<svg class=\"chart coverage-chart\""),
              std::string::npos)
        << chart;
  }
  for (const char* target : {"restart", "lane_mark", "counted-dead", "active->dead", "sweep-cut-by-limit"}) {
    EXPECT_NE(loaded.find(">" + esc(target) + "</text>"), std::string::npos) << "a labelled bar for " << target;
  }
  EXPECT_GT(testing::occurrences(loaded, "<rect class=\"cover-bar\""), 25u) << "the targets the runs reached";
  EXPECT_EQ(testing::occurrences(loaded, "<svg class=\"chart hist\""), 2u);
  const std::regex bar("<rect class=\"bar\"[^>]*><title>[0-9]+(–[0-9]+)? (calls|simulated ms): ([0-9]+) run");
  std::map<std::string, long> runs_in_bars;
  for (auto it = std::sregex_iterator(loaded.begin(), loaded.end(), bar); it != std::sregex_iterator(); ++it) {
    runs_in_bars[(*it)[2]] += std::stol((*it)[3]);
  }
  EXPECT_EQ(runs_in_bars["calls"], 300);
  EXPECT_EQ(runs_in_bars["simulated ms"], 300);
  EXPECT_NE(loaded.find("calls per run (bucket start, log scale)"), std::string::npos);
  EXPECT_NE(loaded.find("<details class=\"runs-table\" id=\"runs\"><summary>"), std::string::npos);
  EXPECT_NE(loaded.find("No run failed"), std::string::npos);

  const fs::path png = dir / "screenshot.png";
  // tall enough for the coverage charts (one bar per target, some sixty situations) and
  // the histograms below them
  ASSERT_EQ(chromium(binary, page, "--screenshot=" + png.string(), dir / "screenshot.out", 3200), 0)
      << slurp((dir / "screenshot.out").string() + ".log");
  ASSERT_TRUE(fs::exists(png));
#ifdef TRAFIKEY_HAVE_ZLIB
  const auto pixels = decode_png(slurp(png));
  ASSERT_TRUE(pixels) << "not an 8-bit RGB(A) PNG";
  EXPECT_GT(pixels_of(*pixels, "#59a14f"), 3000u) << "the coverage bars are drawn (reports/page.cpp's .cover-bar)";
  EXPECT_GT(pixels_of(*pixels, "#4e79a7"), 3000u) << "the histogram bars are drawn (svg.hist .bar)";
#else
  EXPECT_GT(fs::file_size(png), 30000u) << "a blank 1400x3200 page compresses far below this";
#endif
}

TEST(Browser, a_report_of_a_scenario_with_a_restart_shows_its_timeline) {
  check_in_browser("crossed-restart", testing::crossed_restart_then_extended());
}

TEST(Browser, a_report_of_a_generated_run_with_a_restart_draws_one_bar_per_lease) {
  check_in_browser("generated-restart", testing::generated_run_with_restart());
}

}  // namespace
}  // namespace trafikey::reports
