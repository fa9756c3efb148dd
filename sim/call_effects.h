// What one call did to each job, read from its argv and its reply alone: the one decoder
// of call effects. The ledger (properties/model/ledger.h), the reports' history model
// (reports/history_model.h) and the world's sweep verdict lines (sim/world.cpp) read calls
// through it; none of them parses an argv or a reply for this itself.
//
// A call's moves, in the order the reply lists them:
//   EMQ.ADD 1                      add (max_failures in `amount`, 3 when not given)
//   EMQ.CLAIM [[id, token, p]...]  grant for each triple (token; lease ms in `amount`);
//                                  under WIRE 2 each item is [id, token, p, wire 2 token]
//                                  (EMQ §8), the wire 2 token in `carried`
//   EMQ.EXTEND 1 / 0               extend (lease ms) / refused
//   EMQ.EXTENDS [r...]             extend or refused for each pair answered 1 or 0
//   EMQ.COMPLETE 1 / 0             complete / refused
//   EMQ.FAIL 1 / 2 / 0             requeue / dead / refused
//   EMQ.STALLED.CHECK [8 items]    sweep_recovered for each id of item 1, sweep_dead of
//                                  item 3, sweep_ghost of item 5, sweep_lane of item 7 (the
//                                  reply cannot say whether a recovery was counted: the
//                                  world tells by the row, the ledger by its stamp)
//   DEL row... / SET row           ghost: the row is gone, its id a ghost if it is in a set
//   HSET row f v ...               row_written (the `state` and `attempts` it wrote, if
//                                  any: a row set up by hand, the adversarial client's
//                                  probes), then lane if `group` is among the fields (unless
//                                  it answered 0: no new field)
//   ZADD emq:{q}:active s id ...   deadline for each integer score and member (a lease's
//                                  deadline set by hand)
//   the scripted executor's calls  (sim/executor_scripts.h, by EVALSHA digest or EVAL
//                                  body, with keys and arguments as bench/scripts/*.lua
//                                  take them): claim.lua grants, extend.lua extends or is
//                                  refused, complete.lua completes or is refused
// An error reply, a reader, an idle CLAIM, any other command or script: no moves.
//
// Verbs and keys are read through the spec's names (sim/spec_names.h), never the core's:
// a core that got its command table or key scheme wrong must not move the harness with it.
// Moves name jobs by views into the argv and the reply decoded: they last as long as those.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/args.h"
#include "core/reply.h"
#include "sim/executor_scripts.h"
#include "sim/spec_names.h"

namespace trafikey::sim {

enum class JobMove : std::uint8_t {
  add, grant, extend, complete, requeue, dead, refused,
  sweep_recovered, sweep_dead, sweep_ghost, sweep_lane,
  ghost, lane,
  row_written, deadline,
};

struct Move {
  JobMove kind = JobMove::add;
  std::string_view queue, id;
  std::int64_t token = 0;   // grant: the token granted; row_written: the attempts written (0: none)
  std::int64_t amount = 0;  // add: max_failures; grant, extend: the lease in ms; deadline: the score
  std::string_view state;   // row_written: the state written (empty: none)
  // extend, complete, requeue, dead, refused: the token argument sent (wire 1 or wire 2);
  // grant under WIRE 2: the wire 2 token handed out
  std::string_view carried;
  // The carried token's attempts: the whole of a wire 1 token, the part before the first
  // '-' of a wire 2 one (EMQ §8); nullopt when that is not a number.
  std::optional<std::int64_t> carried_token() const {
    const std::size_t dash = carried.find('-', 1);
    return parse_int64(dash == std::string_view::npos ? carried : carried.substr(0, dash));
  }
};

struct CallEffects {
  spec::EmqVerb verb = spec::EmqVerb::none;      // the §4 verb it ran; none for anything else
  ExecutorScript script = ExecutorScript::none;  // the executor's script it ran, if any
  // How the moves' maker is named: the verb as the page spells it ("EMQ.CLAIM"), the
  // script's file ("claim.lua") or the plain command ("DEL", "SET", "HSET", "ZADD"); empty when
  // the call moved nothing.
  std::string_view mover;
  std::vector<Move> moves;
};

// Decodes `argv` and `reply` into `out` (cleared first). `verb`: the §4 verb the caller has
// already found from argv[0]; none: read it here.
void decode_call(Args argv, const Reply& reply, CallEffects& out,
                 spec::EmqVerb verb = spec::EmqVerb::none);

}  // namespace trafikey::sim
