// The names of a failure's files: NAME plus one suffix each, under one directory
// (failure_files.h says what each holds). NAME is the campaign's "failure", a failing
// property's family, shrink's STEM.min, or the minimizer's "minimal". The one table of
// their spellings: whatever writes, copies or reads these files names them from here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace trafikey::properties {

enum class FailureFile : std::uint8_t {
  history,            // NAME.history.jsonl: the minimal scenario's replay, or the run's
  scenario,           // NAME.scn: the minimal scenario
  original_history,   // NAME.original.history.jsonl: the failing plan's run
  original_scenario,  // NAME.original.scn: that run as a scenario
  plan,               // NAME.plan.json
  reproduce,          // NAME.reproduce.txt: RapidCheck's reproduce= string
  crash,              // NAME.crash.txt: a crash or hang, what happened (the last enumerator)
};

constexpr std::string_view failure_file_suffix(FailureFile file) {
  switch (file) {
    case FailureFile::history: return ".history.jsonl";
    case FailureFile::scenario: return ".scn";
    case FailureFile::original_history: return ".original.history.jsonl";
    case FailureFile::original_scenario: return ".original.scn";
    case FailureFile::plan: return ".plan.json";
    case FailureFile::reproduce: return ".reproduce.txt";
    case FailureFile::crash: return ".crash.txt";
  }
  return {};
}

// Every file, in the order a reader prefers them (merge copies in this order; the replay
// command names the scenario, else the first file present).
inline constexpr std::array all_failure_files{FailureFile::history,           FailureFile::scenario,
                                              FailureFile::original_history,  FailureFile::original_scenario,
                                              FailureFile::plan,              FailureFile::reproduce,
                                              FailureFile::crash};
static_assert(all_failure_files.size() == static_cast<std::size_t>(FailureFile::crash) + 1,
              "every FailureFile once (crash is the last enumerator)");
static_assert([] {
  for (std::size_t i = 0; i < all_failure_files.size(); ++i) {
    if (static_cast<std::size_t>(all_failure_files[i]) != i || failure_file_suffix(all_failure_files[i]).empty()) {
      return false;
    }
  }
  return true;
}(), "all_failure_files lists the enumerators in order, each with its suffix");

inline constexpr std::string_view campaign_failure_name = "failure";  // a campaign's NAME
inline constexpr std::string_view minimal_failure_name = "minimal";   // the minimizer's default NAME

// NAME + the file's suffix: "failure.history.jsonl".
inline std::string failure_file_name(std::string_view name, FailureFile file) {
  return std::string(name) + std::string(failure_file_suffix(file));
}

}  // namespace trafikey::properties
