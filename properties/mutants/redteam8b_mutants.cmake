# Mutants of red team 8b's escapes: 51 unseen wrong cores of the verbs ADD, EXTEND, EXTENDS,
# COMPLETE, FAIL, JOB, STATS, their shared checks (verbs/common.cpp), the argument parser
# and the error texts; these 6 passed 8000 runs until the adversarial client sent what they need
# (sim/adversarial_calls.cpp, sim/adversarial_corrupt_rows.cpp: a sign on a number of 19 digits or more, a set key holding a string,
# failures past 32 bits or one below int64's top on a budget of 0, a JOB of a row with a
# field name above 0x7f, an active row saying done, dead or no state under a live deadline,
# a replica's ADD of an id that exists). Numbered on from 150.

# 150. the checked parser takes a leading '+' (EMQ §6, §7: integers as the server writes them): +9223372036854775807 is a token. Needs a signed number of 19+ digits as a token (bad_numbers).
trafikey_mutant(checked_parse_accepts_plus verb.model args.cpp
  [==[std::string_view digits = negative ? text.substr(1) : text;]==]
  [==[std::string_view digits = negative || text[0] == '+' ? text.substr(1) : text;]==])

# 151. a queue key refused only when it is a hash (EMQ §6: WRONGTYPE for any type but the table's): a string pending/active/done/dead is read as empty. Needs a set key SET to a string (case 5).
trafikey_mutant(expect_type_refuses_only_hash verb.model verbs/common.cpp
  [==[if (type != KeyType::none && type != want) return]==]
  [==[if (type == KeyType::hash && want != KeyType::hash) return]==])

# 152. failures narrowed to int before the +1 (EMQ §4: f = failures + 1, any non-negative integer of §6): 2^32 failures are written back as 1. Needs failures past 32 bits or near int64's top on a budget of 0.
trafikey_mutant(fail_failures_narrowed_to_int verb.model verbs/fail.cpp
  [==[const std::int64_t f = failures + 1;]==]
  [==[const std::int64_t f = static_cast<int>(failures) + 1;]==])

# 153. JOB sorts field names by signed chars (EMQ §4: sorted by field name, the same bytes on every host): a name with a byte above 0x7f comes first. Needs a JOB of a row with such a field (two_id_setups case 8).
trafikey_mutant(job_sorts_by_signed_bytes verb.model verbs/job.cpp
  [==[return a.field < b.field;]==]
  [==[return std::lexicographical_compare(a.field.begin(), a.field.end(), b.field.begin(), b.field.end());]==])

# 154. liveness refuses only a row saying pending (EMQ §3: state must be active): a row saying done, dead or nothing, in active with its token, is extended, completed or failed. Needs such a row under a live deadline.
trafikey_mutant(lease_live_only_pending_not_live verb.model verbs/common.cpp
  [==[  if (state != "active") return false;
]==]
  [==[  if (state == "pending") return false;  // back in the queue: no lease
]==])

# 155. ADD of an existing id answers 0 before the fence (EMQ §6: a writing verb on a replica refuses, READONLY EMQ). Needs a replica's ADD of an id whose row exists (draw_fleet_call).
trafikey_mutant(add_fence_after_exists verb.model verbs/add.cpp
  [==[  TK_CHECK(host.fence());

  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_type(host, keys.pending(), KeyType::zset));
  TK_CHECK(expect_counter(host, keys.seq()));
  TK_TRY(KeyType row_type, host.type(row));
  if (row_type != KeyType::none) return Reply::integer(0);
]==]
  [==[
  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_type(host, keys.pending(), KeyType::zset));
  TK_CHECK(expect_counter(host, keys.seq()));
  TK_TRY(KeyType row_type, host.type(row));
  if (row_type != KeyType::none) return Reply::integer(0);  // nothing to write: no fence to pass
  TK_CHECK(host.fence());
]==])
