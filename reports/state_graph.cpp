#include "reports/state_graph.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/states.h"
#include "reports/html.h"

namespace trafikey::reports {

namespace {

using Vertex = boost::graph_traits<StateGraph>::vertex_descriptor;
using Edge = boost::graph_traits<StateGraph>::edge_descriptor;

std::optional<Vertex> find_vertex(const StateGraph& g, std::string_view name) {
  for (auto [it, end] = boost::vertices(g); it != end; ++it) {
    if (g[*it].name == name) return *it;
  }
  return std::nullopt;
}

Vertex vertex(StateGraph& g, const std::string& name) {
  if (auto v = find_vertex(g, name)) return *v;
  return boost::add_vertex(StateVertex{name, 0}, g);
}

std::string dot_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

void write_vertex(std::ostream& out, const StateGraph& g, Vertex v) {
  const StateVertex& s = g[v];
  out << v << " [label=" << dot_quote(s.name + "\n" + std::to_string(s.final_jobs) + " at end") << "];\n";
}

void write_edge(std::ostream& out, const StateGraph& g, Edge e) {
  const TransitionEdge& t = g[e];
  std::string label = std::to_string(t.count);
  for (const auto& [cause, n] : t.by_cause) label += "\n" + cause + " " + std::to_string(n);
  out << boost::source(e, g) << " -> " << boost::target(e, g) << " [label=" << dot_quote(label);
  if (!t.allowed) {
    out << ", color=red, fontcolor=red, penwidth=2";
  } else if (t.count == 0) {
    out << ", style=dashed, color=gray60, fontcolor=gray40";
  }
  out << "];\n";
}

}  // namespace

StateGraph build_state_graph(const std::map<EdgeKey, EdgeCount>& counts,
                             const std::map<std::string, std::int64_t>& final_states) {
  StateGraph g;
  for (JobState s : all_job_states) vertex(g, std::string(job_state_name(s)));
  for (const auto& [from, to] : allowed_transitions) {
    TransitionEdge e;
    const EdgeKey key{std::string(job_state_name(from)), std::string(job_state_name(to))};
    if (auto it = counts.find(key); it != counts.end()) {
      e.count = it->second.count;
      e.by_cause = it->second.by_cause;
    }
    boost::add_edge(vertex(g, key.first), vertex(g, key.second), e, g);
  }
  for (const auto& [key, count] : counts) {
    const auto f = parse_job_state(key.first), t = parse_job_state(key.second);
    bool allowed = false;
    for (const auto& [a, b] : allowed_transitions) allowed = allowed || (f && t && *f == a && *t == b);
    if (allowed) continue;
    boost::add_edge(vertex(g, key.first), vertex(g, key.second),
                    TransitionEdge{count.count, count.by_cause, false}, g);
  }
  for (const auto& [state, n] : final_states) {
    if (n > 0) g[vertex(g, state)].final_jobs = n;
  }
  return g;
}

std::int64_t edge_count(const StateGraph& g, std::string_view from, std::string_view to) {
  const auto f = find_vertex(g, from), t = find_vertex(g, to);
  if (!f || !t) return 0;
  std::int64_t n = 0;
  for (auto [it, end] = boost::out_edges(*f, g); it != end; ++it) {
    if (boost::target(*it, g) == *t) n += g[*it].count;
  }
  return n;
}

std::string to_dot(const StateGraph& g) {
  // Vertices in index order, each one's out-edges in insertion order: the same bytes for
  // the same graph. (Written by hand: boost::write_graphviz's edge iterator trips GCC 12's
  // -Wmaybe-uninitialized, which is an error here.)
  std::ostringstream out;
  out << "digraph states {\n"
      << "rankdir=LR;\n"
      << "node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n"
      << "edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (auto [it, end] = boost::vertices(g); it != end; ++it) write_vertex(out, g, *it);
  for (auto [it, end] = boost::vertices(g); it != end; ++it) {
    for (auto [e, e_end] = boost::out_edges(*it, g); e != e_end; ++e) write_edge(out, g, *e);
  }
  out << "}\n";
  return out.str();
}

bool dot_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string_view rest(path);
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (dir.empty()) continue;
    const std::string candidate = dir + "/dot";
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::optional<std::string> render_svg(const std::string& dot_text) {
  if (!dot_available()) return std::nullopt;
  std::error_code ec;
  std::string dir = std::filesystem::temp_directory_path(ec).string();
  if (ec) dir = "/tmp";
  std::string path = dir + "/trafikey-graph-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return std::nullopt;
  ::close(fd);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << dot_text;
  }
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  const std::string command = "dot -Tsvg " + quoted + "' 2>/dev/null";
  std::string svg;
  int status = -1;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) svg.append(buf, n);
    status = ::pclose(pipe);
  }
  std::filesystem::remove(path, ec);
  if (status != 0) return std::nullopt;
  const std::size_t start = svg.find("<svg");
  if (start == std::string::npos) return std::nullopt;
  return svg.substr(start);
}

std::string state_graph_html(const std::map<EdgeKey, EdgeCount>& edges,
                             const std::map<std::string, std::int64_t>& final_states, const std::string& id_prefix,
                             bool use_dot) {
  const StateGraph g = build_state_graph(edges, final_states);
  const std::string dot = to_dot(g);
  std::string out = "<div class=\"graph\">";
  std::optional<std::string> svg = use_dot ? render_svg(dot) : std::nullopt;
  if (svg) {
    // Several graphs share a page: keep Graphviz's element ids apart.
    std::string s = *svg;
    for (std::size_t pos = 0; (pos = s.find(" id=\"", pos)) != std::string::npos; pos += 5) {
      s.insert(pos + 5, id_prefix);
    }
    out += s;
  } else {
    out += "<p class=\"note\">Graphviz <code>dot</code> is not on PATH here: the graph as DOT text "
           "(render it with <code>dot -Tsvg</code>).</p><pre>" + esc(dot) + "</pre>";
  }
  out += "</div><p class=\"note\">Edges of core/states.h with how often the history took them (and by which reply or "
         "verdict); dashed: never taken; red: a change outside the allowed graph. Counts include changes a later "
         "restart's persistence lost, since the server made them.</p>\n";
  return out;
}

}  // namespace trafikey::reports
