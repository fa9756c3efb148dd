# Mutants of red team 5's escapes: each passed 8000 runs of the campaign until the adversarial
# client sent what it needs (sim/adversarial_*.cpp, sim/run_adversarial_client.cpp). The model judged each
# exactly whenever the situation arose; the histories never reached it: no token of 2^63-1,
# no row saying active whose id had left active, no CLAIM or sweep over more than 100 jobs,
# no name longer than 16 bytes written, no payload past a few bytes, no keyword with a
# byte after it, an ACL that denied only pending or active, a wrong type only in pending or
# active, no stamp that differs from the run_id only in case.

# 44. A token of 2^63-1 refused (EMQ §7: tokens are 1..2^63-1): EXTEND answers an error
#     where the lease is simply not live (0). Needs a lease verb with that token.
trafikey_mutant(attempts_top_refused verb.model verbs/common.cpp
  [=[return parse_ranged("attempts", text, 1, int64_max);]=]
  [=[TK_TRY(const std::int64_t v, parse_ranged("attempts", text, 1, int64_max));
  if (v == int64_max) return errors::integer_range("attempts", 1, int64_max);
  return v;]=])
# 45. A lease taken for live without its id in active (EMQ §3: live needs the id in active
#     at a deadline not passed): a row that says active with the token is enough. Needs a
#     row saying active whose id is not in active (lease-verb-met-row-off-active).
trafikey_mutant(lease_live_without_active_member verb.model verbs/common.cpp
  "if (!deadline || *deadline < static_cast<double>(now_ms)) return false;"
  "if (deadline && *deadline < static_cast<double>(now_ms)) return false;")
# 46. COUNT capped at 100 (EMQ §4: up to COUNT, at most 1000). Needs a CLAIM of more than
#     100 jobs (claim-granted-over-100).
trafikey_mutant(claim_count_capped_at_100 verb.model verbs/claim.cpp
  "const auto count = static_cast<std::size_t>(options[0]);"
  "const auto count = static_cast<std::size_t>(std::min<std::int64_t>(options[0], 100));")
# 47. The sweep's default LIMIT 100, not 1000 (EMQ §4). Needs a sweep without LIMIT that
#     meets more than 100 expired leases (sweep-default-limit-over-100).
trafikey_mutant(sweep_limit_default_100 verb.model verbs/stalled_check.cpp
  "const std::array specs{limit_option};" [=[const std::array specs{OptionSpec{"LIMIT", "limit", 1, 10000, 100}};]=])
# 48. Key names of 17..24-byte parts built with bytes missing (a widened copy fast path):
#     a job id of that length has its row written under another name. Needs a long id
#     written (long-names-written).
trafikey_mutant(keys_copy_fast_path_widened verb.model keys.cpp
  "if (n >= 8 && n <= 16) {" "if (n >= 8 && n <= 24) {\n    std::memset(to, '?', n);")
# 49. A queue name past 16 bytes keyed without its hash tag (EMQ §1: emq:{q}:...). Needs a
#     long queue name written (long-names-written).
trafikey_mutant(keys_long_queue_drops_hash_tag verb.model keys.cpp
  [=[    put("emq:{");
    put(q);
    put("}:");]=]
  [=[    put("emq:");
    put(q);
    put(":");]=])
# 50. A job id's colons replaced in its row's name (EMQ §1: an id is any bytes but NUL).
#     Needs an id with a colon written (long-names-written).
trafikey_mutant(keys_row_sanitizes_id verb.model keys.cpp
  "  copy_bytes(out + prefix_len_ + 4, id.data(), id.size());\n"
  [=[  copy_bytes(out + prefix_len_ + 4, id.data(), id.size());
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (out[prefix_len_ + 4 + i] == ':') out[prefix_len_ + 4 + i] = '_';
  }
]=])
# 51. A payload cut at 4096 bytes (EMQ §1: opaque bytes, kept whole). Needs a payload past
#     4096 bytes added (long-payload-added).
trafikey_mutant(add_payload_cut_at_4096 verb.model verbs/add.cpp
  [=[FieldRef{"payload", argv[3]}]=] [=[FieldRef{"payload", argv[3].substr(0, 4096)}]=])
# 52. An option keyword matched by its prefix (EMQ §7: the keywords COUNT, LIMIT and
#     MAXFAILURES in any case, nothing else): COUNTX is taken for COUNT. Needs a keyword
#     with a byte after it.
trafikey_mutant(option_keyword_prefix verb.model args.cpp
  "if (equals_ignore_case(rest[pos], specs[i].keyword)) which = i;"
  "if (equals_ignore_case(rest[pos].substr(0, specs[i].keyword.size()), specs[i].keyword)) which = i;")
# 53-58. A verb that does not ask may_write of one key it writes (EMQ §6: every key before
#     the first write, NOPERM EMQ and nothing written). Each needs an ACL that denies that
#     very key when the verb writes it (write-refused-by-acl, any of the queue's keys).
trafikey_mutant(add_skips_row_acl verb.model verbs/add.cpp
  "may_write_all(host, {row, keys.seq(), keys.pending()})" "may_write_all(host, {keys.seq(), keys.pending()})")
# (claim_skips_row_acl: since red team 8d's setups the CI seed first catches it where six
# ADDs and two CLAIMs of COUNT 3 bring the denied row's job to the head of pending; the
# minimizer removes one step at a time, and each of those is needed alone: 10 calls.)
trafikey_mutant(claim_skips_row_acl verb.model verbs/claim.cpp
  "    if (!j.ghost) TK_CHECK(host.may_write(j.row));\n" "" 10)
trafikey_mutant(extend_skips_row_acl verb.model verbs/extend.cpp
  "may_write_all(host, {keys.active(), row})" "may_write_all(host, {keys.active()})")
trafikey_mutant(complete_skips_done_acl verb.model verbs/complete.cpp
  "may_write_all(host, {keys.active(), keys.done(), row})" "may_write_all(host, {keys.active(), row})")
trafikey_mutant(fail_requeue_skips_seq_acl verb.model verbs/fail.cpp
  "may_write_all(host, {keys.active(), keys.seq(), keys.pending(), row})"
  "may_write_all(host, {keys.active(), keys.pending(), row})")
trafikey_mutant(sweep_skips_row_acl verb.model verbs/stalled_check.cpp
  "if (kind != VerdictKind::ghost && kind != VerdictKind::lane) TK_CHECK(host.may_write(j.row));"
  "(void)kind;")
# 59-60. A set key of another type not refused (EMQ §6: WRONGTYPE before any write): done
#     for COMPLETE, dead for FAIL. Needs done or dead made a hash under a live lease.
trafikey_mutant(complete_skips_done_type verb.model verbs/complete.cpp
  "expect_zsets(host, {keys.active(), keys.done()})" "expect_zsets(host, {keys.active()})")
trafikey_mutant(fail_skips_dead_type verb.model verbs/fail.cpp
  "expect_zsets(host, {keys.active(), keys.pending(), keys.dead()})" "expect_zsets(host, {keys.active(), keys.pending()})")
# 61. The exemption blind to case (EMQ §2: a stamp that differs from the run_id in any byte
#     is another process's): a stamp of the run_id in upper case is counted. Needs such a
#     stamp on an expired lease (sweep-met-stamp-differing-in-case).
trafikey_mutant(exempt_ignores_case epoch.exempt decide/sweep.cpp
  "if (Epoch::exempt(stamp_view, run_id))"
  [=[if (!stamp_view || stamp_view->size() != run_id.size() ||
      !std::equal(stamp_view->begin(), stamp_view->end(), run_id.begin(),
                  [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); }))]=])
