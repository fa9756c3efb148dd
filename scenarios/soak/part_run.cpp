#include "scenarios/soak/part_run.h"

#include "core/assert.h"
#include "sim/keyspace.h"
#include "sim/scenario/notation.h"

namespace trafikey::soak {

namespace {
using namespace std::chrono_literals;
constexpr std::size_t recent_max = 24;    // calls shown with a failure
constexpr std::size_t shown_bytes_max = 300;  // a longer call or reply is cut (EXTENDS of 1000 pairs)
constexpr auto progress_every = 500ms;

std::string cut(std::string text) {
  if (text.size() > shown_bytes_max) {
    const std::size_t total = text.size();
    text.resize(shown_bytes_max);
    text += "... (" + std::to_string(total) + " bytes)";
  }
  return text;
}
}  // namespace

std::string_view part_name(Part part) {
  switch (part) {
    case Part::fuzz: return "fuzz";
    case Part::kill: return "kill";
    case Part::replica: return "replica";
  }
  return "?";
}

void PartResult::add(const std::string& name, std::int64_t by) {
  for (auto& [n, v] : counts) {
    if (n == name) {
      v += by;
      return;
    }
  }
  counts.emplace_back(name, by);
}

std::int64_t PartResult::count(const std::string& name) const {
  for (const auto& [n, v] : counts) {
    if (n == name) return v;
  }
  return 0;
}

std::string render_call(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& arg : argv) {
    if (!out.empty()) out += ' ';
    out += scenario::write_word(arg);
  }
  return out;
}

std::string render_reply(const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::bulk: return sim::quote_bytes(reply.text());
    case Reply::Kind::simple: return "+" + sim::quote_bytes(reply.text());
    case Reply::Kind::error: return "(error " + sim::quote_bytes(reply.text()) + ")";
    case Reply::Kind::array: {
      std::string out = "[";
      for (const Reply& item : reply.items()) out += (out.size() > 1 ? " " : "") + render_reply(item);
      return out + "]";
    }
    case Reply::Kind::integer:
    case Reply::Kind::nil: break;
  }
  return debug_string(reply);
}

PartRun::PartRun(Part part, const SoakOptions& options)
    : options_(options), start_(std::chrono::steady_clock::now()), last_progress_(start_) {
  TRAFIKEY_ASSERT(options.budget.calls > 0 || options.budget.seconds > 0, "a part without a budget never ends");
  result_.part = part;
}

bool PartRun::spent() const {
  if (result_.broke) return true;
  if (options_.budget.calls > 0 && calls_ >= options_.budget.calls) return true;
  return options_.budget.seconds > 0 &&
         std::chrono::steady_clock::now() - start_ >= std::chrono::seconds(options_.budget.seconds);
}

void PartRun::record(const std::vector<std::string>& argv, const Reply& reply, std::string_view where) {
  ++calls_;
  std::string line = cut(render_call(argv)) + " -> " + cut(render_reply(reply));
  if (!where.empty()) line = std::string(where) + ": " + line;
  note(std::move(line));
  maybe_progress();
}

void PartRun::note(std::string text) {
  recent_.push_back(std::move(text));
  if (recent_.size() > recent_max) recent_.pop_front();
}

void PartRun::fail(const std::string& what) {
  if (result_.broke) return;
  result_.broke = true;
  result_.failure = what + "\nthe last calls (oldest first):\n";
  for (const auto& line : recent_) result_.failure += "  " + line + "\n";
}

void PartRun::maybe_progress() {
  if (!options_.progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_progress_ < progress_every) return;
  last_progress_ = now;
  std::string line = std::string(part_name(result_.part)) + ": " +
                     std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - start_).count()) + " s, " +
                     std::to_string(calls_) + " calls";
  for (const auto& [name, value] : result_.counts) line += ", " + std::to_string(value) + " " + name;
  options_.progress(line);
}

PartResult PartRun::finish() {
  result_.elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
  return result_;
}

}  // namespace trafikey::soak
