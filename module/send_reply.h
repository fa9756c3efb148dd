// Turns a core Reply (shared spec EMQ §4) into the module's reply to the client.
#pragma once

#include "core/reply.h"
#include "module/abi.h"

namespace trafikey::module {

// integer -> integer, simple -> status, bulk -> bulk string (binary-safe), nil -> null,
// error -> error (its text already starts with the code), array -> array, recursively.
void send_reply(abi::Ctx* ctx, const Reply& reply);

}  // namespace trafikey::module
