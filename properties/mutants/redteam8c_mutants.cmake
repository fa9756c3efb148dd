# Mutants of red team 8c's escapes (cross-cutting bug classes over all of core/: state that
# outlives a call, validation order, iteration order and ties, two queues, reply shapes and
# binary-safe bulks, the epoch, time). 34 unseen wrong cores, 5 escaping real bugs; these 4
# are caught since the generators send what they need: the sloppy fleet's binary payload and
# result/failure text carry a CRLF (sim/run_fleet.cpp binary_payload, binary_text), a CLAIM of
# COUNT 1 or without COUNT meets a corrupt row behind a sound one (two_id_setups case 1), a
# FAIL meets dead a hash with a token that is not live, or pending a hash with no lease at all
# (sim/adversarial_corrupt_rows.cpp set_key_of_wrong_type). The fifth (a sweep's judged list kept in a thread_local past a
# refused sweep) is caught too (a sound member then a corrupt one, without LIMIT: case 2) but
# its state lives across runs of one process, so its history does not replay alone and the
# self-test cannot minimize it: left out. Numbered on from red team 8a.

# 200. FAIL trims a trailing line end off the reason (EMQ §1, §4: error is the reason's bytes). Needs a reason ending in CR/LF (the sloppy fleet's binary text).
trafikey_mutant(fail_reason_trims_line_end verb.model verbs/fail.cpp
  [==[  const std::string_view reason = argv[4];]==]
  [==[  std::string_view reason = argv[4];
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == '\r')) reason.remove_suffix(1);]==])

# 201. COMPLETE keeps the result only up to its first CRLF (EMQ §1: result is opaque bytes). Needs a result with a CRLF (the sloppy fleet's binary text).
trafikey_mutant(complete_result_cut_at_crlf verb.model verbs/complete.cpp
  [==[FieldRef{"result", argv.size() > 4 ? argv[4] : ""}};]==]
  [==[FieldRef{"result", argv.size() > 4 ? argv[4].substr(0, argv[4].find("\r\n")) : ""}};]==])

# 202. CLAIM validates every row of the batch it read, past COUNT: a corrupt row behind the claimed ones refuses the call (EMQ §4: lowest first, up to n; only rows it claims are read). Needs CLAIM COUNT 1 (or none) over a sound row and a corrupt one behind it.
trafikey_mutant(claim_validates_past_count queue.conserve verbs/claim.cpp
  [==[      judged.push_back(std::move(j));
      if (claims == count || ghosts == claim_ghosts_max) break;]==]
  [==[      judged.push_back(std::move(j));
      if (claims == count || ghosts == claim_ghosts_max) {
        // the rest of the batch read is validated too
        for (auto& rest_id : std::span(ids).subspan(static_cast<std::size_t>(&id - ids.data()) + 1)) {
          const KeyName rest = keys.row_name(rest_id);
          TK_TRY(KeyType rest_type, host.type(rest));
          if (rest_type == KeyType::hash) TK_CHECK(row_integer(host, rest, "attempts", 0));
        }
        break;
      }]==])

# 203. FAIL type-checks pending and dead only once the lease is live (EMQ §6: WRONGTYPE when a queue key holds the wrong type, before anything): a FAIL that is not live answers 0. Needs FAIL with dead or pending a hash and no live lease.
trafikey_mutant(fail_set_types_only_when_live verb.model verbs/fail.cpp
  [==[  TK_CHECK(expect_zsets(host, {keys.active(), keys.pending(), keys.dead()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);]==]
  [==[  TK_CHECK(expect_zsets(host, {keys.active()}));
  TK_TRY(const bool live, lease_live(host, keys, argv[2], row, token, now));
  if (!live) return Reply::integer(0);
  TK_CHECK(expect_zsets(host, {keys.pending(), keys.dead()}));]==])
