#include "core/commands.h"

#include <array>

#include "core/errors.h"
#include "core/verbs/common.h"

namespace trafikey {

namespace {
constexpr std::string_view writer = "write deny-oom";
constexpr std::string_view reader = "readonly fast";
constexpr int extends_arity_max = 3 + 2 * static_cast<int>(verbs::extends_pairs_max);

constexpr std::array table{
    CommandSpec{VerbId::add, "EMQ.ADD", 4, 6, true, writer, 1, 1, 1, verbs::add,
                "EMQ.ADD q id payload [MAXFAILURES n]"},
    CommandSpec{VerbId::claim, "EMQ.CLAIM", 3, 7, true, writer, 1, 1, 1, verbs::claim,
                "EMQ.CLAIM q lease_ms [COUNT n] [WIRE w]"},
    CommandSpec{VerbId::extend, "EMQ.EXTEND", 5, 5, true, writer, 1, 1, 1, verbs::extend,
                "EMQ.EXTEND q id attempts lease_ms"},
    CommandSpec{VerbId::extends, "EMQ.EXTENDS", 5, extends_arity_max, true, writer, 1, 1, 1, verbs::extends,
                "EMQ.EXTENDS q lease_ms id attempts [id attempts ...]"},
    CommandSpec{VerbId::complete, "EMQ.COMPLETE", 4, 5, true, writer, 1, 1, 1, verbs::complete,
                "EMQ.COMPLETE q id attempts [result]"},
    CommandSpec{VerbId::fail, "EMQ.FAIL", 5, 5, true, writer, 1, 1, 1, verbs::fail,
                "EMQ.FAIL q id attempts reason"},
    CommandSpec{VerbId::stalled_check, "EMQ.STALLED.CHECK", 3, 5, true, writer, 1, 1, 1, verbs::stalled_check,
                "EMQ.STALLED.CHECK q max_stalled [LIMIT n]"},
    CommandSpec{VerbId::stats, "EMQ.STATS", 2, 2, false, reader, 1, 1, 1, verbs::stats, "EMQ.STATS q"},
    CommandSpec{VerbId::job, "EMQ.JOB", 3, 3, false, reader, 1, 1, 1, verbs::job, "EMQ.JOB q id"},
    CommandSpec{VerbId::epoch, "EMQ.EPOCH", 1, 1, false, reader, 0, 0, 0, verbs::epoch, "EMQ.EPOCH"},
};

constexpr bool ids_in_table_order() {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (static_cast<std::size_t>(table[i].id) != i) return false;
  }
  return true;
}
static_assert(ids_in_table_order(), "VerbId lists the verbs in table order");
}  // namespace

std::span<const CommandSpec> command_table() { return table; }

const CommandSpec* find_command(std::string_view name) {
  for (const auto& spec : table) {
    if (equals_ignore_case(spec.name, name)) return &spec;
  }
  return nullptr;
}

Reply execute(Host& host, const CommandSpec& spec, Args argv) {
  const auto argc = static_cast<int>(argv.size());
  if (argc < spec.arity_min || argc > spec.arity_max) return errors::error(errors::wrong_arity);
  return spec.handler(host, argv);
}

}  // namespace trafikey
