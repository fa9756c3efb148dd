#include "reports/load.h"
#include "core/text.h"
#include "sim/history_read.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace trafikey::reports {

namespace fs = std::filesystem;

namespace {

bool read_file(const fs::path& path, std::string& text) {
  auto bytes = trafikey::read_file(path.string());
  if (!bytes) return false;
  text = std::move(*bytes);
  return true;
}

// A generated run's history, by its header alone (the renderer reads the rest).
bool is_plan_history(const std::string& text) {
  const auto header = sim::read_history_header(text, nullptr);
  return header && header->value("kind", "") == "plan";
}

ReportInput input(const std::string& name, const std::string& file, std::string text) {
  ReportInput in;
  in.name = name;
  in.history_text = std::move(text);
  in.source = file;
  if (is_plan_history(in.history_text)) in.replay_command = "trafikey-sim replay " + file;
  return in;
}

// Path order with digit runs compared as numbers: seed-2 before seed-10.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && digit(a[ie])) ++ie;
      while (je < b.size() && digit(b[je])) ++je;
      std::string_view x(a.data() + i, ie - i), y(b.data() + j, je - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
  return a < b;  // equal up to leading zeros: fall back to bytes, so the order is total
}

// The .jsonl files under dir, in natural path order.
std::optional<std::vector<fs::path>> histories_under(const fs::path& dir, std::string* error) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".jsonl") {
      found.push_back(fs::relative(it->path(), dir, ec));
    }
  }
  if (ec) {
    if (error) *error = dir.string() + ": cannot list the directory (" + ec.message() + ")";
    return std::nullopt;
  }
  if (found.empty()) {
    if (error) *error = dir.string() + ": no history (*.jsonl) files in this directory";
    return std::nullopt;
  }
  std::sort(found.begin(), found.end(),
            [](const fs::path& a, const fs::path& b) { return natural_less(a.generic_string(), b.generic_string()); });
  return found;
}

}  // namespace

std::optional<std::vector<ReportInput>> load_inputs(const std::vector<std::string>& paths,
                                                    std::string* error) {
  std::vector<ReportInput> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      auto files = histories_under(p, error);
      if (!files) return std::nullopt;
      for (const fs::path& rel : *files) {
        const std::string full = (fs::path(p) / rel).string();
        std::string text;
        if (!read_file(full, text)) {
          if (error) *error = full + ": cannot read the file";
          return std::nullopt;
        }
        out.push_back(input(full, full, std::move(text)));
      }
      continue;
    }
    std::string text;
    if (!fs::is_regular_file(p, ec) || !read_file(p, text)) {
      if (error) *error = p + ": cannot read the file (not a readable history file or directory)";
      return std::nullopt;
    }
    out.push_back(input(p, p, std::move(text)));
  }
  return out;
}

std::optional<std::vector<ReportInput>> load_dir_relative(const std::string& dir,
                                                          std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (error) *error = dir + ": not a directory";
    return std::nullopt;
  }
  auto files = histories_under(dir, error);
  if (!files) return std::nullopt;
  std::vector<ReportInput> out;
  for (const fs::path& rel : *files) {
    const std::string full = (fs::path(dir) / rel).string();
    std::string text;
    if (!read_file(full, text)) {
      if (error) *error = full + ": cannot read the file";
      return std::nullopt;
    }
    ReportInput in = input(rel.generic_string(), full, std::move(text));
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace trafikey::reports
