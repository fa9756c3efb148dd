#include "sim/lua.h"

#include <openssl/evp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/errors.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

namespace trafikey::sim {

namespace {

// ---- Lua state: the sandbox

// One library opened the 5.1 way (through a call, so it gets its environment).
void open_library(lua_State* L, lua_CFunction open, const char* name) {
  lua_pushcfunction(L, open);
  lua_pushstring(L, name);
  lua_call(L, 1, 0);
}

// The command a script's redis.call reaches: the first upvalue of redis.call.
const ScriptCommand& command_of(lua_State* L) {
  return *static_cast<const ScriptCommand*>(lua_touserdata(L, lua_upvalueindex(1)));
}

// A server reply as a Lua value (pushed). Error replies push {err=...}.
void push_reply(lua_State* L, const Reply& r) {
  switch (r.kind()) {
    case Reply::Kind::integer:
      lua_pushnumber(L, static_cast<lua_Number>(r.as_integer()));
      return;
    case Reply::Kind::bulk:
      lua_pushlstring(L, r.text().data(), r.text().size());
      return;
    case Reply::Kind::simple:
    case Reply::Kind::error:
      lua_newtable(L);
      lua_pushstring(L, r.kind() == Reply::Kind::simple ? "ok" : "err");
      lua_pushlstring(L, r.text().data(), r.text().size());
      lua_settable(L, -3);
      return;
    case Reply::Kind::nil:
      lua_pushboolean(L, 0);
      return;
    case Reply::Kind::array: {
      lua_newtable(L);
      int i = 1;
      for (const Reply& item : r.items()) {
        push_reply(L, item);
        lua_rawseti(L, -2, i++);
      }
      return;
    }
  }
}

// redis.call / redis.pcall: the arguments as strings (numbers in Lua's own text), one
// command, the reply as a Lua value. `raise`: an error reply ends the script.
// Lua raises errors with longjmp, which skips C++ destructors: the arguments are checked
// before any object that owns memory exists, those objects live in the inner block, and
// the error is raised only once the block has ended.
int redis_command(lua_State* L, bool raise) {
  const int argc = lua_gettop(L);
  if (argc == 0) {
    return luaL_error(L, "Please specify at least one argument for redis.call()");
  }
  for (int i = 1; i <= argc; ++i) {
    if (lua_type(L, i) != LUA_TSTRING && lua_type(L, i) != LUA_TNUMBER) {
      return luaL_error(L, "Lua redis() command arguments must be strings or integers");
    }
  }
  bool failed = false;
  {
    std::vector<std::string> words;
    words.reserve(static_cast<std::size_t>(argc));
    for (int i = 1; i <= argc; ++i) {
      std::size_t len = 0;
      const char* text = lua_tolstring(L, i, &len);
      words.emplace_back(text, len);
    }
    const std::vector<std::string_view> argv(words.begin(), words.end());
    const Reply reply = Scripting::handles(argv[0])
                            ? Reply::error("ERR This Redis command is not allowed from script")
                            : command_of(L)(Args(argv));
    push_reply(L, reply);  // an error reply is {err=...}
    failed = reply.is_error();
  }
  if (raise && failed) return lua_error(L);  // the {err=...} on top ends the script
  return 1;
}

int redis_call(lua_State* L) { return redis_command(L, true); }
int redis_pcall(lua_State* L) { return redis_command(L, false); }

int redis_table_reply(lua_State* L, const char* field) {
  if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TSTRING) {
    return luaL_error(L, "wrong number or type of arguments");
  }
  lua_newtable(L);
  lua_pushstring(L, field);
  lua_pushvalue(L, 1);
  lua_settable(L, -3);
  return 1;
}
int redis_error_reply(lua_State* L) { return redis_table_reply(L, "err"); }
int redis_status_reply(lua_State* L) { return redis_table_reply(L, "ok"); }

// A fresh sandbox for one script call.
lua_State* new_state(const ScriptCommand& command) {
  lua_State* L = luaL_newstate();
  if (!L) return nullptr;
  open_library(L, luaopen_base, "");
  open_library(L, luaopen_table, LUA_TABLIBNAME);
  open_library(L, luaopen_string, LUA_STRLIBNAME);
  open_library(L, luaopen_math, LUA_MATHLIBNAME);
  // math.random draws from the C library's global state: not deterministic here.
  lua_getglobal(L, "math");
  lua_pushnil(L);
  lua_setfield(L, -2, "random");
  lua_pushnil(L);
  lua_setfield(L, -2, "randomseed");
  lua_pop(L, 1);
  // No loading of other code from a script.
  for (const char* name : {"dofile", "loadfile", "load", "loadstring", "require", "module"}) {
    lua_pushnil(L);
    lua_setglobal(L, name);
  }
  lua_newtable(L);
  const struct {
    const char* name;
    lua_CFunction fn;
    bool needs_command;
  } functions[] = {{"call", redis_call, true},
                   {"pcall", redis_pcall, true},
                   {"error_reply", redis_error_reply, false},
                   {"status_reply", redis_status_reply, false}};
  for (const auto& f : functions) {
    if (f.needs_command) {
      lua_pushlightuserdata(L, const_cast<ScriptCommand*>(&command));
      lua_pushcclosure(L, f.fn, 1);
    } else {
      lua_pushcfunction(L, f.fn);
    }
    lua_setfield(L, -2, f.name);
  }
  lua_setglobal(L, "redis");
  return L;
}

void set_string_array(lua_State* L, const char* name, Args values) {
  lua_newtable(L);
  int i = 1;
  for (std::string_view v : values) {
    lua_pushlstring(L, v.data(), v.size());
    lua_rawseti(L, -2, i++);
  }
  lua_setglobal(L, name);
}

// The value on top of the stack as the client's reply.
Reply to_reply(lua_State* L, int index, int depth = 0) {
  switch (lua_type(L, index)) {
    case LUA_TNUMBER: {
      const double v = lua_tonumber(L, index);
      if (!(v == v)) return Reply::integer(0);
      if (v >= 9.2233720368547758e18) return Reply::integer(INT64_MAX);
      if (v <= -9.2233720368547758e18) return Reply::integer(INT64_MIN);
      return Reply::integer(static_cast<std::int64_t>(v));
    }
    case LUA_TSTRING: {
      std::size_t len = 0;
      const char* text = lua_tolstring(L, index, &len);
      return Reply::bulk(std::string_view(text, len));
    }
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) ? Reply::integer(1) : Reply::nil();
    case LUA_TTABLE: {
      if (depth > 64) return Reply::error("ERR reached lua stack limit");
      const int table = index < 0 ? lua_gettop(L) + index + 1 : index;
      for (const char* field : {"err", "ok"}) {
        lua_getfield(L, table, field);
        if (lua_type(L, -1) == LUA_TSTRING) {
          std::size_t len = 0;
          const char* text = lua_tolstring(L, -1, &len);
          Reply r = field[0] == 'e' ? Reply::error(std::string_view(text, len))
                                    : Reply::simple(std::string_view(text, len));
          lua_pop(L, 1);
          return r;
        }
        lua_pop(L, 1);
      }
      Reply array = Reply::array();
      for (int i = 1;; ++i) {
        lua_rawgeti(L, table, i);
        if (lua_isnil(L, -1)) {
          lua_pop(L, 1);
          break;
        }
        array.items().push_back(to_reply(L, -1, depth + 1));
        lua_pop(L, 1);
      }
      return array;
    }
    default:
      return Reply::nil();
  }
}

