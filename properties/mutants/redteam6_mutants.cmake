# Mutants of red team 6's escapes: 36 wrong cores, written by two helpers who saw none of
# the earlier ones, that passed 8000 runs each until the adversarial client sent what they need
# (sim/adversarial_*.cpp: numbers past int64 and of 19 digits, counters at the top or
# negative, queue names of 9-16 bytes, CLAIMs without COUNT and over 256 jobs, sweeps over
# 1000 with LIMIT 10000, corrupt rows behind sound ones and past LIMIT, rows without payload
# or with a field of their own, two-pair EXTENDS with one row denied, setups under an ACL,
# done/dead/pending of the wrong type where a verb only reads them, stamps a byte longer,
# run_ids with a NUL or a CR, long failure texts). Numbered on from red team 5.

# 62. an unchecked fast path for 19 digits: a negative 19-digit text wraps to a large positive (EMQ §6, §7). Needs one sent or stored (bad_numbers, corrupt).
trafikey_mutant(parse_19_digits_unchecked verb.model args.cpp
  "  if (digits.size() <= 18) {" "  if (digits.size() <= 19) {")

# 63. leading zeros accepted in texts of 19 bytes or more ("01" alone is refused inline). Needs 0000000000000000001.
trafikey_mutant(checked_parse_accepts_leading_zeros verb.model args.cpp
  [==[  if (digits[0] == '0' && (digits.size() > 1 || negative)) return std::nullopt;  // "01", "-0"
]==] "")

# 64. 9223372036854775808 parsed as int64's min: a seq of 2^63 passes the counter check that INCR refuses. Needs seq 2^63.
trafikey_mutant(checked_parse_min_as_positive verb.model args.cpp
  [==[    if (value == min) return std::nullopt;
]==] "")

