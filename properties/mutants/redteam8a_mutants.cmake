# Mutants of red team 8a's escapes: 39 unseen wrong cores in claim, stalled_check, the sweep's
# decision, the epoch, its verb and the key names; 12 escaped 8000 runs as real bugs and are
# caught since the adversarial client's rare_rows setups (sim/adversarial_rare_setups.cpp: rows without state, an id
# in pending and active at once, counters of 2^53 and 2^63-2, stamps with a line end or space,
# lane rows stamped otherwise, ids with braces written, CLAIM leases of 2^31 ms up to the 2^53-1
# bound, a ghost's row key denied) and runs whose server clock reads wall time
# (properties/generators.cpp, PlanSpace::wall_clock_per_mille: a clock_step to ~1.6e12 ms at
# true time 0). Numbered on from red team 7.

# 113. the deadline kept in 32 bits: a CLAIM lease of 2^31 ms or more scores active wrong (EMQ §3, §4: deadline now + lease_ms). Needs a CLAIM granted with a lease of 2^31+ ms (rare_rows).
trafikey_mutant(claim_deadline_int32 verb.model verbs/claim.cpp
  [==[TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));]==]
  [==[TK_TRY(const std::int32_t deadline, lease_deadline(now, lease_ms));]==])

# 114. the sweep compares deadlines with now as a float: at wall-clock times (~2^40 ms) it misses or takes leases by up to a minute (EMQ §3, §5: deadline < now). Needs a server clock at wall time (wall_clock_per_mille).
trafikey_mutant(sweep_now_as_float epoch.counted verbs/stalled_check.cpp
  [==[host.zrange_by_score(keys.active(), static_cast<double>(now),]==]
  [==[host.zrange_by_score(keys.active(), static_cast<float>(now),]==])

# 115. the sweep's now narrowed to 32 bits: past 2^31 ms it reads a wrong clock, sweeps nothing and scores dead wrong (EMQ §3, §5). Needs a server clock at wall time.
trafikey_mutant(sweep_now_int32 epoch.counted verbs/stalled_check.cpp
  [==[  TK_TRY(const std::int64_t now, host.now_ms());]==]
  [==[  TK_TRY(const std::int32_t now, host.now_ms());]==])

# 116. the token computed through a double: attempts 2^53 claims token 2^53 again (EMQ §1, §4: attempts + 1). Needs a row with attempts at 2^53 claimed (rare_rows).
trafikey_mutant(claim_token_through_double verb.model verbs/claim.cpp
  [==[j.token = attempts + 1;]==]
  [==[j.token = static_cast<std::int64_t>(static_cast<double>(attempts) + 1.0);]==])

# 117. the stalled overflow guard one too wide: stalled 2^63-2 (a sound count, +1 fits) refused as corrupt (EMQ §5, §6). Needs that stalled on a counted lease (rare_rows).
trafikey_mutant(sweep_stalled_guard_off_by_one queue.conserve decide/sweep.cpp
  [==[if (!parsed || *parsed < 0 || *parsed == int64_max)]==]
  [==[if (!parsed || *parsed < 0 || *parsed >= int64_max - 1)]==])

# 118. CLAIM takes a hash without `state` for a ghost and drops it (EMQ §4: only a row key that is not a hash is a ghost). Needs such a row in pending claimed (rare_rows).
trafikey_mutant(claim_row_without_state_is_ghost queue.conserve verbs/claim.cpp
  [==[      TK_TRY(KeyType type, host.type(j.row));
      if (type != KeyType::hash) {]==]
  [==[      TK_TRY(KeyType type, host.type(j.row));
      if (type == KeyType::hash) {  // a row with no state is what a half-deleted job leaves
        TK_TRY(auto st, host.hget(j.row, "state"));
        if (!st) type = KeyType::none;
      }
      if (type != KeyType::hash) {]==])

# 119. the sweep takes a hash without `state` for a ghost (EMQ §5: TYPE, group, lease_epoch, stalled; never state). Needs such a row expired in active (rare_rows).
trafikey_mutant(sweep_row_without_state_is_ghost queue.conserve verbs/stalled_check.cpp
  [==[      TK_TRY(seen.type, host.type(row));
      return ok_status();]==]
  [==[      TK_TRY(seen.type, host.type(row));
      if (*seen.type == KeyType::hash) {  // a row without state is a leftover: a ghost
        TK_TRY(auto st, host.hget(row, "state"));
        if (!st) seen.type = KeyType::none;
      }
      return ok_status();]==])

# 120. CLAIM skips a pending id that is also in active (EMQ §4: claimed, ZADD active re-scores it). Needs an id in pending and active at once claimed (rare_rows).
trafikey_mutant(claim_skips_id_already_active queue.conserve verbs/claim.cpp
  [==[      } else {
        TK_TRY(std::int64_t attempts, row_integer(host, j.row, "attempts", 0));]==]
  [==[      } else {
        // already under lease (a double entry): leave it where it is, claim the next
        TK_TRY(auto leased, host.zscore(keys.active(), j.id));
        if (leased) continue;
        TK_TRY(std::int64_t attempts, row_integer(host, j.row, "attempts", 0));]==])

# 121. the sweep takes an expired member that is also in pending for a ghost (EMQ §5: judged by its row; recovered). Needs such a member swept (rare_rows).
trafikey_mutant(sweep_member_in_pending_is_ghost queue.conserve verbs/stalled_check.cpp
  [==[    judged.push_back(std::move(j));]==]
  [==[    if (j.verdict.kind != VerdictKind::lane) {  // requeued already: only drop it from active
      TK_TRY(auto queued, host.zscore(keys.pending(), j.id));
      if (queued) j.verdict = Verdict{VerdictKind::ghost};
    }
    judged.push_back(std::move(j));]==])

# 122. the stamp trimmed of a line end or space before the compare: run_id + "\r\n" counted (EMQ §2: byte-wise, another process's, exempt). Needs such a stamp on an expired lease (rare_rows).
trafikey_mutant(exempt_trims_stamp epoch.exempt decide/sweep.cpp
  [==[  const std::optional<std::string_view> stamp_view = *seen.lease_epoch;]==]
  [==[  std::optional<std::string_view> stamp_view = *seen.lease_epoch;
  // a stamp written by a script may carry the line end INFO gave it
  while (stamp_view && !stamp_view->empty() &&
         (stamp_view->back() == '\n' || stamp_view->back() == '\r' || stamp_view->back() == ' '))
    stamp_view->remove_suffix(1);]==])

# 123. braces in a job id replaced in its row's name (EMQ §1: an id is any bytes but NUL). Needs an id with braces written (rare_rows).
trafikey_mutant(row_name_replaces_braces queue.conserve keys.cpp
  "  copy_bytes(out + prefix_len_ + 4, id.data(), id.size());\n"
  [==[  copy_bytes(out + prefix_len_ + 4, id.data(), id.size());
  for (std::size_t i = 0; i < id.size(); ++i) {  // a brace in an id would make a second hash tag
    char& c = out[prefix_len_ + 4 + i];
    if (c == '{' || c == '}') c = '_';
  }
]==])

# 124. CLAIM asks the ACL for a ghost's row key, which it never writes (EMQ §6: the keys it will write): NOPERM where it claims. Needs a ghost ahead of a sound row with the ghost's row key denied (rare_rows).
trafikey_mutant(claim_acl_checks_ghost_rows queue.conserve verbs/claim.cpp
  [==[    if (!j.ghost) TK_CHECK(host.may_write(j.row));]==]
  [==[    TK_CHECK(host.may_write(j.row));]==])

# 125. a run_id with an `f` refused as malformed (EMQ §2: 40 lower-case hex characters): the
# module serves nothing from its first start. Caught by epoch.load with no call at all; its
# history minimizes to no step (the minimizer refused an empty candidate before, and kept a
# removable `reload`, so this self-test failed its 1-minimality check though caught).
trafikey_mutant(run_id_f_refused epoch.load epoch.cpp
  [==[(c >= 'a' && c <= 'f')]==]
  [==[(c >= 'a' && c < 'f')]==])
