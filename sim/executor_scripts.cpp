#include "sim/executor_scripts.h"

#include <array>
#include <string>

#include "core/args.h"
#include "sim/lua.h"

namespace trafikey::sim {

// Defined in the file sim/CMakeLists.txt generates from bench/scripts/*.lua.
namespace embedded {
std::string_view claim_lua();
std::string_view extend_lua();
std::string_view complete_lua();
}  // namespace embedded

std::string_view executor_script_body(ExecutorScript script) {
  switch (script) {
    case ExecutorScript::claim: return embedded::claim_lua();
    case ExecutorScript::extend: return embedded::extend_lua();
    case ExecutorScript::complete: return embedded::complete_lua();
    case ExecutorScript::none: break;
  }
  return {};
}

std::string_view executor_script_sha(ExecutorScript script) {
  // computed once: a digest per scripted call would cost more than the call
  static const std::array<std::string, 4> shas{
      std::string(), Scripting::sha1_hex(embedded::claim_lua()), Scripting::sha1_hex(embedded::extend_lua()),
      Scripting::sha1_hex(embedded::complete_lua())};
  return shas[static_cast<std::size_t>(script)];
}

ExecutorScript executor_script_of_sha(std::string_view sha) {
  for (ExecutorScript s : {ExecutorScript::claim, ExecutorScript::extend, ExecutorScript::complete}) {
    if (equals_ignore_case(sha, executor_script_sha(s))) return s;
  }
  return ExecutorScript::none;
}

ExecutorScript executor_script_of_body(std::string_view body) {
  for (ExecutorScript s : {ExecutorScript::claim, ExecutorScript::extend, ExecutorScript::complete}) {
    if (body == executor_script_body(s)) return s;
  }
  return ExecutorScript::none;
}

}  // namespace trafikey::sim
