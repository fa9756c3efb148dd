#include "bench/table.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace trafikey::bench {

Table::Table(std::string title, std::vector<std::string> header) : title_(std::move(title)) {
  rows_.push_back(std::move(header));
}

void Table::row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

void Table::note(std::string line) { notes_.push_back(std::move(line)); }

void Table::print() const {
  std::vector<std::size_t> width;
  for (const auto& r : rows_) {
    if (width.size() < r.size()) width.resize(r.size(), 0);
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::ostringstream out;
  out << "\n== " << title_ << "\n";
  for (std::size_t ri = 0; ri < rows_.size(); ++ri) {
    const auto& r = rows_[ri];
    for (std::size_t i = 0; i < r.size(); ++i) {
      const std::size_t pad = width[i] - r[i].size();
      // the first column (the label) left-aligned, figures right-aligned
      if (i == 0) {
        out << r[i] << std::string(pad, ' ');
      } else {
        out << "  " << std::string(pad, ' ') << r[i];
      }
    }
    out << "\n";
    if (ri == 0) {
      std::size_t total = 0;
      for (auto w : width) total += w + 2;
      out << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
    }
  }
  for (const auto& n : notes_) out << "  " << n << "\n";
  std::cout << out.str() << std::flush;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string grouped(double value) {
  const auto n = static_cast<long long>(value + 0.5);
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace trafikey::bench
