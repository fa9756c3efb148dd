# Mutants of red team 9b's escapes (sequences, timing and faults between calls: each verb's
# own deadline boundary, clock steps between a grant and its use, leases met again after a
# requeue or a recovery, EXTENDS naming one job twice, retries after lost replies, jobs added
# again, budgets after counted stalls, reload against restart, requeue scores and the seq far
# from 0): 52 unseen wrong cores, 4 escaping real bugs, 1 equivalent. These are caught since
# (a) a share of runs (PlanSpace::long_lived_queue_per_mille, RunPlan::seq_start) starts every
# queue's seq just below 2^24, 2^31, 2^32 or 2^53, or anywhere between 2^24 and 2^53, so the
# fleet's ADDs and requeueing FAILs order jobs where a float no longer holds every integer;
# and (b) one adversarial call in ten comes after an edge probe (sim/adversarial_boundary_probes.cpp,
# drawn from a stream of its own so every other draw stays as it was): a lease written by hand
# at now, one ms before now, or half a ms either side of now, then EXTEND, EXTENDS (the id
# named twice now and then, with its token or one it never held), COMPLETE (with or without
# a result), FAIL (budget 1 or 3) or STALLED.CHECK (max_stalled 1 or 5). Numbered on from 450.
# 450. ADD carries the new order through a float (saturating at int64's ends): past 2^24 the job is ordered at the nearest float, not at its seq (EMQ §4: ZADD pending <seq>). Needs an ADD past 2^24 (a long-lived queue; the adversarial setups' seqs are 0..dozens or at int64's top, where the saturation hides it).
trafikey_mutant(add_order_through_float verb.model verbs/add.cpp
  [==[  w.zadd(keys.pending(), order, argv[2]);]==]
  [==[  const float score = static_cast<float>(order);  // a zset score is floating point
  w.zadd(keys.pending(), score >= 9.2e18f ? int64_max : score <= -9.2e18f ? -int64_max : static_cast<std::int64_t>(score), argv[2]);]==])
# 451. FAIL's requeue carries the new order through a float, as 450 (EMQ §4: ZADD pending <INCR seq>). Needs a requeueing FAIL past 2^24 (a long-lived queue).
trafikey_mutant(fail_requeue_order_through_float verb.model verbs/fail.cpp
  [==[    w.zadd(keys.pending(), order, argv[2]);]==]
  [==[    const float score = static_cast<float>(order);  // a zset score is floating point
    w.zadd(keys.pending(), score >= 9.2e18f ? int64_max : score <= -9.2e18f ? -int64_max : static_cast<std::int64_t>(score), argv[2]);]==])
# 452. The sweep selects "deadline <= now - 1" (deadlines as whole ms) where EMQ §5 says deadline < now: a deadline between now - 1 and now (one a script computed from TIME's microseconds) is left in active, not judged. Caught first by epoch.counted (the expired lease of this process is not counted). Needs a fractional deadline just below now at a sweep (the edge probe).
trafikey_mutant(sweep_expired_up_to_last_whole_ms epoch.counted verbs/stalled_check.cpp
  [==[host.zrange_by_score(keys.active(), static_cast<double>(now),]==]
  [==[host.zrange_by_score(keys.active(), static_cast<double>(now - 1) + 0.5,  /* deadlines are whole ms: <= now - 1 */]==])
# 453. Liveness takes "expired" for "deadline <= now - 1" (whole ms), where EMQ §3 says expired when deadline < now: a lease whose deadline lies half a ms before now is live to every lease verb. Needs a fractional deadline just below now met by EXTEND, EXTENDS, COMPLETE or FAIL (the edge probe).
trafikey_mutant(lease_live_up_to_last_whole_ms verb.model verbs/common.cpp
  [==[  if (!deadline || *deadline < static_cast<double>(now_ms)) return false;]==]
  [==[  if (!deadline || *deadline <= static_cast<double>(now_ms - 1)) return false;  // expired: at or before the last whole ms]==])
# 454. EXTENDS alone gives a lease one ms of grace (EMQ §3: expired when deadline < now, for every verb). Caught before only at run 3100 of 8000 (a paused worker's lease expired by exactly one ms); now by the edge probe's EXTENDS one ms or half a ms past a deadline.
trafikey_mutant(extends_live_one_ms_past verb.model verbs/extends.cpp
  [==[lease_live(host, keys, id, keys.row_name(id), token, now)]==]
  [==[lease_live(host, keys, id, keys.row_name(id), token, now - 1)]==])
# 455. FAIL alone gives a lease one ms of grace, as 454. Caught before only at run 3862 of 8000; now by the edge probe's FAIL one ms or half a ms past a deadline.
trafikey_mutant(fail_live_one_ms_past verb.model verbs/fail.cpp
  [==[TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));]==]
  [==[TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now - 1));]==])
# 456. EXTENDS naming one id twice lets the later pair decide the write: a live pair followed by a dead pair of the same id answers [1 0] but is not re-scored or stamped (EMQ §4: every live pair re-scored and stamped). Caught before only at run 2793 of 8000 (a worker holding a stale and a live token of one job); now by the edge probe's EXTENDS of e with token 1 then 2.
trafikey_mutant(extends_last_pair_decides_write verb.model verbs/extends.cpp
  [==[    if (!live(i)) continue;
    w.zadd(keys.active(), deadline, argv[3 + 2 * i]);]==]
  [==[    if (!live(i)) continue;
    bool superseded = false;  // a later pair of the same id has the last word
    for (std::size_t k = i + 1; k < pairs; ++k) {
      if (argv[3 + 2 * k] == argv[3 + 2 * i]) superseded = !live(k);
    }
    if (superseded) continue;
    w.zadd(keys.active(), deadline, argv[3 + 2 * i]);]==])