std::optional<std::int64_t> parse_numkeys(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Reply wrong_arity(std::string_view name) {
  return Reply::error("ERR wrong number of arguments for '" + lower(name) + "' command");
}

}  // namespace

Reply time_reply(std::int64_t now_ms) {
  const std::int64_t seconds = now_ms >= 0 ? now_ms / 1000 : -((-now_ms + 999) / 1000);
  const std::int64_t micros = (now_ms - seconds * 1000) * 1000;
  return Reply::array_of(Reply::bulk(std::to_string(seconds)), Reply::bulk(std::to_string(micros)));
}

bool Scripting::handles(std::string_view name) {
  return std::any_of(command_names.begin(), command_names.end(),
                     [&](std::string_view command) { return equals_ignore_case(command, name); });
}

std::string Scripting::sha1_hex(std::string_view body) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(body.data(), body.size(), digest, &size, EVP_sha1(), nullptr);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 15];
  }
  return out;
}

std::optional<Reply> Scripting::call(Args argv, const ScriptCommand& command) {
  if (argv.empty() || !handles(argv[0])) return std::nullopt;
  if (equals_ignore_case("SCRIPT", argv[0])) return script(argv);
  if (argv.size() < 3) return wrong_arity(argv[0]);
  if (equals_ignore_case("EVAL", argv[0])) {
    const std::string body(argv[1]);
    scripts_.emplace(sha1_hex(body), body);  // EVAL caches the script, as a server does
    return eval(command, body, argv.subspan(2));
  }
  const auto found = scripts_.find(lower(argv[1]));
  if (found == scripts_.end()) return Reply::error(noscript_error);
  return eval(command, found->second, argv.subspan(2));
}

