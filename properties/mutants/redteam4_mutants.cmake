# Mutants of red team 4's escapes: each passed every run of every property until the adversarial
# client sent what it needs (sim/adversarial_*.cpp, sim/run_adversarial_client.cpp): a call to a server
# made a replica, an ADD of an existing id with a budget its row does not hold, an ADD of
# a ghost's id, a lane row whose group is empty, a call under an ACL that denies a key.

# 39. EXTEND without the fence (EMQ §6): a replica extends a lease. No run called a server
#     that was not a writable primary. Needs an adversarial call to a replica (write-refused-on-a-replica).
trafikey_mutant(extend_without_fence verb.model verbs/extend.cpp
  "  TK_CHECK(host.fence());\n" "")
# 40. ADD of an existing id takes its MAXFAILURES as an update (EMQ §4: 0, nothing
#     written). Needs an ADD of an existing id with a MAXFAILURES its row does not hold.
trafikey_mutant(add_existing_updates_max_failures verb.atomic verbs/add.cpp
  "  if (row_type != KeyType::none) return Reply::integer(0);\n"
  [=[  if (row_type != KeyType::none) {
    if (argv.size() > 4 && row_type == KeyType::hash) {
      const std::array budget{FieldRef{"max_failures", max_failures}};
      host.begin_writes().hset(row, budget);
    }
    return Reply::integer(0);
  }
]=])
# 41. ADD refuses an id still in pending (EMQ §4 asks only whether the row key exists: a
#     ghost's id is added again, 1). Needs add-of-a-ghost-id.
trafikey_mutant(add_refuses_a_ghost_id_in_pending verb.model verbs/add.cpp
  "  if (row_type != KeyType::none) return Reply::integer(0);\n"
  [=[  if (row_type != KeyType::none) return Reply::integer(0);
  TK_TRY(auto queued, host.zscore(keys.pending(), argv[2]));
  if (queued) return Reply::integer(0);
]=])
# 42. An empty group taken for none (EMQ §1: a row with the field is a lane row): the sweep
#     counts a lane row. Needs sweep-met-empty-group-lane (a sloppy fleet's lane_mark).
trafikey_mutant(empty_group_not_a_lane verb.model decide/sweep.cpp
  "if (seen.group->has_value())" "if (seen.group->has_value() && !(*seen.group)->empty())")
# 43. CLAIM without the ACL check on active (EMQ §6: every key it will write, before the
#     first write): a caller that may not write active claims. No run denied any write.
#     Needs an adversarial call under an ACL (write-refused-by-acl).
trafikey_mutant(claim_without_access_check verb.model verbs/claim.cpp
  "  if (claims > 0) TK_CHECK(host.may_write(keys.active()));\n" "")
