# Mutants of wire 2 (shared spec EMQ §8, issue 35): each a way to hand out a grant id twice
# or to write none, or to take a token that is not the live grant's.

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

# 3. The live check ignores the token's attempts part (EMQ §8: a wire 2 token is live when
#    its row's attempts equal its first part and its row's `lease` its grant id): a token
#    naming the live grant with any attempts moves the job.
trafikey_mutant(wire2_live_check_ignores_attempts queue.fence verbs/common.cpp
  [==[  TK_TRY(auto attempts, host.hget(row, "attempts"));
  const std::int64_t token = lease.attempts;]==]
  [==[  TK_TRY(auto attempts, host.hget(row, "attempts"));
  if (lease.wire2()) return true;  // the grant id alone
  const std::int64_t token = lease.attempts;]==])

# 4. Grant ids compared by their prefix, the granting process's run_id (EMQ §8: the whole
#    grant id): a token from an earlier grant of the same process whose attempts the row
#    holds again (a failback's rollback, or a forged counter) moves the job.
trafikey_mutant(wire2_grant_compared_by_prefix queue.grant verbs/common.cpp
  [==[    if (granted != lease.grant) return false;]==]
  [==[    auto process = [](std::string_view g) { return g.substr(0, g.rfind('-')); };
    if (!granted || process(*granted) != process(lease.grant)) return false;]==])
