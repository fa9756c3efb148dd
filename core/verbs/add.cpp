// EMQ.ADD q id payload [MAXFAILURES n]  (shared spec EMQ §4)
// 1 added; 0 when the row key already exists (nothing written).
#include <array>

#include "core/verbs/common.h"

namespace trafikey::verbs {

Reply add(Host& host, Args argv) {
  TK_CHECK(queue_arg(argv[1]));
  TK_CHECK(job_id_arg(argv[2]));
  const std::array specs{max_failures_option};
  TK_TRY(auto options, parse_options(argv.subspan(4), specs));
  const std::string max_failures = std::to_string(options[0]);
  TK_CHECK(host.fence());

  const QueueKeys keys(argv[1]);
  const KeyName row = keys.row_name(argv[2]);
  TK_CHECK(expect_type(host, keys.pending(), KeyType::zset));
  TK_CHECK(expect_counter(host, keys.seq()));
  TK_TRY(KeyType row_type, host.type(row));
  if (row_type != KeyType::none) return Reply::integer(0);
  TK_CHECK(may_write_all(host, {row, keys.seq(), keys.pending()}));

  Writer& w = host.begin_writes();
  const std::array fields{FieldRef{"state", "pending"}, FieldRef{"payload", argv[3]},
                          FieldRef{"attempts", "0"}, FieldRef{"failures", "0"},
                          FieldRef{"max_failures", max_failures}};
  w.hset(row, fields);
  const std::int64_t order = w.incr(keys.seq());
  w.zadd(keys.pending(), order, argv[2]);
  return Reply::integer(1);
}

}  // namespace trafikey::verbs
