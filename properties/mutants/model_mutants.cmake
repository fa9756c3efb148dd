# Mutants that break no other invariant: a reply or a written value that EMQ.md does not
# allow. Each must be caught by `verb.model` (the model of properties/model/), and
# mutant_main checks that it is that invariant which catches it.
# (When trafikey_mutant takes the invariant as an argument, these become
# trafikey_mutant(NAME verb.model FILE OLD NEW).)
function(trafikey_model_mutant name file old new)
  trafikey_mutant(${name} ${file} "${old}" "${new}")
  target_compile_definitions(trafikey_mutant_${name} PRIVATE TRAFIKEY_MUTANT_INVARIANT="verb.model")
endfunction()

# 9. COUNT bound: CLAIM hands out one job fewer than COUNT while more are pending.
trafikey_model_mutant(claim_one_short_of_count verbs/claim.cpp
  "const auto count = static_cast<std::size_t>(options[0]);"
  "const auto count = static_cast<std::size_t>(options[0] > 1 ? options[0] - 1 : 1);")
# 10. Live-window boundary: the sweep takes a lease whose deadline is now as expired
#     (deadline <= now), though it is live through its deadline (EMQ §3).
trafikey_model_mutant(sweep_expires_at_the_deadline verbs/stalled_check.cpp
  "host.zrange_by_score(keys.active(), static_cast<double>(now),"
  "host.zrange_by_score(keys.active(), static_cast<double>(now + 1),")
# 11. A wrong field value: FAIL's requeue writes the token where the reason belongs.
trafikey_model_mutant(fail_writes_token_as_error verbs/fail.cpp
  [=[FieldRef{"failures", f_text},
                            FieldRef{"error", reason}};]=]
  [=[FieldRef{"failures", f_text},
                            FieldRef{"error", argv[3]}};]=])
# 12. Deadline arithmetic: a lease runs one millisecond short (now + lease_ms - 1).
trafikey_model_mutant(deadline_one_ms_short verbs/common.cpp
  "  return now_ms + lease_ms;\n"
  "  return now_ms + lease_ms - 1;\n")
