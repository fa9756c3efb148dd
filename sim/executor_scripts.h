// The scripted executor (bench/scripts/*.lua): the very files, embedded in the simulator
// at build time (sim/CMakeLists.txt), so generated runs can have workers that claim,
// extend and complete through EVALSHA/EVAL instead of the native verbs. Those leases
// carry no `lease_epoch` written by the script (EMQ §2: only the native writers stamp):
// the rows the seed's fourth history is about.
//
// Embedded rather than read at run time: a simulator binary copied to another machine
// (a sharded campaign) runs the same scripts without the source tree.
#pragma once

#include <string_view>

namespace trafikey::sim {

enum class ExecutorScript : unsigned char { none, claim, extend, complete };

// claim.lua   KEYS pending active            ARGV lease_ms count
// extend.lua  KEYS active row                ARGV id token lease_ms
// complete.lua KEYS active done row          ARGV id token [result]
std::string_view executor_script_body(ExecutorScript script);
// The lowercase hex SHA-1 of the body, as SCRIPT LOAD answers it (EVALSHA's argument).
std::string_view executor_script_sha(ExecutorScript script);
// Which executor script an EVALSHA digest (any case) names; none for any other.
ExecutorScript executor_script_of_sha(std::string_view sha);
// Which executor script an EVAL body is (byte for byte); none for any other.
ExecutorScript executor_script_of_body(std::string_view body);

}  // namespace trafikey::sim
