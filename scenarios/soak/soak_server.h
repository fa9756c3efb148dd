// The soak's use of the real-server launcher (module/harness/real_server.h): the server
// as the options ask (binary, trafikey.so), DEBUG DIGEST, a broken connection, and the
// tail of a server's log for a failure's facts.
#pragma once

#include <string>
#include <vector>

#include "core/reply.h"
#include "module/harness/real_server.h"
#include "scenarios/soak/soak.h"

namespace trafikey::soak {

real::ServerConfig server_config(const SoakOptions& options, std::vector<std::string> extra_args = {});

// DEBUG DIGEST: the dataset's digest (40 hex characters; all zeros when empty). Throws
// std::runtime_error when the server refuses it.
std::string dataset_digest(real::ServerConnection& connection);

// The launcher's answer for a connection that broke (the server died or closed it).
inline bool connection_lost(const Reply& reply) { return reply.is_error() && reply.text().starts_with("IOERR"); }

// The last `lines` lines of the server's log.
std::string log_tail(const real::RealServer& server, std::size_t lines = 30);

}  // namespace trafikey::soak
