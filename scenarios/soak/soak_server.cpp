#include "scenarios/soak/soak_server.h"

#include <stdexcept>

#include "scenarios/soak/part_run.h"

namespace trafikey::soak {

real::ServerConfig server_config(const SoakOptions& options, std::vector<std::string> extra_args) {
  real::ServerConfig config;
  config.binary = options.server_bin;
  config.module_path = options.module_path;
  config.extra_args = std::move(extra_args);
  return config;
}

std::string dataset_digest(real::ServerConnection& connection) {
  const Reply r = connection.call({"DEBUG", "DIGEST"});
  if (r.kind() != Reply::Kind::simple && r.kind() != Reply::Kind::bulk) {
    throw std::runtime_error("DEBUG DIGEST answered " + render_reply(r));
  }
  return r.text();
}

std::string log_tail(const real::RealServer& server, std::size_t lines) {
  const std::string log = server.log();
  std::size_t at = log.size();
  for (std::size_t seen = 0; at > 0 && seen <= lines;) {
    --at;
    if (log[at] == '\n') ++seen;
  }
  return log.substr(at == 0 ? 0 : at + 1);
}

}  // namespace trafikey::soak
