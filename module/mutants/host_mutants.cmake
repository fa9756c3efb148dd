# Wrong module hosts (issue 33): each one mistake in module/, of the kinds a module host
# makes and the sim never runs (module/host.cpp is the server's side of core/host.h),
# built as a trafikey.so of its own. The differential campaign alone must catch each at
# its CI budget: the sim and a real server loaded with it disagree, or the real run's own
# checks break (module/mutants/CMakeLists.txt).
#
# trafikey_module_mutant(NAME FILE OLD NEW): module/FILE with OLD (once in it) made NEW.

# reads: the score of a zset member read through a float: a lease's deadline (a server time
# in ms, about 2^40) comes back rounded to 2^17 ms, so a live lease reads as expired or
# an expired one as live
trafikey_module_mutant(zscore_read_through_float host.cpp
  "return std::optional<double>(score);"
  "return std::optional<double>(static_cast<float>(score));")

# writes: HSET writes every field but the last on this server, and replicates them all
trafikey_module_mutant(hset_skips_the_last_field_here host.cpp
  "for (std::size_t i = 1; written && i + 1 < argv.size(); i += 2) {"
  "for (std::size_t i = 1; written && i + 3 < argv.size(); i += 2) {")

# replication: a ZREM is applied here but never propagated: the append-only file (and a
# replica that follows the stream) keeps the member, so a restart brings it back
trafikey_module_mutant(zrem_not_replicated host.cpp
  "  api.Replicate(ctx_, \"ZREM\", \"ss\", k, m.get());\n"
  "")

# bounds: the range of expired leases taken up to the deadline inclusive (EMQ: a lease is
# live until its deadline, exclusive): a lease ending at this very millisecond is swept
trafikey_module_mutant(zrange_by_score_inclusive host.cpp
  "return scan_zset(ctx_, k, max_exclusive, true, limit);"
  "return scan_zset(ctx_, k, max_exclusive, false, limit);")

# the fence: a writing verb asks only whether the server is read-only or loading, not
# whether it is a replica: a replica with replica-read-only off takes the write (EMQ §6)
trafikey_module_mutant(fence_misses_a_writable_replica host.cpp
  "if (flags & (abi::ctx_flags_replica | abi::ctx_flags_readonly | abi::ctx_flags_loading)) {"
  "if (flags & (abi::ctx_flags_readonly | abi::ctx_flags_loading)) {")

# access: the ACL is asked whether the user may read the key, not write it (EMQ §6)
trafikey_module_mutant(acl_asked_about_reading host.cpp
  "if (api.ACLCheckKeyPermissions(user_, name(key), write_key_flags) != abi::ok) {"
  "if (api.ACLCheckKeyPermissions(user_, name(key), abi::key_access) != abi::ok) {")
