# Mutants of red team 8d's escapes (scale thresholds, scores and ties, faults seen from the
# core, the sweep's order and lanes, replies under partial conditions): 38 unseen wrong cores,
# 6 escaping real bugs; these are caught since the adversarial client sends what they need
# (sim/adversarial_rare_setups.cpp: many_jobs gives one setup in three runs of five equal scores over ids
# carrying a byte 0x01/'a'/0x80/0xff, and its sweep then a LIMIT that may cut a run; its CLAIM
# is over 257..300 jobs one time in three, and one time in two followed by an EXTENDS of every
# id with token 1 and a longer lease, live and not live interleaved; rare_rows puts an id in
# pending and active with its row gone, and a deadline put in active by hand: +inf, 1e300 or
# past int64). Numbered on from 300.
# 300. the sweep orders equal deadlines by signed id bytes (EMQ §1 ties by id bytes, §5 lowest deadline first, lists in judged order). Needs equal expired deadlines over ids with bytes above 0x7f (many_jobs ties).
trafikey_mutant(sweep_orders_ties_by_signed_bytes verb.model verbs/stalled_check.cpp
  [==[  std::vector<Judged> judged;
  judged.reserve(expired.size());]==]
  [==[  // lowest deadline first, ties by id bytes: a stable insertion sort (no header to add)
  // whose tie compares `char`, signed here
  for (std::size_t i = 1; i < expired.size(); ++i) {
    for (std::size_t k = i; k > 0; --k) {
      const ScoredMember& a = expired[k];
      const ScoredMember& b = expired[k - 1];
      const bool less = a.score != b.score ? a.score < b.score
                                           : std::lexicographical_compare(a.member.begin(), a.member.end(),
                                                                          b.member.begin(), b.member.end());
      if (!less) break;
      std::swap(expired[k], expired[k - 1]);
    }
  }
  std::vector<Judged> judged;
  judged.reserve(expired.size());]==])
# 301. EXTENDS's write pass walks pairs with an 8-bit index: live pairs past the 255th answer 1 but are not re-scored or stamped (EMQ §4: every live pair). Needs one EXTENDS of more than 255 live pairs (many_jobs CLAIM then EXTENDS).
trafikey_mutant(extends_write_pass_uint8_index verb.model verbs/extends.cpp
  [==[  for (std::size_t i = 0; i < pairs; ++i) {
    if (!live(i)) continue;]==]
  [==[  for (std::uint8_t i = 0; i < std::min<std::size_t>(pairs, 256) && i < 255; ++i) {
    if (!live(i)) continue;]==])
# 302. EXTENDS reads liveness in one batch of 100: a live pair past the 100th answers 0 (EMQ §4: 1/0 per pair, in order). Needs an EXTENDS of more than 100 live pairs (many_jobs CLAIM then EXTENDS).
trafikey_mutant(extends_live_first_100_pairs queue.fence verbs/extends.cpp
  [==[    reply.items().push_back(Reply::integer(is_live ? 1 : 0));]==]
  [==[    if (i >= 100) is_live = false;  // liveness read in one batch of 100
    reply.items().push_back(Reply::integer(is_live ? 1 : 0));]==])
# 303. the sweep removes a ghost from pending too (EMQ §5: a ghost is ZREM active, nothing else). Needs a ghost in active and pending at once swept (rare_rows case 1, row gone).
trafikey_mutant(sweep_ghost_removed_from_pending_too verb.model verbs/stalled_check.cpp
  [==[        w->zrem(keys.active(), j.id);
        lists[2].items().push_back(Reply::bulk(j.id));]==]
  [==[        w->zrem(keys.active(), j.id);
        w->zrem(keys.pending(), j.id);  // a ghost is gone: everywhere
        lists[2].items().push_back(Reply::bulk(j.id));]==])
# 304. CLAIM removes a ghost from active too (EMQ §4: a ghost is removed from pending, nothing else). Needs a ghost in pending and active at once claimed over (rare_rows case 1, row gone).
trafikey_mutant(claim_ghost_removed_from_active_too verb.model verbs/claim.cpp
  [==[    w.zrem(keys.pending(), j.id);
    if (j.ghost) continue;]==]
  [==[    w.zrem(keys.pending(), j.id);
    if (j.ghost) {
      w.zrem(keys.active(), j.id);  // a ghost is gone: everywhere
      continue;
    }]==])
# 305. liveness reads the deadline as an int64 (EMQ §3: live when deadline >= now; scores are doubles): a deadline of +inf or past 2^63 is taken for expired. Needs a hand-written deadline of +inf, 1e300 or past int64 under a live token (rare_rows case 6).
trafikey_mutant(lease_live_deadline_as_int64 verb.model verbs/common.cpp
  [==[  if (!deadline || *deadline < static_cast<double>(now_ms)) return false;]==]
  [==[  if (!deadline || static_cast<std::int64_t>(*deadline) < now_ms) return false;  // deadlines are whole ms]==])

# 306. CLAIM reads one batch only (COUNT + 8 ids): more than 8 ghosts ahead of the rows cut
# its claims short (EMQ §4: ghosts are not counted toward n; up to n claimed, at most 1000
# ghosts). Needs more than COUNT + 8 ghosts ahead of a row: the many_jobs setup's ghosts,
# whose shortest history is its ADDs, the deletion and the CLAIM (12 calls).
trafikey_mutant(claim_single_batch verb.model verbs/claim.cpp
  [==[        if (payload) j.payload = *payload;  // a copy: the view ends with the read pass
        ++claims;
      }
      judged.push_back(std::move(j));
      if (claims == count || ghosts == claim_ghosts_max) break;
    }
  }]==]
  [==[        if (payload) j.payload = *payload;  // a copy: the view ends with the read pass
        ++claims;
      }
      judged.push_back(std::move(j));
      if (claims == count || ghosts == claim_ghosts_max) break;
    }
    break;
  }]==] 16)
