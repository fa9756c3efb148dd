#include "module/send_reply.h"

namespace trafikey::module {

using abi::api;

void send_reply(abi::Ctx* ctx, const Reply& reply) {
  switch (reply.kind()) {
    case Reply::Kind::integer:
      api.ReplyWithLongLong(ctx, static_cast<long long>(reply.as_integer()));
      return;
    case Reply::Kind::simple:
      api.ReplyWithSimpleString(ctx, reply.text().c_str());
      return;
    case Reply::Kind::bulk:
      api.ReplyWithStringBuffer(ctx, reply.text().data(), reply.text().size());
      return;
    case Reply::Kind::nil:
      api.ReplyWithNull(ctx);
      return;
    case Reply::Kind::error:
      api.ReplyWithError(ctx, reply.text().c_str());
      return;
    case Reply::Kind::array:
      api.ReplyWithArray(ctx, static_cast<long>(reply.items().size()));
      for (const Reply& item : reply.items()) send_reply(ctx, item);
      return;
  }
}

}  // namespace trafikey::module