Reply Scripting::eval(const ScriptCommand& command, const std::string& body, Args rest) {
  const auto numkeys = parse_numkeys(rest[0]);
  if (!numkeys) return Reply::error("ERR value is not an integer or out of range");
  if (*numkeys < 0) return Reply::error("ERR Number of keys can't be negative");
  if (*numkeys > static_cast<std::int64_t>(rest.size() - 1)) {
    return Reply::error("ERR Number of keys can't be greater than number of args");
  }
  lua_State* L = new_state(command);
  if (!L) return Reply::error("ERR cannot start the script engine");
  const auto keys = rest.subspan(1, static_cast<std::size_t>(*numkeys));
  const auto args = rest.subspan(1 + static_cast<std::size_t>(*numkeys));
  set_string_array(L, "KEYS", keys);
  set_string_array(L, "ARGV", args);
  Reply reply = Reply::nil();
  if (luaL_loadbuffer(L, body.data(), body.size(), "@user_script") != 0) {
    reply = Reply::error(std::string("ERR Error compiling script (new function): ") +
                         lua_tostring(L, -1));
  } else if (lua_pcall(L, 0, 1, 0) != 0) {
    // An error reply raised by redis.call ({err=...}) ends the script with that error;
    // any other Lua error is the server's "ERR <message>".
    if (lua_type(L, -1) == LUA_TTABLE) {
      reply = to_reply(L, -1);
      if (!reply.is_error()) reply = Reply::error("ERR script raised a non-error table");
    } else {
      const char* message = lua_tostring(L, -1);
      reply = Reply::error(std::string("ERR ") + (message ? message : "unknown script error"));
    }
  } else {
    reply = to_reply(L, -1);
  }
  lua_close(L);
  return reply;
}

Reply Scripting::script(Args argv) {
  if (argv.size() < 2) return wrong_arity(argv[0]);
  const std::string sub = lower(argv[1]);
  if (sub == "load") {
    if (argv.size() != 3) return wrong_arity("script|load");
    std::string sha = sha1_hex(argv[2]);
    // A script that does not compile is refused and not cached.
    lua_State* L = luaL_newstate();
    const int status = luaL_loadbuffer(L, argv[2].data(), argv[2].size(), "@user_script");
    std::string message = status != 0 ? lua_tostring(L, -1) : "";
    lua_close(L);
    if (status != 0) return Reply::error("ERR Error compiling script (new function): " + message);
    scripts_.emplace(sha, std::string(argv[2]));
    return Reply::bulk(sha);
  }
  if (sub == "exists") {
    if (argv.size() < 3) return wrong_arity("script|exists");
    Reply r = Reply::array();
    for (std::size_t i = 2; i < argv.size(); ++i) {
      r.items().push_back(Reply::integer(scripts_.count(lower(argv[i])) ? 1 : 0));
    }
    return r;
  }
  if (sub == "flush") {
    scripts_.clear();
    return Reply::simple("OK");
  }
  return Reply::error("ERR unknown subcommand '" + std::string(argv[1]) + "'. Try SCRIPT HELP.");
}

}  // namespace trafikey::sim
