#include "core/tests/server_under_test.h"

namespace trafikey::test {

Reply Claimed(std::string_view id, std::int64_t attempts, std::string_view payload) {
  return Arr({Bulk(id), Int(attempts), Bulk(payload)});
}

Reply Swept(std::vector<std::string> recovered, std::vector<std::string> dead,
            std::vector<std::string> ghosts, std::vector<std::string> lanes) {
  auto ids = [](const std::vector<std::string>& v) {
    Reply r = Arr();
    for (const auto& id : v) r.items().push_back(Bulk(id));
    return r;
  };
  return Arr({Bulk("recovered"), ids(recovered), Bulk("dead"), ids(dead), Bulk("ghosts"),
              ids(ghosts), Bulk("lanes"), ids(lanes)});
}

std::string subst(std::string_view text) {
  std::string out(text);
  const std::pair<std::string_view, std::string_view> tokens[] = {{"<NOW>", NOW},
                                                                  {"<OTHER>", OTHER}};
  for (const auto& [token, value] : tokens) {
    for (auto at = out.find(token); at != std::string::npos; at = out.find(token, at)) {
      out.replace(at, token.size(), value);
      at += value.size();
    }
  }
  return out;
}

std::string lines(std::initializer_list<std::string_view> items) {
  std::string out;
  for (auto item : items) {
    out += subst(item);
    out += '\n';
  }
  return out;
}

std::vector<std::string> list(std::initializer_list<std::string_view> items) {
  std::vector<std::string> out;
  for (auto item : items) out.push_back(subst(item));
  return out;
}

// ---- TracingHost

void TracingHost::read(std::string entry) {
  if (inner_writer_) {
    ADD_FAILURE() << "two passes broken: '" << entry << "' after the write pass began";
  }
  reads.push_back(std::move(entry));
}

namespace {
std::string join(std::string_view a, std::string_view b) {
  std::string out(a);
  out += ' ';
  out += b;
  return out;
}
}  // namespace

Outcome<KeyType> TracingHost::type(std::string_view key) {
  read(join("TYPE", key));
  return inner_->type(key);
}

Outcome<std::optional<std::string_view>> TracingHost::get(std::string_view key) {
  read(join("GET", key));
  return inner_->get(key);
}

Outcome<std::optional<std::string_view>> TracingHost::hget(std::string_view key,
                                                      std::string_view field) {
  read(join(join("HGET", key), field));
  return inner_->hget(key, field);
}

Outcome<std::vector<FieldValue>> TracingHost::hgetall(std::string_view key) {
  read(join("HGETALL", key));
  return inner_->hgetall(key);
}

Outcome<std::optional<double>> TracingHost::zscore(std::string_view key,
                                                   std::string_view member) {
  read(join(join("ZSCORE", key), member));
  return inner_->zscore(key, member);
}

Outcome<std::int64_t> TracingHost::zcard(std::string_view key) {
  read(join("ZCARD", key));
  return inner_->zcard(key);
}

Outcome<std::vector<ScoredMember>> TracingHost::zrange_by_score(std::string_view key,
                                                               double max_exclusive,
                                                               std::size_t limit) {
  read(join("ZRANGEBYSCORE", key) + " -inf (" + sim::format_score(max_exclusive) +
       " LIMIT 0 " + std::to_string(limit));
  return inner_->zrange_by_score(key, max_exclusive, limit);
}

Outcome<std::vector<std::string>> TracingHost::zrange_by_rank(std::string_view key,
                                                             std::int64_t start,
                                                             std::int64_t stop) {
  read(join("ZRANGE", key) + " " + std::to_string(start) + " " + std::to_string(stop));
  return inner_->zrange_by_rank(key, start, stop);
}

Outcome<std::int64_t> TracingHost::now_ms() {
  read("TIME");
  return inner_->now_ms();
}

Status TracingHost::fence() {
  read("FENCE");
  return inner_->fence();
}

Status TracingHost::may_write(std::string_view key) {
  read(join("ACL", key));
  return inner_->may_write(key);
}

Writer& TracingHost::begin_writes() {
  ++writers_taken;
  if (!inner_writer_) inner_writer_ = &inner_->begin_writes();
  return *this;
}

void TracingHost::hset(std::string_view key, std::span<const FieldRef> fields) {
  std::string entry = join("HSET", key);
  for (const auto& fv : fields) entry += join(join("", fv.field), fv.value);
  writes.push_back(std::move(entry));
  inner_writer_->hset(key, fields);
}

void TracingHost::zadd(std::string_view key, std::int64_t score, std::string_view member) {
  writes.push_back(join(join("ZADD", key), std::to_string(score)) + " " + std::string(member));
  inner_writer_->zadd(key, score, member);
}

void TracingHost::zrem(std::string_view key, std::string_view member) {
  writes.push_back(join(join("ZREM", key), member));
  inner_writer_->zrem(key, member);
}

std::int64_t TracingHost::incr(std::string_view key) {
  writes.push_back(join("INCR", key));
  return inner_writer_->incr(key);
}

// ---- ServerUnderTest

ServerUnderTest::ServerUnderTest(std::string_view run_id, std::int64_t now_ms) {
  server.start(std::string(run_id));
  server.set_now_ms(now_ms);
}

namespace {
std::vector<std::string_view> views(const std::vector<std::string>& argv) {
  return {argv.begin(), argv.end()};
}
}  // namespace

Reply ServerUnderTest::call(const std::vector<std::string>& argv) {
  if (!argv.empty() && server.incarnation().module_loaded && find_command(argv[0])) {
    return core_call(argv);
  }
  return client_call(argv);
}

Reply ServerUnderTest::client_call(const std::vector<std::string>& argv) {
  const auto v = views(argv);
  return server.call(v);
}

Reply ServerUnderTest::core_call(const std::vector<std::string>& argv) {
  const auto v = views(argv);
  const CommandSpec* spec = find_command(v.at(0));
  EXPECT_NE(spec, nullptr) << v.at(0) << " is not in the command table";
  if (!spec) return Err("not an EMQ verb");
  tracer.reset();  // logs and the two-pass check are per call
  server.begin_call();
  return execute(tracer, *spec, v);
}

}  // namespace trafikey::test
