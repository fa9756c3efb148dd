// The fuzz part (soak.h): random and malformed calls to every verb among valid traffic.
// A refusal writes nothing (EMQ §4: every refusal happens in the read pass) and its text
// is one of EMQ §6's; the replies that promise "nothing written" (ADD 0, a lease that is
// not live, the read-only verbs, an empty sweep, an empty CLAIM where no ghost waits) leave
// the dataset as it was too. Both are judged by DEBUG DIGEST before and after the call.
#include <optional>
#include <stdexcept>

#include "core/commands.h"
#include "scenarios/soak/call_generator.h"
#include "scenarios/soak/part_run.h"
#include "scenarios/soak/queue_audit.h"
#include "scenarios/soak/soak_server.h"
#include "scenarios/soak/spec_errors.h"

namespace trafikey::soak {

namespace {

bool all_zero(const Reply& reply) {
  if (reply.kind() != Reply::Kind::array) return false;
  for (const Reply& item : reply.items()) {
    if (item.as_integer() != 0) return false;
  }
  return true;
}

bool empty_list(const Reply& reply) { return reply.kind() == Reply::Kind::array && reply.items().empty(); }

// The reply says the call wrote nothing (EMQ §4, §5).
bool promises_no_write(const Call& call, const Reply& reply) {
  const CommandSpec* spec = find_command(call.argv[0]);
  if (spec == nullptr || reply.is_error()) return false;
  switch (spec->id) {
    case VerbId::add:
    case VerbId::extend:
    case VerbId::complete:
    case VerbId::fail: return reply.kind() == Reply::Kind::integer && reply.as_integer() == 0;
    case VerbId::extends: return all_zero(reply);
    case VerbId::stats:
    case VerbId::job:
    case VerbId::epoch: return true;
    case VerbId::stalled_check: {
      // recovered [..] dead [..] ghosts [..] lanes [..]: nothing judged, nothing written
      // (lane rows are listed but left untouched).
      if (reply.kind() != Reply::Kind::array || reply.items().size() != 8) return false;
      const auto& items = reply.items();
      return empty_list(items[1]) && empty_list(items[3]) && empty_list(items[5]);
    }
    case VerbId::claim:
      // Only the traffic queues are sure to hold no ghost (nothing there deletes a row).
      return call.kind == Call::Kind::valid && empty_list(reply);
  }
  return false;
}

}  // namespace

PartResult run_fuzz(const SoakOptions& options) {
  PartRun run(Part::fuzz, options);
  real::RealServer server(server_config(options));
  real::ServerConnection connection = server.connect();
  CallGenerator generator(options.seed);
  std::optional<std::string> digest;  // the dataset's digest, when no write happened since

  while (!run.spent()) {
    const Call call = generator.next();
    if (!digest) digest = dataset_digest(connection);
    const Reply reply = connection.call(call.argv);
    run.record(call.argv, reply);
    if (connection_lost(reply)) {
      run.fail("the server stopped answering (" + reply.text() + "); its log ends:\n" + log_tail(server));
      break;
    }
    generator.observe(call, reply);
    if (call.kind == Call::Kind::setup) {
      digest.reset();  // (a setup refused for its own key's type wrote nothing either)
      continue;
    }
    run.add("calls fuzzed");
    if (call.kind == Call::Kind::malformed) run.add("malformed calls");
    if (call.kind == Call::Kind::poisoned) run.add("calls on poisoned queues");
    if (reply.is_error()) {
      run.add("refusals checked");
      if (!is_spec_error(reply.text())) {
        run.fail("a refusal whose text is not one of EMQ §6's:\n  " + render_call(call.argv) + "\n  -> " + reply.text());
        break;
      }
    } else if (promises_no_write(call, reply)) {
      run.add("no-write replies checked");
    } else {
      digest.reset();
      continue;
    }
    const std::string after = dataset_digest(connection);
    if (after != *digest) {
      run.fail(std::string(reply.is_error() ? "a refusal" : "a reply that promises no write") +
               " changed the dataset (DEBUG DIGEST " + *digest + " before, " + after + " after):\n  " +
               render_call(call.argv) + "\n  -> " + render_reply(reply));
      break;
    }
  }

  if (!run.broke()) {
    // The traffic queues saw only well-formed calls and refusals: each must be sound.
    for (const std::string& queue : CallGenerator::traffic_queues()) {
      const QueueState state = read_queue(connection, queue);
      for (const std::string& problem : audit_queue(queue, state)) run.fail("after the fuzz: " + problem);
      run.add("jobs audited", static_cast<std::int64_t>(state.rows.size()));
    }
  }
  run.add("keys at the end", connection.call({"DBSIZE"}).as_integer());
  server.shutdown();
  return run.finish();
}

}  // namespace trafikey::soak
