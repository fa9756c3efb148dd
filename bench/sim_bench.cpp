// trafikey-bench-sim: how fast the simulated world runs (issue 3, last "Done when"):
// simulated calls per CPU-second and histories per CPU-second for runs of ~1,000 calls,
// single thread. The bar: >= 1,000,000 simulated calls per CPU-second.
//
// Plans come from sim::draw_plan (as `trafikey-sim run` draws them), one seed per history,
// with the job count calibrated at start so that a history averages ~1,000 calls. CPU
// time is the process's (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)); the history is hashed
// but its text is not kept (what a campaign does) unless the row says so.
#include <cctype>
#include <dlfcn.h>
#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/table.h"
#include "properties/checked_run.h"
#include "sim/plan.h"
#include "sim/run.h"

namespace trafikey::sim {
namespace {

constexpr int workers = 3;
constexpr double target_calls = 1000;

// The allocator this process runs on: trafikey-sim and this program link tcmalloc_minimal
// unless configured with -DTRAFIKEY_TCMALLOC=OFF (or sanitized); an LD_PRELOAD shows too.
std::string allocator_name() {
  using Version = const char* (*)(int*, int*, const char**);
  if (auto version = reinterpret_cast<Version>(::dlsym(RTLD_DEFAULT, "tc_version"))) {
    return std::string("tcmalloc ") + version(nullptr, nullptr, nullptr);
  }
  return "the C library's malloc";
}

double cpu_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Workload {
  std::string name;
  std::vector<FaultKind> faults;
  Persistence persistence = Persistence::always;
  bool keep_text = false;
  bool checked = false;  // the invariant checker on every step
  bool model = true;     // ... with verb.model's model predicting every call
  bool direct = false;   // ... every invariant judged directly (Checker::set_direct, the audit)
};

// A checked run of `plan` as workload `w` checks it.
trafikey::properties::CheckedRun run_checked(const Workload& w, const RunPlan& plan, bool keep_text) {
  trafikey::properties::Checker checker(w.model);
  checker.set_direct(w.direct);
  auto run = trafikey::properties::run_checked(plan, keep_text, checker);
  if (!run.violations.empty()) {
    std::cerr << "trafikey-bench-sim: a checked history broke " << run.violations.front().describe_line() << "\n";
    std::exit(1);
  }
  return run;
}

RunPlan plan_for(const Workload& w, std::uint64_t seed, int jobs) {
  PlanChoices choices;
  choices.seed = seed;
  choices.jobs = jobs;
  choices.workers = workers;
  choices.persistence = w.persistence;
  choices.fault_kinds = w.faults;
  return draw_plan(choices);
}

// Mean calls per history over a few seeds at `jobs` jobs.
double mean_calls(const Workload& w, int jobs) {
  RunOptions options;
  options.keep_history_text = false;
  std::int64_t calls = 0;
  constexpr int seeds = 16;
  for (int s = 0; s < seeds; ++s) {
    calls += run_plan(plan_for(w, 1000003 + static_cast<std::uint64_t>(s), jobs), options).calls;
  }
  return static_cast<double>(calls) / seeds;
}

// The job count whose histories average ~target_calls calls.
int calibrate(const Workload& w) {
  int jobs = 100;
  for (int step = 0; step < 4; ++step) {
    const double calls = mean_calls(w, jobs);
    if (calls <= 0) break;
    const int next = std::max(1, static_cast<int>(jobs * target_calls / calls + 0.5));
    if (next == jobs) break;
    jobs = next;
  }
  return jobs;
}

struct Figures {
  int jobs = 0;
  std::int64_t histories = 0, calls = 0;
  double cpu = 0;
};

// Histories with seeds 1, 2, ... until `min_cpu_s` of CPU time, or exactly `count` of them.
Figures measure(const Workload& w, int jobs, double min_cpu_s, std::int64_t count) {
  RunOptions options;
  options.keep_history_text = w.keep_text;
  Figures f;
  f.jobs = jobs;
  const double start = cpu_s();
  std::uint64_t seed = 1;
  while (count > 0 ? f.histories < count : cpu_s() - start < min_cpu_s) {
    RunSummary s;
    if (w.checked) {
      s = run_checked(w, plan_for(w, seed++, jobs), w.keep_text).summary;
    } else {
      s = run_plan(plan_for(w, seed++, jobs), options);
    }
    if (s.calls <= 0) {
      std::cerr << "trafikey-bench-sim: a history made no calls\n";
      std::exit(1);
    }
    f.calls += s.calls;
    ++f.histories;
  }
  f.cpu = cpu_s() - start;
  return f;
}

// The checked rows' share of the unchecked rate, measured history by history: the same
// plan run unchecked, then checked, alternately, each side's CPU time summed, until each
// side has `min_cpu_s`. Rows measured one after the other see whatever load comes and
// goes between them; this way both sides see it alike.
double interleaved_share(const Workload& unchecked, const Workload& checked, int jobs, double min_cpu_s) {
  RunOptions options;
  options.keep_history_text = false;
  double cpu_u = 0, cpu_c = 0;
  std::int64_t calls_u = 0, calls_c = 0;
  for (std::uint64_t seed = 1; cpu_u < min_cpu_s || cpu_c < min_cpu_s; ++seed) {
    const double t0 = cpu_s();
    calls_u += run_plan(plan_for(unchecked, seed, jobs), options).calls;
    const double t1 = cpu_s();
    const auto run = run_checked(checked, plan_for(checked, seed, jobs), false);
    const double t2 = cpu_s();
    calls_c += run.summary.calls;
    cpu_u += t1 - t0;
    cpu_c += t2 - t1;
  }
  return (static_cast<double>(calls_c) / cpu_c) / (static_cast<double>(calls_u) / cpu_u);
}

}  // namespace
}  // namespace trafikey::sim

