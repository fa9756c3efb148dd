#include "sim/history_read.h"

#include "sim/history.h"

#include <algorithm>

#include "sim/world.h"

namespace trafikey::sim {

std::optional<std::string> HistoryLine::text(const char* field) const {
  if (!fields.contains(field) || !fields[field].is_string()) return std::nullopt;
  return history_bytes(fields[field].get_ref<const std::string&>());
}

std::optional<std::int64_t> HistoryLine::integer(const char* field) const {
  if (!fields.contains(field) || !fields[field].is_number_integer()) return std::nullopt;
  return fields[field].get<std::int64_t>();
}

bool HistoryLine::flag(const char* field, bool otherwise) const {
  if (!fields.contains(field) || !fields[field].is_boolean()) return otherwise;
  return fields[field].get<bool>();
}

std::vector<std::string_view> history_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::optional<Reply> reply_of_history_json(const HistoryJson& j) {
  const auto bytes = [](const HistoryJson& s) { return history_bytes(s.get_ref<const std::string&>()); };
  if (j.is_number_integer()) return Reply::integer(j.get<std::int64_t>());
  if (j.is_string()) return Reply::bulk(bytes(j));
  if (j.is_null()) return Reply::nil();
  if (j.is_array()) {
    Reply out = Reply::array();
    for (const HistoryJson& item : j) {
      auto r = reply_of_history_json(item);
      if (!r) return std::nullopt;
      out.items().push_back(std::move(*r));
    }
    return out;
  }
  if (j.is_object() && j.size() == 1) {
    if (j.contains("simple") && j["simple"].is_string()) return Reply::simple(bytes(j["simple"]));
    if (j.contains("error") && j["error"].is_string()) return Reply::error(bytes(j["error"]));
  }
  return std::nullopt;
}

std::optional<HistoryJson> read_history_header(std::string_view text, std::string* error) {
  const auto fail = [&](const std::string& what) -> std::optional<HistoryJson> {
    if (error) *error = "line 1: " + what;
    return std::nullopt;
  };
  if (text.empty()) return fail("empty file: expected a history header line");
  HistoryJson header = HistoryJson::parse(text.substr(0, text.find('\n')), nullptr, false);
  if (header.is_discarded() || !header.is_object() || !header.contains("trafikey") ||
      header["trafikey"] != "history") {
    return fail("not a trafikey history (expected a header line {\"trafikey\":\"history\",...})");
  }
  if (header.contains("kind") && !header["kind"].is_string()) return fail("field \"kind\" must be a string");
  return header;
}

namespace {

bool read_int(const HistoryJson& obj, const char* key, std::int64_t& out) {
  if (!obj.contains(key) || !obj[key].is_number_integer()) return false;
  out = obj[key].get<std::int64_t>();
  return true;
}

// The fields after `name` (a fault's, the end's), in the order written.
HistoryJson fields_after(const HistoryJson& line, const char* name) {
  HistoryJson fields = HistoryJson::object();
  bool after = false;
  for (auto it = line.begin(); it != line.end(); ++it) {
    if (after) fields[it.key()] = it.value();
    after = after || it.key() == name;
  }
  return fields;
}

constexpr const char* event_kinds[] = {"call", "fault", "verdict", "phase", "end"};

// Reads one event line into `out`; on a bad shape returns what is wrong.
std::string read_event(const HistoryJson& j, HistoryLine& out) {
  if (!j.is_object()) return "expected a JSON object";
  std::int64_t inc = 0;
  if (!read_int(j, "t", out.at.true_ms)) return "field \"t\" (true time) must be an integer";
  if (!read_int(j, "st", out.at.server_ms)) return "field \"st\" (server time) must be an integer";
  if (!read_int(j, "inc", inc)) return "field \"inc\" (incarnation) must be an integer";
  out.at.incarnation = static_cast<int>(inc);
  if (!j.contains("actor") || !j["actor"].is_string()) return "field \"actor\" must be a string";
  out.actor = history_bytes(j["actor"].get_ref<const std::string&>());
  int kinds = 0;
  for (const char* k : event_kinds) kinds += j.contains(k) ? 1 : 0;
  if (kinds != 1) return "expected exactly one of call, fault, verdict, phase, end";
  if (j.contains("call")) {
    out.kind = HistoryLine::Kind::call;
    const HistoryJson& call = j["call"];
    if (!call.is_array() || call.empty()) return "field \"call\" must be a non-empty array of strings";
    for (const HistoryJson& arg : call) {
      if (!arg.is_string()) return "field \"call\" must be a non-empty array of strings";
      out.argv.push_back(history_bytes(arg.get_ref<const std::string&>()));
    }
    if (!j.contains("reply")) return "a call line needs a \"reply\"";
    auto reply = reply_of_history_json(j["reply"]);
    if (!reply) {
      return "field \"reply\" is not a reply (a number, a string, null, an array of replies, "
             "{\"simple\":TEXT} or {\"error\":TEXT})";
    }
    out.reply = std::move(*reply);
    if (j.contains("lost") && !j["lost"].is_boolean()) return "field \"lost\" must be true or false";
    out.lost = j.value("lost", false);
    if (j.contains("w") && !read_int(j, "w", out.writes)) return "field \"w\" (writes) must be an integer";
  } else if (j.contains("fault")) {
    out.kind = HistoryLine::Kind::fault;
    if (!j["fault"].is_string()) return "field \"fault\" must be a string";
    out.name = j["fault"].get<std::string>();
    out.fields = fields_after(j, "fault");
    if (out.name == "clock_rate" && !out.integer("rate_per_mille")) {
      return "clock_rate needs integer \"rate_per_mille\"";
    }
  } else if (j.contains("verdict")) {
    out.kind = HistoryLine::Kind::verdict;
    std::int64_t stamp = 0;
    if (!j["verdict"].is_string() || !j.contains("job") || !j["job"].is_string() ||
        !read_int(j, "stamp_inc", stamp)) {
      return "a verdict line needs string \"verdict\", string \"job\", integer \"stamp_inc\"";
    }
    out.name = j["verdict"].get<std::string>();
    const auto& names = sweep_verdict_names;
    if (std::find(names.begin(), names.end(), out.name) == names.end()) {
      std::string known;
      for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
      return "unknown verdict \"" + out.name + "\" (one of " + known + ")";
    }
    out.job = history_bytes(j["job"].get_ref<const std::string&>());
    out.stamp_inc = static_cast<int>(stamp);
  } else if (j.contains("phase")) {
    out.kind = HistoryLine::Kind::phase;
    if (!j["phase"].is_string()) return "field \"phase\" must be a string";
    out.name = j["phase"].get<std::string>();
  } else {
    out.kind = HistoryLine::Kind::end;
    if (!j["end"].is_string()) return "field \"end\" must be a string";
    out.name = j["end"].get<std::string>();
    out.fields = fields_after(j, "end");
  }
  return {};
}

}  // namespace

std::optional<ReadHistory> read_history(std::string_view text, std::string* error) {
  ReadHistory read;
  auto header = read_history_header(text, error);
  if (!header) return std::nullopt;
  read.header = std::move(*header);
  read.kind = read.header.value("kind", "");
  read.lines = history_lines(text);
  read.events.reserve(read.lines.size() - 1);
  for (std::size_t i = 1; i < read.lines.size(); ++i) {
    HistoryLine line;
    line.number = static_cast<std::int64_t>(i) + 1;
    line.json = HistoryJson::parse(read.lines[i], nullptr, false);
    std::string wrong = line.json.is_discarded() ? "not valid JSON" : read_event(line.json, line);
    if (!wrong.empty()) {
      if (error) *error = "line " + std::to_string(line.number) + ": " + wrong;
      return std::nullopt;
    }
    read.events.push_back(std::move(line));
  }
  return read;
}

}  // namespace trafikey::sim
