# Mutants of red team 9a's escapes (values and lengths in realistic ranges, parsing and
# formatting): 46 unseen wrong cores, 31 escaping real bugs and 2 equivalent; these 31 are
# caught since the generators send what they need. sim/adversarial_value_edges.cpp (one adversarial
# call in twenty of those that set up nothing else): FAIL and the sweep against budgets of two
# digits or more (10 .. 10^6) with counts just below them, ending in 9, or (stalled) far past
# them; live leases holding tokens of two digits or past 2^31, 2^32, 2^53 (deadlines sometimes
# +inf, 1e300, 2^63) met with that token or one 1 or 2^32 off; a CLAIM of attempts ending in 9;
# ids, payloads and texts that look like numbers (10, 007, -1, 1e3), MAXFAILURES 1000000; JOB
# of fields named near EMQ §1's (upper case, a prefix, 8 bytes shared, differing after a NUL,
# bytes above 0x7f) or of 13..29 fields; counters with a trailing space, line end or NUL or a
# leading tab (attempts 01, +1, 001 too, on a live lease beside a sound one), and seq so or
# with a leading zero or '+'. bad_numbers adds "1 ", "10\r\n", "1\0", "1\00"; many_jobs
# and the 1001 ghosts are followed by STATS; long_names' payloads take 65535..65537 bytes; a
# sloppy fleet's payloads (jN, N = 4 mod 5), results and failure texts (N = 0, 3 mod 4) take
# edge lengths (15..17, 22..24, 31..33, 63..65, 127, 128, 255..257, 511, 512, 1023..1025) or
# numeric texts (sim/run_fleet.cpp edge_value). Coverage: six new situations (sim/situations.h). Numbered
# from 400.