int main(int argc, char** argv) {
  using namespace trafikey::sim;
  bool quick = false;
  std::string only;       // the workloads whose names start with it, up to a word's end
  std::int64_t count = 0;  // histories per row instead of a CPU-time window
  int jobs = 0;            // fixed job count instead of the calibration
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--count" && i + 1 < argc) {
      count = std::strtoll(argv[++i], nullptr, 10);
    } else if (arg == "--jobs" && i + 1 < argc) {
      jobs = std::atoi(argv[++i]);
    } else {
      std::cout << "trafikey-bench-sim [--quick] [--only WORKLOAD] [--count HISTORIES] [--jobs N]:\n"
                   "  simulated calls per CPU-second and histories per CPU-second for ~1,000-call\n"
                   "  runs, single thread (--only/--count/--jobs: for profiling one workload)\n";
      return arg == "--help" || arg == "-h" ? 0 : 2;
    }
  }
  const double min_cpu_s = quick ? 0.3 : 2.0;
  const std::vector<FaultKind> all = *parse_fault_list(
      "restart,failover,clock,death,pause,lost_reply,epoch");
  const std::vector<Workload> workloads{
      {"no faults", {}, Persistence::always, false},
      {"all faults (as dev.sh main)", all, Persistence::always, false},
      {"all faults, everysec persistence", all, Persistence::everysec, false},
      {"all faults, history text kept", all, Persistence::always, true},
      {"all faults, checked but verb.model", all, Persistence::always, false, true, false},
      {"all faults, every invariant judged directly", all, Persistence::always, false, true, true, true},
      {"all faults, every invariant checked", all, Persistence::always, false, true, true},
  };

  using trafikey::bench::grouped;
  trafikey::bench::Table table(
      "simulator: ~1,000-call histories, " + std::to_string(workers) +
          " workers, single thread, >= " + trafikey::bench::fixed(min_cpu_s, 1) +
          " CPU-s per row (CLOCK_PROCESS_CPUTIME_ID)",
      {"workload", "jobs", "calls/history", "histories", "calls/CPU-s", "histories/CPU-s"});
  const Workload* unchecked = nullptr;  // the unchecked all-faults row: the checked rows' bar
  int unchecked_jobs = 0;
  std::vector<std::string> ratios;
  for (const Workload& w : workloads) {
    // the start of a name, ending at a word's end: "all faults, every" is the "every
    // invariant" row, not also "everysec persistence"
    const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    if (!only.empty() && (!w.name.starts_with(only) ||
                          (w.name.size() > only.size() && word_char(only.back()) && word_char(w.name[only.size()])))) {
      continue;
    }
    const Figures f = measure(w, jobs > 0 ? jobs : calibrate(w), min_cpu_s, count);
    const auto calls = static_cast<double>(f.calls), histories = static_cast<double>(f.histories);
    if (!w.checked && w.faults == all && w.persistence == Persistence::always && !w.keep_text) {
      unchecked = &w;
      unchecked_jobs = f.jobs;
    } else if (w.checked && unchecked) {
      const double share = interleaved_share(*unchecked, w, unchecked_jobs, min_cpu_s);
      ratios.push_back(w.name + ": " + trafikey::bench::fixed(100 * share, 1) + "%");
    }
    table.row({w.name, std::to_string(f.jobs), grouped(calls / histories), grouped(histories),
               grouped(calls / f.cpu), grouped(histories / f.cpu)});
  }
  table.note("bar: >= 1,000,000 simulated calls per CPU-second (issue 3)");
  table.note("plans: sim::draw_plan(seed 1, 2, ..., jobs, " + std::to_string(workers) +
             " workers, faults); SHA-256 fingerprint always computed");
  table.note("checked: properties::run_checked as a campaign runs it, every invariant on every step, verb.model's "
             "model predicting every call, the per-job judgements of a call it predicted exactly established "
             "through its equality (bar: >= half the unchecked calls/CPU-s, issue 14); 'judged directly': each "
             "judged directly (Checker::set_direct, the model's audit, as the CI properties run); 'but verb.model': "
             "the model still runs (its ledger is the checker's ground truth), its replies and keys not compared, "
             "every other invariant judged directly");
  for (const auto& r : ratios) {
    table.note("checked/unchecked calls per CPU-s (the same plans, unchecked then checked, alternately), " + r);
  }
  table.note("allocator: " + allocator_name());
  table.print();
  return 0;
}
