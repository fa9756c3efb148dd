#include "sim/situation_observer.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <optional>

#include "core/keys.h"
#include "core/verbs/common.h"
#include "sim/adversarial_calls.h"

namespace trafikey::sim::driver {

namespace {
// Text a careless reply or store might take for a number: a sign, digits, a point or an
// exponent, and a digit among them ("10", "007", "-1", "1e3", "1.0").
bool looks_numeric(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789+-.e") == std::string_view::npos &&
         s.find_first_of("0123456789") != std::string_view::npos;
}

bool at_buffer_edge(std::size_t n) {
  return n == 16 || n == 23 || n == 32 || n == 64 || n == 255 || n == 256 || n == 1024;
}

bool one_char_apart(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  int differ = 0;
  for (std::size_t i = 0; i < a.size() && differ < 2; ++i) differ += a[i] != b[i];
  return differ == 1;
}

bool answered_integer(const CallRecord& rec) { return rec.reply.kind() == Reply::Kind::integer; }
bool answered_array(const CallRecord& rec) { return rec.reply.kind() == Reply::Kind::array; }
}  // namespace

void SituationObserver::before_call(Args argv) {
  if (argv.size() < 2 || !world_.module_loaded() || !valid_queue_name(argv[1])) return;
  const std::string_view verb = argv[0];
  if (verb == "EMQ.STALLED.CHECK") {
    before_sweep(argv);
  } else if (verb == "EMQ.CLAIM") {
    before_claim(argv);
  } else if (verb == "EMQ.EXTEND" || verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL" || verb == "EMQ.EXTENDS") {
    before_lease_verb(argv);
  }
}

void SituationObserver::before_sweep(Args argv) {
  const Keyspace& data = world_.data();
  const QueueKeys keys(argv[1]);
  const auto now = static_cast<double>(world_.server_ms());
  bool wrong = false;
  // isolation: another queue holds an expired lease this sweep must leave alone
  for (const std::string& other : queue_names_) {
    if (other == argv[1]) continue;
    const Keyspace::Zset* theirs = data.zset_at(QueueKeys(other).active(), wrong);
    if (theirs && !theirs->order.empty() && theirs->order.begin()->first < now) {
      saw(Situation::other_queue_expired_at_sweep);
      break;
    }
  }
  const Keyspace::Zset* active = data.zset_at(keys.active(), wrong);
  if (!active) return;
  std::int64_t expired = 0;
  bool near = false, at_deadline = false, unstamped = false, empty_lane = false, case_stamp = false;
  const std::string& run_id = world_.run_id();
  std::int64_t limit = 1000;
  if (argv.size() >= 5) std::from_chars(argv[4].data(), argv[4].data() + argv[4].size(), limit);
  const std::optional<std::int64_t> budget = argv.size() >= 3 ? parse_int64(argv[2]) : std::nullopt;
  bool past_9 = false;
  bool one_ms_past = false, fractional = false;
  for (const auto& [score, member] : active->order) {
    if (score == now) at_deadline = true;
    if (score == now - 1) one_ms_past = true;
    if (score > now - 1 && score < now + 1 && score != now) fractional = true;
    if (!(score < now)) break;
    ++expired;
    if (const Keyspace::Hash* row = data.hash_at(keys.row(member), wrong)) {
      const std::string* stamp = Keyspace::hash_field(*row, "lease_epoch");
      // a counted lease with some stalls already, judged against a budget of two digits
      const std::string* stalled = Keyspace::hash_field(*row, "stalled");
      if (budget && *budget >= 10 && stamp && *stamp == run_id && stalled && parse_int64(*stalled).value_or(0) >= 1 &&
          expired <= limit) {
        past_9 = true;
      }
      if (stamp && one_char_apart(*stamp, run_id)) near = true;
      // the run_id in another case: another process's stamp (EMQ §2, byte-wise)
      if (stamp && *stamp != run_id && equals_ignore_case(*stamp, run_id) && expired <= limit) case_stamp = true;
      // within LIMIT and not a lane row: the sweep reads its lease_epoch and finds none
      const std::string* group = Keyspace::hash_field(*row, "group");
      if (!stamp && expired <= limit && !group) unstamped = true;
      if (group && group->empty() && expired <= limit) empty_lane = true;
    }
  }
  if (at_deadline) saw(Situation::sweep_at_a_deadline);
  if (one_ms_past) saw(Situation::sweep_one_ms_past_a_deadline);
  if (fractional) saw(Situation::sweep_at_a_fractional_deadline);
  if (past_9) saw(Situation::budget_past_9_judged);
  if (near) saw(Situation::sweep_met_near_epoch);
  if (unstamped) saw(Situation::unstamped_row_swept);
  if (empty_lane) saw(Situation::sweep_met_empty_group_lane);
  if (case_stamp) saw(Situation::sweep_met_stamp_differing_in_case);
  if (expired > 100 && argv.size() == 3) saw(Situation::sweep_default_limit_over_100);
  if (expired > limit) saw(Situation::sweep_cut_by_limit);
  if (expired > 100 && limit > 100) saw(Situation::sweep_over_100_expired);
}

void SituationObserver::before_claim(Args argv) {
  const Keyspace& data = world_.data();
  const QueueKeys keys(argv[1]);
  const std::int64_t now_ms = world_.server_ms();
  bool wrong = false;
  const Keyspace::Zset* pending = data.zset_at(keys.pending(), wrong);
  // a lease whose deadline would be 2^53, one past the largest score (EMQ §3: refused),
  // with a job to claim: a bound checked one too loosely hands it out
  if (pending && !pending->scores.empty() && argv.size() >= 3 && parse_int64(argv[2]) == score_max - now_ms + 1) {
    saw(Situation::claim_deadline_one_past_bound);
  }
  if (!pending || argv.size() < 5) return;
  std::int64_t count = 0;
  std::from_chars(argv[4].data(), argv[4].data() + argv[4].size(), count);
  const auto waiting = static_cast<std::int64_t>(pending->scores.size());
  if (waiting > 0 && count > waiting) saw(Situation::claim_count_above_pending);
  if (waiting > 100 && count > 100) saw(Situation::claim_over_100_pending);
  if (count > 1) {
    std::int64_t claimable = 0;
    for (const auto& [score, member] : pending->order) {
      if (claimable >= count) break;
      if (data.type(keys.row(member)) != KeyType::hash) {
        saw(Situation::claim_met_ghost_count_gt_1);
        break;
      }
      ++claimable;
    }
  }
}

void SituationObserver::before_lease_verb(Args argv) {
  const Keyspace& data = world_.data();
  const QueueKeys keys(argv[1]);
  const auto now = static_cast<double>(world_.server_ms());
  bool wrong = false;
  const Keyspace::Zset* active = data.zset_at(keys.active(), wrong);
  const std::string_view verb = argv[0];
  // EXTEND, COMPLETE, FAIL: q id token ...; EXTENDS: q lease_ms id token ...
  const std::size_t first = verb == "EMQ.EXTENDS" ? 3 : 2;
  const std::size_t step = verb == "EMQ.EXTENDS" ? 2 : argv.size();
  // a row that says active with the call's token while its id is not in active (EMQ §3:
  // not live, whatever the row says)
  if (argv.size() > first + 1 && !(active && active->scores.find(argv[first]))) {
    if (const Keyspace::Hash* row = data.hash_at(keys.row(argv[first]), wrong)) {
      const std::string* state = Keyspace::hash_field(*row, "state");
      const std::string* attempts = Keyspace::hash_field(*row, "attempts");
      if (state && *state == "active" && attempts && *attempts == argv[first + 1]) {
        saw(Situation::lease_verb_met_row_off_active);
      }
    }
  }
  for (std::size_t i = first; active && i < argv.size(); i += step) {
    const auto* score = active->scores.find(argv[i]);
    if (score && score->second == now) {
      saw(Situation::holder_call_at_its_deadline);
      break;
    }
  }
  // a lease verb at one ms past a deadline, or half a ms either side of now (a deadline
  // written by hand: draw_boundary_probe)
  for (std::size_t i = first; active && i < argv.size(); i += step) {
    const auto* score = active->scores.find(argv[i]);
    if (!score) continue;
    if (score->second == now - 1) saw(Situation::lease_verb_one_ms_past_a_deadline);
    if (score->second > now - 1 && score->second < now + 1 && score->second != now) {
      saw(Situation::lease_verb_at_a_fractional_deadline);
    }
  }
  // a token past 2^31 for an id in active (EMQ §7: tokens run to 2^63-1)
  for (std::size_t i = first; active && i + 1 < argv.size(); i += step) {
    if (parse_int64(argv[i + 1]).value_or(0) > std::numeric_limits<std::int32_t>::max() && active->scores.find(argv[i])) {
      saw(Situation::lease_verb_token_past_2_31);
      break;
    }
  }
  // a wire 2 token whose grant the row has lost (EMQ §8), by what lost it
  for (std::size_t i = first; i + 1 < argv.size(); i += step) {
    const auto token = verbs::token_arg(argv[i + 1]);
    if (!token.ok() || !token.value().wire2()) continue;
    const Keyspace::Hash* row = data.hash_at(keys.row(argv[i]), wrong);
    const std::string* attempts = row ? Keyspace::hash_field(*row, "attempts") : nullptr;
    const std::string* lease = row ? Keyspace::hash_field(*row, "lease") : nullptr;
    if (!attempts || !lease) continue;
    const bool same_attempts = parse_int64(*attempts) == token.value().attempts;
    if (same_attempts && *lease != token.value().grant) {
      const std::string_view loss = world_.last_loss();
      if (loss == "restart") saw(Situation::wire2_stale_after_restart);
      if (loss == "failover") saw(Situation::wire2_stale_after_failover);
      if (loss == "failback") saw(Situation::wire2_stale_after_failback);
    } else if (!same_attempts && *lease == token.value().grant) {
      saw(Situation::wire2_stale_after_script_claim);
    }
  }
  // a FAIL of a lease whose budget has two digits, with a failure already counted
  if (verb == "EMQ.FAIL" && argv.size() >= 3 && active && active->scores.find(argv[2])) {
    if (const Keyspace::Hash* row = data.hash_at(keys.row(argv[2]), wrong)) {
      const std::string* failures = Keyspace::hash_field(*row, "failures");
      const std::string* budget = Keyspace::hash_field(*row, "max_failures");
      if (failures && budget && parse_int64(*failures).value_or(0) >= 1 && parse_int64(*budget).value_or(0) >= 10) {
        saw(Situation::budget_past_9_judged);
      }
    }
  }
}

void SituationObserver::after_call(const CallRecord& rec) {
  if (rec.actor == "x" && !rec.argv.empty()) after_adversarial_call(rec);
  if (rec.argv.empty() || rec.reply.is_error()) return;
  const std::string_view verb = rec.argv[0];
  if (verb == "EMQ.ADD") {
    after_add(rec);
  } else if (verb == "EMQ.CLAIM") {
    after_claim(rec);
  } else if (verb == "EMQ.COMPLETE" || verb == "EMQ.FAIL") {
    after_finish(rec);
  } else if (verb == "EMQ.EXTENDS") {
    after_extends(rec);
  } else if (verb == "EMQ.JOB" || verb == "EMQ.STATS") {
    after_read(rec);
  }
}

void SituationObserver::after_adversarial_call(const CallRecord& rec) {
  if (rec.reply.is_error()) saw(Situation::adversarial_call_refused);
  const bool read = equals_ignore_case(rec.argv[0], "EMQ.STATS") || equals_ignore_case(rec.argv[0], "EMQ.JOB");
  if (read && answered_array(rec)) saw(Situation::adversarial_call_read);
  const std::string_view text = rec.reply.is_error() ? std::string_view(rec.reply.text()) : std::string_view();
  if (text.starts_with("ERR EMQ corrupt job row")) saw(Situation::corrupt_row_refused);
  if (text.starts_with("WRONGTYPE") && rec.argv[0].starts_with("EMQ.")) saw(Situation::wrong_type_refused);
  // a queue name or id with a colon, a high byte, CR and LF (EMQ §1 allows them) served
  if (!rec.reply.is_error() && rec.argv.size() >= 2 &&
      std::any_of(rec.argv.begin() + 1, rec.argv.begin() + std::min<std::size_t>(rec.argv.size(), 3),
                  [](std::string_view a) { return a.find(":\xff\r\n") != std::string_view::npos; })) {
    saw(Situation::rare_bytes_name_answered);
  }
}

void SituationObserver::after_add(const CallRecord& rec) {
  if (!answered_integer(rec)) return;
  const std::int64_t answer = rec.reply.as_integer();
  if (answer == 0) saw(Situation::add_of_an_existing_id);
  // a payload written at a buffer's edge length
  if (answer != 0 && rec.argv.size() >= 4 && at_buffer_edge(rec.argv[3].size())) saw(Situation::text_at_a_buffer_edge);
  if (answer != 1) return;
  if (rec.argv.size() == 4) saw(Situation::add_without_maxfailures);
  if (rec.argv.size() >= 6 && rec.argv[5] == "1") saw(Situation::add_maxfailures_1);
  // names past the 16 bytes the fleet's never reach, a payload past 4096 bytes (EMQ §1)
  if (rec.argv[1].size() > 16 && rec.argv[2].size() > 16) saw(Situation::long_names_written);
  if (rec.argv[3].size() > 4096) saw(Situation::long_payload_added);
  after_ordering(rec);
}

void SituationObserver::after_finish(const CallRecord& rec) {
  if (!answered_integer(rec)) return;
  const std::int64_t answer = rec.reply.as_integer();
  const bool complete = rec.argv[0] == "EMQ.COMPLETE";
  if (complete && rec.argv.size() == 4 && answer == 1) saw(Situation::complete_without_result);
  if (!complete && answer == 1) saw(Situation::fail_requeued);
  if (!complete && answer == 2) saw(Situation::fail_dead);
  // a COMPLETE or FAIL that took its lease, with a text at a buffer's edge length, of 0 bytes
  // or with a NUL in it
  if (answer != 0 && rec.argv.size() == 5) {
    if (at_buffer_edge(rec.argv[4].size())) saw(Situation::text_at_a_buffer_edge);
    if (rec.argv[4].empty()) saw(Situation::finished_with_empty_text);
    if (rec.argv[4].find('\0') != std::string_view::npos) saw(Situation::finished_with_binary_text);
  }
  if (!complete && answer == 1) after_ordering(rec);
}

// An ADD or a requeueing FAIL that ordered its job past 2^24, where a float stops holding
// every integer (and up to just past 2^53, where a double does).
void SituationObserver::after_ordering(const CallRecord& rec) {
  if (!valid_queue_name(rec.argv[1])) return;
  bool wrong = false;
  const std::string* seq = world_.data().string_at(SpecKeys(rec.argv[1]).key("seq"), wrong);
  const auto order = seq ? parse_int64(*seq) : std::nullopt;
  if (order && *order > (std::int64_t{1} << 24) && *order <= (std::int64_t{1} << 53) + 1000) {
    saw(Situation::order_past_float_integers);
  }
}

void SituationObserver::after_claim(const CallRecord& rec) {
  if (!answered_array(rec)) return;
  if (rec.reply.items().size() > 100) saw(Situation::claim_granted_over_100);
  for (const Reply& item : rec.reply.items()) {
    if (item.kind() != Reply::Kind::array || item.items().size() != 3) continue;
    const std::string_view payload = item.items()[2].text();
    if (payload.empty()) saw(Situation::claimed_empty_payload);
    if (payload.find('\0') != std::string_view::npos) saw(Situation::claimed_binary_payload);
    if (looks_numeric(item.items()[0].text()) || looks_numeric(payload)) saw(Situation::numeric_looking_value_claimed);
  }
}

void SituationObserver::after_extends(const CallRecord& rec) {
  if (!answered_array(rec)) return;
  const auto& items = rec.reply.items();
  bool live = false, dead = false;
  for (const Reply& r : items) (r.as_integer() != 0 ? live : dead) = true;
  if (live && dead) saw(Situation::extends_live_and_dead);
  if (items.size() == 1000) saw(Situation::extends_at_1000_pairs);
  // the last pair names the first pair's id again, and both were live
  if (items.size() >= 2 && rec.argv.size() == 3 + 2 * items.size() && rec.argv[3] == rec.argv[rec.argv.size() - 2] &&
      items.front().as_integer() == 1 && items.back().as_integer() == 1) {
    saw(Situation::extends_repeated_live_pair);
  }
}

void SituationObserver::after_read(const CallRecord& rec) {
  if (!answered_array(rec)) return;
  const auto& items = rec.reply.items();
  if (rec.argv[0] == "EMQ.STATS") {
    if (std::any_of(items.begin(), items.end(), [](const Reply& r) { return r.as_integer() > 255; })) {
      saw(Situation::stats_counted_over_255);
    }
    return;
  }
  // a JOB that lists a field EMQ §1 does not name (its place is by bytes, EMQ §4); `lease`
  // is the grant id every CLAIM writes (EMQ §8)
  static constexpr std::string_view listed[] = {"state",  "payload",     "attempts", "failures", "max_failures",
                                                "stalled", "lease_epoch", "lease",    "result",   "error",
                                                "dead_reason", "group"};
  for (std::size_t i = 0; i < items.size(); i += 2) {
    if (std::find(std::begin(listed), std::end(listed), items[i].text()) == std::end(listed)) {
      saw(Situation::job_read_unlisted_field);
      break;
    }
  }
}

void SituationObserver::at_end(std::int64_t calls, const std::vector<bool>& claimed_from) {
  const std::vector<std::string>& run_ids = world_.run_ids();
  for (std::size_t i = 2; i < run_ids.size(); ++i) {
    for (std::size_t j = 1; j < i; ++j) {
      if (one_char_apart(run_ids[i], run_ids[j])) {
        saw(Situation::near_run_id);
        break;
      }
    }
  }
  if (calls > 1000) saw(Situation::large_run);
  if (std::count(claimed_from.begin(), claimed_from.end(), true) >= 2) saw(Situation::several_queues);
}

std::map<std::string, std::int64_t> SituationObserver::counts_by_name() const {
  std::map<std::string, std::int64_t> by_name;
  for (std::size_t i = 0; i < situation_count; ++i) {
    if (counts_[i]) by_name[std::string(situation_name(static_cast<Situation>(i)))] = counts_[i];
  }
  return by_name;
}

}  // namespace trafikey::sim::driver