# 65. the short-name path copies 8 bytes of q: a 9-16-byte queue's keys get NULs. Needs such a queue written (long_names, 9-16 one time in four).
trafikey_mutant(keys_block_copies_8_bytes_of_queue verb.model keys.cpp
  [==[    copy_bytes(reinterpret_cast<char*>(block) + 5, q.data(), q.size());]==]
  [==[    std::memcpy(block + 5, q.data(), q.size() < 8 ? q.size() : 8);  // one word: queue names are short]==])

# 66. a row counter at 2^63-1 read as valid (EMQ §6: corrupt): CLAIM wraps attempts. Needs corrupt 2^63-1.
trafikey_mutant(row_integer_top_accepted verb.model verbs/common.cpp
  "if (!n || *n < 0 || *n == int64_max) return errors::error(errors::corrupt_row);"
  "if (!n || *n < 0) return errors::error(errors::corrupt_row);")

# 67. a negative seq refused, which INCR takes. Needs seq -5 (the ADD shape).
trafikey_mutant(seq_negative_refused verb.model verbs/common.cpp
  [=[if (!n || *n == int64_max) return errors::error("ERR value]=]
  [=[if (!n || *n < 0 || *n == int64_max) return errors::error("ERR value]=])

# 68. lease_ms 1 refused with the range's own text. Needs a lease of 1 ms.
trafikey_mutant(lease_ms_1_refused_same_text verb.model verbs/common.cpp
  "return parse_ranged(\"lease_ms\", text, 1, score_max);"
  [==[TK_TRY(const std::int64_t ms, parse_ranged("lease_ms", text, 1, score_max));
  if (ms == 1) return errors::integer_range("lease_ms", 1, score_max);  // a 1 ms lease is a typo
  return ms;]==])

# 69. CLAIM without COUNT claims 2 (EMQ §4: 1). Needs such a CLAIM with two pending (two_id_setups, many_jobs).
trafikey_mutant(claim_default_count_2 verb.model verbs/claim.cpp
  "const auto count = static_cast<std::size_t>(options[0]);"
  "const auto count = static_cast<std::size_t>(argv.size() > 3 ? options[0] : 2);")

# 70. a CLAIM that meets only ghosts skips the ACL on pending, then removes them (EMQ §6). Needs it under an ACL on pending (@DENY).
trafikey_mutant(claim_ghosts_skip_pending_acl verb.model verbs/claim.cpp
  "  if (!judged.empty()) TK_CHECK(host.may_write(keys.pending()));"
  "  if (claims > 0) TK_CHECK(host.may_write(keys.pending()));")

# 71. a row without payload refused as corrupt (EMQ §1: read as empty). Needs such a row claimed.
trafikey_mutant(claim_missing_payload_corrupt verb.model verbs/claim.cpp
  "if (payload) j.payload = *payload;"
  "if (!payload) return errors::error(errors::corrupt_row);\n        j.payload = *payload;")

# 72. COUNT capped at 256. Needs a CLAIM of more than 256 (many_jobs, 257-300 one time in eight).
trafikey_mutant(claim_count_capped_at_256 verb.model verbs/claim.cpp
  "const auto count = static_cast<std::size_t>(options[0]);"
  "const auto count = static_cast<std::size_t>(std::min<std::int64_t>(options[0], 256));")

# 73. a corrupt row behind a sound one answers what was claimed (EMQ §6: the whole CLAIM refused). Needs a sound pending row ahead of a corrupt one.
trafikey_mutant(claim_corrupt_after_claims_stops verb.model verbs/claim.cpp
  [==[        TK_TRY(std::int64_t attempts, row_integer(host, j.row, "attempts", 0));]==]
  [==[        auto attempts_or = row_integer(host, j.row, "attempts", 0);
        if (!attempts_or.ok()) {
          // a corrupt row ends the walk, as the ghost bound does: answer what was claimed
          if (claims == 0) return std::move(attempts_or).error();
          ghosts = claim_ghosts_max;
          break;
        }
        const std::int64_t attempts = attempts_or.value();]==])

# 74. EXTEND without the id check: an empty id answered 0, not refused. Needs EXTEND/EXTENDS of "".
trafikey_mutant(extend_skips_id_check verb.model verbs/extend.cpp
  [==[  TK_CHECK(job_id_arg(argv[2]));
]==] "")

# 75. EXTEND's lease_ms narrowed to int. Needs a live lease extended by 2^31 ms.
trafikey_mutant(extend_lease_ms_as_int verb.model verbs/extend.cpp
  "TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));"
  "TK_TRY(const std::int64_t deadline, lease_deadline(now, static_cast<int>(lease_ms)));")

# 76. only the first pair's token range-checked. Needs a bad token in a later pair.
trafikey_mutant(extends_skips_later_pair_checks verb.model verbs/extends.cpp
  [==[    TK_CHECK(token_arg(argv[4 + 2 * i]));
  }]==]
  [==[    if (i == 0) TK_CHECK(token_arg(argv[4 + 2 * i]));  // the rest are read below
  }]==]
  ALSO
  [==[    const LeaseToken token = token_arg(argv[4 + 2 * i]).value();]==]
  [==[    const auto read = token_arg(argv[4 + 2 * i]);
    const LeaseToken token = read.ok() ? read.value() : LeaseToken{};  // a bad token: never live]==])

# 77. a deadline past 2^53-1 answers zeros instead of refusing (EMQ §3). Needs a live lease in such an EXTENDS.
trafikey_mutant(extends_out_of_range_answers_zeros verb.model verbs/extends.cpp
  "  TK_TRY(const std::int64_t deadline, lease_deadline(now, lease_ms));"
  [==[  auto deadline_or = lease_deadline(now, lease_ms);
  if (!deadline_or.ok()) {  // a lease that cannot run that long is not extended
    Reply zeros = Reply::array();
    for (std::size_t i = 0; i < pairs; ++i) zeros.items().push_back(Reply::integer(0));
    return zeros;
  }
  const std::int64_t deadline = deadline_or.value();]==])

# 78. only the first live row's ACL asked. Needs two live leases in one EXTENDS with the second row denied.
trafikey_mutant(extends_acl_first_row_only verb.model verbs/extends.cpp
  "    if (live(i)) TK_CHECK(host.may_write(keys.row_name(argv[3 + 2 * i])));"
  [==[    if (live(i)) {
      TK_CHECK(host.may_write(keys.row_name(argv[3 + 2 * i])));
      break;  // the rows of one queue share one ACL pattern
    }]==])

# 79. done's type checked only when the lease is live (EMQ §6: before anything). Needs done wrong and a token not live.
trafikey_mutant(complete_done_type_only_when_live verb.model verbs/complete.cpp
  [==[  TK_CHECK(expect_zsets(host, {keys.active(), keys.done()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);]==]
  [==[  TK_CHECK(expect_zsets(host, {keys.active()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_CHECK(expect_type(host, keys.done(), KeyType::zset));  // done is written only when live]==])

# 80. ADD asks the ACL before it finds the row there: an ADD of an existing id answers NOPERM (0, nothing to write). Needs it under an ACL on the row.
trafikey_mutant(add_acl_before_exists verb.model verbs/add.cpp
  [==[  TK_TRY(KeyType row_type, host.type(row));
  if (row_type != KeyType::none) return Reply::integer(0);
  TK_CHECK(may_write_all(host, {row, keys.seq(), keys.pending()}));]==]
  [==[  TK_CHECK(may_write_all(host, {row, keys.seq(), keys.pending()}));
  TK_TRY(KeyType row_type, host.type(row));
  if (row_type != KeyType::none) return Reply::integer(0);]==])

# 81. MAXFAILURES clamped to 1000 (EMQ §7: up to 1000000). Needs an ADD that adds with a budget above 1000.
trafikey_mutant(add_max_failures_clamped_1000 verb.model verbs/add.cpp
  "const std::string max_failures = std::to_string(options[0]);"
  "const std::string max_failures = std::to_string(options[0] > 1000 ? 1000 : options[0]);")

# 82. JOB lists only EMQ §1's fields (every field, EMQ §4). Needs a row with another field read.
trafikey_mutant(job_lists_known_fields_only verb.model verbs/job.cpp
  [==[  for (const auto& fv : fields) {
    reply.items().push_back(Reply::bulk(fv.field));]==]
  [==[  static constexpr std::string_view known[] = {"attempts", "dead_reason", "error",  "failures",
                                                "group",    "lease_epoch", "max_failures", "payload",
                                                "result",   "stalled",     "state"};
  for (const auto& fv : fields) {
    if (std::find(std::begin(known), std::end(known), fv.field) == std::end(known)) continue;
    reply.items().push_back(Reply::bulk(fv.field));]==])

# 83. a done or dead key of the wrong type counted as 0 (EMQ §6: WRONGTYPE). Needs STATS with done or dead wrong.
trafikey_mutant(stats_wrongtype_done_dead_as_zero verb.model verbs/stats.cpp
  "    TK_TRY(const std::int64_t n, host.zcard(key));"
  [==[    auto counted = host.zcard(key);
    // done and dead are history: a set an operator broke counts as empty
    if (!counted.ok() && label != "done" && label != "dead") return std::move(counted).error();
    const std::int64_t n = counted.ok() ? counted.value() : 0;]==])

# 84. judges every expired member, then cuts the list to LIMIT: a corrupt row past LIMIT refuses the sweep. Needs a corrupt row behind LIMIT 1.
trafikey_mutant(sweep_judges_past_limit verb.model verbs/stalled_check.cpp
  [==[  TK_TRY(auto expired, host.zrange_by_score(keys.active(), static_cast<double>(now),
                                            static_cast<std::size_t>(options[0])));

  std::vector<Judged> judged;
  judged.reserve(expired.size());
  for (auto& member : expired) {
    Judged j{std::move(member.member), {}, {}};
    j.row = keys.row_name(j.id);
    MemberSeen seen;
    for (;;) {
      TK_TRY(MemberStep step, decide_member(run_id, max_stalled, seen));
      if (auto* verdict = std::get_if<Verdict>(&step)) {
        j.verdict = *verdict;
        break;
      }
      TK_CHECK(read_for(host, j.row, std::get<MemberRead>(step), seen));
    }
    judged.push_back(std::move(j));
  }
]==]
  [==[  TK_TRY(auto expired, host.zrange_by_score(keys.active(), static_cast<double>(now),
                                            static_cast<std::size_t>(-1)));

  std::vector<Judged> judged;
  judged.reserve(expired.size());
  for (auto& member : expired) {
    Judged j{std::move(member.member), {}, {}};
    j.row = keys.row_name(j.id);
    MemberSeen seen;
    for (;;) {
      TK_TRY(MemberStep step, decide_member(run_id, max_stalled, seen));
      if (auto* verdict = std::get_if<Verdict>(&step)) {
        j.verdict = *verdict;
        break;
      }
      TK_CHECK(read_for(host, j.row, std::get<MemberRead>(step), seen));
    }
    judged.push_back(std::move(j));
  }
  if (judged.size() > static_cast<std::size_t>(options[0])) judged.resize(static_cast<std::size_t>(options[0]));
]==])

# 85. LIMIT above 1000 taken as 1000. Needs a sweep over 1001-1010 expired with LIMIT 10000.
trafikey_mutant(sweep_limit_capped_at_1000 verb.model verbs/stalled_check.cpp
  [==[static_cast<std::size_t>(options[0])));]==]
  [==[static_cast<std::size_t>(std::min<std::int64_t>(options[0], 1000))));]==])

# 86. the sweep does not type-check dead. Needs dead a hash when a sweep kills.
trafikey_mutant(sweep_skips_dead_type verb.model verbs/stalled_check.cpp
  [==[expect_zsets(host, {keys.active(), keys.pending(), keys.dead()})]==]
  [==[expect_zsets(host, {keys.active(), keys.pending()})]==])

# 87. the sweep asks the ACL for a ghost's row key (never written). Needs a ghost swept with its row key denied.
trafikey_mutant(sweep_acl_checks_ghost_rows verb.model verbs/stalled_check.cpp
  [==[if (kind != VerdictKind::ghost && kind != VerdictKind::lane) TK_CHECK(host.may_write(j.row));]==]
  [==[if (kind != VerdictKind::lane) TK_CHECK(host.may_write(j.row));]==])

# 88. the sweep reads state and takes a row not saying active for a ghost (EMQ §5 reads type, group, stamp, stalled). Needs such a row expired in active.
trafikey_mutant(sweep_state_not_active_is_ghost verb.model verbs/stalled_check.cpp
  [==[    judged.push_back(std::move(j));]==]
  [==[    if (j.verdict.kind != VerdictKind::ghost && j.verdict.kind != VerdictKind::lane) {
      TK_TRY(auto state, host.hget(j.row, "state"));
      if (state != "active") j.verdict = Verdict{VerdictKind::ghost};
    }
    judged.push_back(std::move(j));]==])

# 89. stalled at 2^63-1 not refused: the count wraps. Needs corrupt 2^63-1 on a counted lease.
trafikey_mutant(sweep_stalled_top_not_corrupt verb.model decide/sweep.cpp
  [==[if (!parsed || *parsed < 0 || *parsed == int64_max) return errors::error(errors::corrupt_row);]==]
  [==[if (!parsed || *parsed < 0) return errors::error(errors::corrupt_row);]==])

# 90. a stamp compared over the run_id's length only: the run_id with a byte more is this process. Needs that stamp.
trafikey_mutant(exempt_strncmp verb.model decide/sweep.cpp
  [==[if (Epoch::exempt(stamp_view, run_id))]==]
  [==[if (!stamp_view || stamp_view->compare(0, run_id.size(), run_id) != 0)]==])

# 91. the run_id's shape check stops at a NUL. Needs a malformed run_id with a NUL (world.cpp).
trafikey_mutant(run_id_nul_ends_check epoch.load epoch.cpp
  [==[  for (char c : id) {
]==]
  [==[  for (char c : id) {
    if (c == '\0') break;  // end of the C string
]==])

# 92. seq checked before the branch: a FAIL that dead-letters refuses on a bad seq. Needs a bad seq and a budget of 1.
trafikey_mutant(fail_checks_seq_on_dead_path verb.model verbs/fail.cpp
  [==[  if (f < budget) {
    TK_CHECK(expect_counter(host, keys.seq()));
]==]
  [==[  TK_CHECK(expect_counter(host, keys.seq()));
  if (f < budget) {
]==])

# 93. the reason cut to 256 bytes (EMQ §1: opaque). Needs a long reason (long_names).
trafikey_mutant(fail_reason_cut_at_256 verb.model verbs/fail.cpp
  [==[const std::string_view reason = argv[4];]==]
  [==[const std::string_view reason = argv[4].substr(0, 256);]==])

# 94. each row's ACL asked inside the write loop: a partial write, then NOPERM (verb.atomic). Needs the second row of a multi-pair EXTENDS denied.
trafikey_mutant(extends_row_acl_while_writing verb.atomic verbs/extends.cpp
  [==[  for (std::size_t i = 0; i < pairs; ++i) {
    if (live(i)) TK_CHECK(host.may_write(keys.row_name(argv[3 + 2 * i])));
  }
  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"lease_epoch", run_id}};
  for (std::size_t i = 0; i < pairs; ++i) {
    if (!live(i)) continue;
]==]
  [==[  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"lease_epoch", run_id}};
  for (std::size_t i = 0; i < pairs; ++i) {
    if (!live(i)) continue;
    TK_CHECK(host.may_write(keys.row_name(argv[3 + 2 * i])));
]==])

# 95. pending's type checked only on the requeue path (EMQ §6: WRONGTYPE first). Needs pending a hash when FAIL dead-letters.
trafikey_mutant(fail_dead_skips_pending_type verb.model verbs/fail.cpp
  [==[  TK_CHECK(expect_zsets(host, {keys.active(), keys.pending(), keys.dead()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_TRY(const std::int64_t failures, row_integer(host, row, "failures", 0));
  TK_TRY(const std::int64_t budget, row_integer(host, row, "max_failures", max_failures_default));
  const std::int64_t f = failures + 1;
  const std::string f_text = std::to_string(f);

  if (f < budget) {
    TK_CHECK(expect_counter(host, keys.seq()));
]==]
  [==[  TK_CHECK(expect_zsets(host, {keys.active(), keys.dead()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_TRY(const std::int64_t failures, row_integer(host, row, "failures", 0));
  TK_TRY(const std::int64_t budget, row_integer(host, row, "max_failures", max_failures_default));
  const std::int64_t f = failures + 1;
  const std::string f_text = std::to_string(f);

  if (f < budget) {
    TK_CHECK(expect_type(host, keys.pending(), KeyType::zset));
    TK_CHECK(expect_counter(host, keys.seq()));
]==])

# 96. a trailing CR trimmed before the run_id's shape check, the raw value kept. Needs a malformed run_id ending in CR.
trafikey_mutant(run_id_trims_cr epoch.load epoch.cpp
  [==[  if (id.size() != run_id_len) return false;
]==]
  [==[  if (!id.empty() && id.back() == '\r') id.remove_suffix(1);  // INFO lines end in \r\n
  if (id.size() != run_id_len) return false;
]==])

# 97. dead only when stalled+1 equals max_stalled: a row already past it recovers. Needs stalled above the sweep's budget.
trafikey_mutant(sweep_dead_only_at_equality epoch.counted decide/sweep.cpp
  [==[after >= max_stalled ?]==]
  [==[after == max_stalled ?]==])