# 400. FAIL compares failures + 1 with max_failures as text (EMQ §4: f < max_failures, numbers):
#   with a budget of 10, the second failure ("2" >= "10") dead-letters. Needs a FAIL against a
#   budget of two digits with a failure counted (value_edges 0).
trafikey_mutant(fail_budget_compared_as_text queue.budget verbs/fail.cpp
  [==[  if (f < budget) {]==]
  [==[  if (f_text < std::to_string(budget)) {  // both as the row holds them]==])

# 401. the sweep compares stalled + 1 with max_stalled as text (EMQ §5: s >= max_stalled): at
#   max_stalled 10 a second counted stall ("2" >= "10") dead-letters. Needs a sweep with a budget of
#   two digits over a lease already stalled (value_edges 1).
trafikey_mutant(sweep_budget_compared_as_text epoch.counted decide/sweep.cpp
  [==[after >= max_stalled ?]==]
  [==[std::to_string(after) >= std::to_string(max_stalled) ?]==])

# 402. CLAIM writes the new attempts by bumping the row text's last digit, a 9 carrying into a new
#   leading 1 (EMQ §4: attempts + 1): 19 becomes 110. Needs a CLAIM of a row whose attempts ends in
#   9 with two digits or more (value_edges 3).
trafikey_mutant(claim_token_text_carry verb.model verbs/claim.cpp
  [==[        j.attempts = std::to_string(j.token);]==]
  [==[        // the next token's text from the row's own, without a conversion: bump the last
        // digit; a 9 carries into a new leading 1
        TK_TRY(auto held_text, host.hget(j.row, "attempts"));
        j.attempts = held_text ? std::string(*held_text) : std::string("0");
        if (j.attempts.back() < '9') {
          ++j.attempts.back();
        } else {
          j.attempts.back() = '0';
          j.attempts.insert(0, "1");
        }]==])

# 403. FAIL bumps the failures text the same way (EMQ §4: f = failures + 1): 19 becomes 110. Needs a
#   FAIL of a row whose failures ends in 9 with two digits or more (value_edges 0).
trafikey_mutant(fail_failures_text_carry verb.model verbs/fail.cpp
  [==[  const std::string f_text = std::to_string(f);]==]
  [==[  TK_TRY(auto failures_text, host.hget(row, "failures"));
  std::string f_text = failures_text ? std::string(*failures_text) : std::string("0");
  if (f_text.back() < '9') {
    ++f_text.back();
  } else {
    f_text.back() = '0';
    f_text.insert(0, "1");
  }]==])

# 404. liveness compares the token and the row's attempts as doubles, as scores are (EMQ §3:
#   attempts equals the token): past 2^53 a token one off is live. Needs a live lease past 2^53 met
#   with a neighbouring token (value_edges 2).
trafikey_mutant(lease_live_token_as_double verb.model verbs/common.cpp
  [==[  return attempts && parse_int64(*attempts) == token;]==]
  [==[  if (!attempts) return false;
  const auto held = parse_int64(*attempts);
  return held && static_cast<double>(*held) == static_cast<double>(token);  // as scores are compared]==])

# 405. the token of EXTEND, COMPLETE and FAIL is kept in 32 bits (EMQ §7: 1..2^63-1): a live lease
#   whose token is past 2^31 is not live. Needs a live lease past 2^31 met by its holder
#   (value_edges 2). Caught first by verb.model: the reply the model predicts for that call.
trafikey_mutant(lease_token_narrowed_to_int32 verb.model verbs/common.cpp
  [==[  return parse_ranged("attempts", text, 1, int64_max);]==]
  [==[  TK_TRY(const std::int64_t v, parse_ranged("attempts", text, 1, int64_max));
  return static_cast<std::int64_t>(static_cast<std::int32_t>(v));  // a token is an int]==])

# 406. liveness compares the low 32 bits of token and attempts (EMQ §3): a token 2^32 away from the
#   row's is live. Needs a live lease met with a token 2^32 off (value_edges 2).
trafikey_mutant(lease_live_compares_low_32_bits verb.model verbs/common.cpp
  [==[  return attempts && parse_int64(*attempts) == token;]==]
  [==[  if (!attempts) return false;
  const auto held = parse_int64(*attempts);
  return held && static_cast<std::int32_t>(*held) == static_cast<std::int32_t>(token);]==])

# 407. EXTENDS keeps each pair's token in 32 bits (EMQ §4, §7): a live pair whose token is past 2^31
#   answers 0. Needs an EXTENDS of a live lease past 2^31 (value_edges 2). Caught first by
#   verb.model: the reply the model predicts for that call.
trafikey_mutant(extends_token_narrowed_to_int32 verb.model verbs/extends.cpp
  [==[    const LeaseToken token = token_arg(argv[4 + 2 * i]).value();]==]
  [==[    LeaseToken token = token_arg(argv[4 + 2 * i]).value();
    token.attempts = static_cast<std::int32_t>(token.attempts);]==])

# 408. JOB sorts field names case-insensitively (EMQ §4: by field name, the same bytes on every
#   host): "Zeta" comes after "state". Needs a row with an upper-case field name read by JOB
#   (value_edges 5).
trafikey_mutant(job_sorts_fields_ignoring_case verb.model verbs/job.cpp
  [==[return a.field < b.field;]==]
  [==[auto lo = [](char c) { return static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c + 32 : c); };
              return std::lexicographical_compare(a.field.begin(), a.field.end(), b.field.begin(), b.field.end(),
                                                  [&](char x, char y) { return lo(x) < lo(y); });]==])

# 409. JOB compares field names over the shorter one's length only (a memcmp without the length
#   tie-break): "stat" and "state" keep the row's order. Needs a field named as a prefix of another,
#   written after it (value_edges 5).
trafikey_mutant(job_sorts_fields_by_common_prefix verb.model verbs/job.cpp
  [==[return a.field < b.field;]==]
  [==[return std::memcmp(a.field.data(), b.field.data(), std::min(a.field.size(), b.field.size())) < 0;]==])

# 410. JOB sorts by the first 8 bytes of each name as one word (EMQ §4): "max_failures_b" and
#   "max_failures_a" keep the row's order. Needs two fields sharing their first 8 bytes written in
#   descending order (value_edges 5).
trafikey_mutant(job_sorts_fields_by_8_byte_key verb.model verbs/job.cpp
  [==[return a.field < b.field;]==]
  [==[auto key = [](const std::string& s) {  // field names differ in their first bytes: one word compares
              std::uint64_t k = 0;
              for (std::size_t i = 0; i < 8; ++i) k = k << 8 | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0u);
              return k;
            };
            return key(a.field) < key(b.field);]==])

# 411. JOB compares field names with strcmp (EMQ §1: any bytes): names that differ after a NUL keep
#   the row's order. Needs two such fields written in descending order (value_edges 5).
trafikey_mutant(job_sorts_fields_as_c_strings verb.model verbs/job.cpp
  [==[return a.field < b.field;]==]
  [==[return std::strcmp(a.field.c_str(), b.field.c_str()) < 0;]==])

# 412. CLAIM answers a payload that reads as an integer with an integer reply (EMQ §4: the payload
#   is a bulk): "10" comes back as :10. Needs a numeric-looking payload claimed (value_edges 4, the
#   sloppy fleet's jN, N = 4 mod 5).
trafikey_mutant(claim_numeric_payload_as_integer verb.model verbs/claim.cpp
  [==[                                            Reply::bulk_of(std::move(j.payload))));]==]
  [==[                                            parse_int64(j.payload) ? Reply::integer(*parse_int64(j.payload)) : Reply::bulk_of(std::move(j.payload))));]==])

# 413. the sweep lists a dead id that reads as an integer as an integer reply (EMQ §4: bulk
#   strings). Needs a numeric id dead-lettered by a sweep (value_edges 4).
trafikey_mutant(sweep_numeric_dead_ids_as_integers epoch.counted verbs/stalled_check.cpp
  [==[        lists[1].items().push_back(Reply::bulk(j.id));]==]
  [==[        lists[1].items().push_back(parse_int64(j.id) ? Reply::integer(*parse_int64(j.id)) : Reply::bulk(j.id));]==])

# 414. CLAIM answers an id that reads as an integer with an integer reply (EMQ §4: [id bulk,
#   attempts integer, payload bulk]). Needs a numeric id claimed (value_edges 4).
trafikey_mutant(claim_numeric_id_as_integer verb.model verbs/claim.cpp
  [==[    reply.items().push_back(Reply::array_of(Reply::bulk_of(std::move(j.id)),]==]
  [==[    reply.items().push_back(Reply::array_of(parse_int64(j.id) ? Reply::integer(*parse_int64(j.id)) : Reply::bulk_of(std::move(j.id)),]==])

# 415. ADD stores a payload of digits as the number it spells (EMQ §1: opaque bytes): "007" is
#   written "7". Needs a payload of digits with a leading zero added (value_edges 4, the sloppy
#   fleet).
trafikey_mutant(add_numeric_payload_normalized verb.model verbs/add.cpp
  [==[  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"state", "pending"}, FieldRef{"payload", argv[3]},]==]
  [==[  // a payload that is a number is kept as one (leading zeros are the client's formatting)
  std::string payload_text(argv[3]);
  if (!payload_text.empty() && payload_text.size() < 19 &&
      payload_text.find_first_not_of("0123456789") == std::string::npos) {
    payload_text = std::to_string(std::stoll(payload_text));
  }
  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"state", "pending"}, FieldRef{"payload", payload_text},]==])

# 416. STATS counts a set by reading one page of 1000 members (EMQ §4: ZCARD): a set of 1001 counts
#   1000. Needs STATS over more than 1000 members (many_jobs' sweeps past 1000, the 1001 ghosts,
#   each now followed by STATS).
trafikey_mutant(stats_counts_one_page_of_1000 verb.model verbs/stats.cpp
  [==[    TK_TRY(const std::int64_t n, host.zcard(key));]==]
  [==[    TK_TRY(const auto page, host.zrange_by_rank(key, 0, 999));  // counted a page at a time, one page
    const auto n = static_cast<std::int64_t>(page.size());]==])

# 417. STATS keeps each count in 8 bits (EMQ §4): 257 counts 1. Needs STATS over more than 255
#   members (many_jobs, now with STATS).
trafikey_mutant(stats_count_in_a_byte verb.model verbs/stats.cpp
  [==[    TK_TRY(const std::int64_t n, host.zcard(key));]==]
  [==[    TK_TRY(const std::int64_t card, host.zcard(key));
    const std::uint8_t n = static_cast<std::uint8_t>(card);]==])

# 418. CLAIM copies payloads of up to 1024 bytes through a 256-byte buffer (EMQ §1: opaque): a
#   payload of 256..1024 bytes is answered cut at 255. Needs a payload of that size claimed (the
#   sloppy fleet's edge lengths).
trafikey_mutant(claim_mid_size_payload_cut_at_255 verb.model verbs/claim.cpp
  [==[if (payload) j.payload = *payload;]==]
  [==[if (payload) j.payload = payload->size() <= 1024 ? payload->substr(0, 255) : *payload;  // small values through a 256-byte buffer]==])

# 419. COMPLETE keeps a result of exactly 32 bytes in a 32-byte buffer with its NUL (EMQ §4: the
#   result written as given): its last byte is lost. Needs a result of 32 bytes (the sloppy fleet's
#   edge lengths).
trafikey_mutant(complete_result_of_32_bytes_cut verb.model verbs/complete.cpp
  [==[FieldRef{"result", argv.size() > 4 ? argv[4] : ""}};]==]
  [==[FieldRef{"result", argv.size() > 4 ? (argv[4].size() == 32 ? argv[4].substr(0, 31) : argv[4]) : ""}};  // up to 32 inline, its NUL included]==])

# 420. FAIL keeps a reason of exactly 64 bytes in a 64-byte buffer with its NUL (EMQ §4: error =
#   reason): its last byte is lost. Needs a failure text of 64 bytes (the sloppy fleet's edge
#   lengths).
trafikey_mutant(fail_reason_of_64_bytes_cut verb.model verbs/fail.cpp
  [==[  const std::string_view reason = argv[4];]==]
  [==[  const std::string_view reason = argv[4].size() == 64 ? argv[4].substr(0, 63) : argv[4];  // 64 inline, its NUL included]==])

# 421. ADD keeps a payload of exactly 16 bytes in a 16-byte buffer with its NUL (EMQ §1): its last
#   byte is lost. Needs a payload of 16 bytes (the sloppy fleet's edge lengths).
trafikey_mutant(add_payload_of_16_bytes_cut verb.model verbs/add.cpp
  [==[FieldRef{"payload", argv[3]}]==]
  [==[FieldRef{"payload", argv[3].size() == 16 ? argv[3].substr(0, 15) : argv[3]}]==])

# 422. the argument parser drops a trailing space, CR or LF (EMQ §6, §7: integers as the server
#   writes them): "1 " is a token, "10\r\n" a lease. Needs such a number sent (bad_numbers).
trafikey_mutant(argument_parse_trims_line_end verb.model args.cpp
  [==[  auto v = parse_int64(text);
  if (!v || *v < lo || *v > hi)]==]
  [==[  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  auto v = parse_int64(text);
  if (!v || *v < lo || *v > hi)]==])

# 423. the argument parser stops at a NUL, as strtoll's end pointer does (EMQ §6, §7): "1\0" and
#   "1\00" read as 1. Needs such a number sent (bad_numbers).
trafikey_mutant(argument_parse_stops_at_nul verb.model args.cpp
  [==[  auto v = parse_int64(text);
  if (!v || *v < lo || *v > hi)]==]
  [==[  text = text.substr(0, text.find('\0'));  // strtoll's end: the C string's
  auto v = parse_int64(text);
  if (!v || *v < lo || *v > hi)]==])

# 424. a row counter is read with its trailing space or line end dropped (EMQ §6: not a non-negative
#   integer, corrupt): attempts "1 " is claimed as token 2. Needs a counter so written met by CLAIM,
#   FAIL or the sweep (value_edges 6).
trafikey_mutant(row_counter_parse_trims_space verb.model verbs/common.cpp
  [==[  if (!value) return fallback;
  auto n = parse_int64(*value);]==]
  [==[  if (!value) return fallback;
  std::string_view held = *value;
  while (!held.empty() && (held.back() == ' ' || held.back() == '\n' || held.back() == '\r')) held.remove_suffix(1);
  auto n = parse_int64(held);]==])

# 425. the sweep keeps max_stalled in 16 bits (EMQ §7: 1..1000000): 65536 is 0 and kills every
#   counted lease, 1000000 is 16960. Needs a sweep with such a budget over a counted lease
#   (value_edges 1).
trafikey_mutant(sweep_max_stalled_in_16_bits epoch.counted verbs/stalled_check.cpp
  [==[  TK_TRY(const std::int64_t max_stalled,
         parse_ranged("max_stalled", argv[2], 1, max_stalled_max));]==]
  [==[  TK_TRY(const std::int64_t max_stalled_arg,
         parse_ranged("max_stalled", argv[2], 1, max_stalled_max));
  const std::uint16_t max_stalled = static_cast<std::uint16_t>(max_stalled_arg);]==])

# 426. FAIL compares with max_failures kept in 16 bits (EMQ §7): a budget of 65536 is 0 and every
#   failure dead-letters. Needs a FAIL against such a budget (value_edges 0).
trafikey_mutant(fail_budget_in_16_bits queue.budget verbs/fail.cpp
  [==[  if (f < budget) {]==]
  [==[  if (f < static_cast<std::uint16_t>(budget)) {  // budgets fit 16 bits]==])

# 427. ADD writes max_failures through "%g" (EMQ §1: the budget as a number): 1000000 is written
#   "1e+06". Needs an ADD with MAXFAILURES 1000000 of a new id (value_edges 4).
trafikey_mutant(add_max_failures_written_by_g_format verb.model verbs/add.cpp
  [==[const std::string max_failures = std::to_string(options[0]);]==]
  [==[char budget_text[32];
  std::snprintf(budget_text, sizeof budget_text, "%g", static_cast<double>(options[0]));
  const std::string max_failures = budget_text;]==])

# 428. JOB answers at most eleven fields, a reply sized for EMQ §1's table (EMQ §4: the row). Needs
#   a row of more than eleven fields read by JOB (value_edges 5, 8 to 24 fields more).
trafikey_mutant(job_lists_at_most_11_fields verb.model verbs/job.cpp
  [==[  Reply reply = Reply::array();
  for (const auto& fv : fields) {]==]
  [==[  if (fields.size() > 11) fields.resize(11);  // a reply sized for EMQ §1's eleven fields
  Reply reply = Reply::array();
  for (const auto& fv : fields) {]==])

# 429. the seq check drops a trailing space or line end (EMQ §6: the server's INCR refuses "5 "), so
#   ADD answers 1 where the server refuses. Needs seq so written met by ADD (value_edges 6).
trafikey_mutant(seq_check_trims_line_end verb.model verbs/common.cpp
  [==[  if (value) {
    auto n = parse_int64(*value);]==]
  [==[  if (value) {
    std::string_view held = *value;
    while (!held.empty() && (held.back() == ' ' || held.back() == '\n' || held.back() == '\r')) held.remove_suffix(1);
    auto n = parse_int64(held);]==])

# 430. the seq check reads "05" as 5, as strtoll does (EMQ §6: INCR refuses it). Needs seq with a
#   leading zero met by ADD (value_edges 6).
trafikey_mutant(seq_check_takes_leading_zeros verb.model verbs/common.cpp
  [==[  if (value) {
    auto n = parse_int64(*value);]==]
  [==[  if (value) {
    std::string_view held = *value;
    while (held.size() > 1 && held[0] == '0') held.remove_prefix(1);  // "05" is 5 to strtoll
    auto n = parse_int64(held);]==])
