# Mutants of wire 2 (shared spec EMQ §8, issue 35): each a way to hand out a grant id twice
# or to write none. (The two that need wire 2 tokens in generated histories, a live check
# that ignores the grant id and one that compares it by prefix, wait for the generators'
# wire 2 workers; core.Wire2.* and scenarios/wire2/ pin that behaviour meanwhile.)

# 1. CLAIM writes no grant id (EMQ §8: `lease` in the same HSET as state, attempts and
#    lease_epoch, on every grant of either wire).
trafikey_mutant(claim_writes_no_grant_id verb.model verbs/claim.cpp
  [==[FieldRef{"lease_epoch", run_id}, FieldRef{"lease", j.grant}};]==]
  [==[FieldRef{"lease_epoch", run_id}};]==])

# 2. The grant counter starts over at every load (EMQ §8: at each load it moves above the
#    server's time in microseconds, never back): after a reload in the same process, the
#    next CLAIM hands out a grant id this process already granted.
trafikey_mutant(grant_counter_restarts_at_reload queue.grant epoch.cpp
  [==[  const std::int64_t at = server_ms * 1000 + 999;
  if (at > grants_) grants_ = at;]==]
  [==[  (void)server_ms;
  grants_ = 0;  // the counter restarts with the module]==])
