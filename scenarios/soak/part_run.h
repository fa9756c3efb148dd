// PartRun: the bookkeeping every soak part shares: its budget (calls and seconds), its
// counts, a throttled progress line, the last calls it made (the facts of a failure) and
// the first failure. A part asks spent() before each step and stops at the first fail().
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/reply.h"
#include "scenarios/soak/soak.h"

namespace trafikey::soak {

class PartRun {
 public:
  PartRun(Part part, const SoakOptions& options);

  // The budget is used up (or a check broke).
  bool spent() const;
  std::int64_t calls() const { return calls_; }

  // Records one call and its reply among the last few (for the failure's facts), counts
  // it toward the budget, and now and then reports progress.
  void record(const std::vector<std::string>& argv, const Reply& reply, std::string_view where = "");
  // Records a note (a kill, a restart, a sync) among the last calls.
  void note(std::string text);

  void add(const std::string& count, std::int64_t by = 1) { result_.add(count, by); }

  // The first broken check: what broke and its facts; the last calls are appended.
  void fail(const std::string& what);
  bool broke() const { return result_.broke; }

  PartResult finish();

 private:
  void maybe_progress();

  const SoakOptions& options_;
  PartResult result_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_progress_;
  std::int64_t calls_ = 0;
  std::deque<std::string> recent_;
};

// A call as one line of scenario notation (binary-safe), e.g. EMQ.ADD q "a\x00b" x.
std::string render_call(const std::vector<std::string>& argv);
// A reply as debug_string (core/reply.h) writes it, with every string's bytes escaped.
std::string render_reply(const Reply& reply);

}  // namespace trafikey::soak
