# Mutants that break no other invariant: a reply or a written value that EMQ.md does not
# allow. Each must be caught by `verb.model` (the model of properties/model/).

# 9. COUNT bound: CLAIM hands out one job fewer than COUNT while more are pending.
trafikey_mutant(claim_one_short_of_count verb.model verbs/claim.cpp
  "const auto count = static_cast<std::size_t>(options[0]);"
  "const auto count = static_cast<std::size_t>(options[0] > 1 ? options[0] - 1 : 1);")
# 10. Live-window boundary: the sweep takes a lease whose deadline is now as expired
#     (deadline <= now), though it is live through its deadline (EMQ §3).
trafikey_mutant(sweep_expires_at_the_deadline verb.model verbs/stalled_check.cpp
  "host.zrange_by_score(keys.active(), static_cast<double>(now),"
  "host.zrange_by_score(keys.active(), static_cast<double>(now + 1),")
# 11. A wrong field value: FAIL's requeue writes the token where the reason belongs.
trafikey_mutant(fail_writes_token_as_error verb.model verbs/fail.cpp
  [=[FieldRef{"failures", f_text},
                            FieldRef{"error", reason}};]=]
  [=[FieldRef{"failures", f_text},
                            FieldRef{"error", argv[3]}};]=])
# 12. Deadline arithmetic: a lease runs one millisecond short (now + lease_ms - 1).
trafikey_mutant(deadline_one_ms_short verb.model verbs/common.cpp
  "  return now_ms + lease_ms;\n"
  "  return now_ms + lease_ms - 1;\n")
