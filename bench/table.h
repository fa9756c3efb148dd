// The one table printer of the benchmark programs: a title, a header row, rows of cells
// (the first column left-aligned, figures right-aligned) and notes under the table.
#pragma once

#include <string>
#include <vector>

namespace trafikey::bench {

// A fixed-width text table: a title, a header row, rows; right-aligned numbers.
class Table {
 public:
  Table(std::string title, std::vector<std::string> header);
  void row(std::vector<std::string> cells);
  void note(std::string line);  // printed under the table
  void print() const;

 private:
  std::string title_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::string> notes_;
};

std::string fixed(double value, int decimals);
std::string grouped(double value);  // 1234567 -> "1,234,567"

}  // namespace trafikey::bench
