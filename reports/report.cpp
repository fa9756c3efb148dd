// The report page put together: the title and status line, for several runs the campaign
// overview (campaign_page.h), then each detailed run (run_section.h); and the Markdown
// summary beside it (markdown.h).
#include "reports/report.h"

#include <set>

#include "reports/campaign_page.h"
#include "reports/html.h"
#include "reports/markdown.h"
#include "reports/overall.h"
#include "reports/page.h"
#include "reports/run_section.h"

namespace trafikey::reports {

namespace {

// The runs shown in full: the first detailed_runs_max and every failing one.
std::set<std::size_t> detailed_runs(const std::vector<RunView>& runs, const ReportOptions& options) {
  std::set<std::size_t> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (k < options.detailed_runs_max || runs[k].status == CheckStatus::failed) out.insert(k);
  }
  return out;
}

std::string report_html(const std::vector<RunView>& runs, const ReportOptions& options) {
  const std::set<std::size_t> detailed = detailed_runs(runs, options);
  std::string title = "trafikey report";
  if (runs.size() == 1) title += " \u2014 " + runs[0].input->name;
  const StatusLine line = status_line(runs);
  std::string out = page_begin(title);
  out += "<header><h1>" + esc(title) + "</h1>\n<p class=\"status-line status-" + std::string(status_class(line.status)) +
         "\"><b>" + status_word(line.status) + "</b> \u2014 " + esc(line.text) + "</p>\n";
  if (runs.size() > 1) {
    out += "<p class=\"note\"><a href=\"#campaign\">campaign overview</a></p>";
  }
  out += "</header>\n";
  if (runs.size() > 1) out += campaign_dashboard_html(dashboard_of_runs(runs, detailed), options);
  for (std::size_t k : detailed) out += run_section(runs[k], k, options);
  out += "<footer><p class=\"note\">Written by <code>trafikey-sim report</code> from " + std::to_string(runs.size()) +
         (runs.size() == 1 ? " history" : " histories") +
         ". Invariant ids: shared spec INVARIANTS.md. Same input, same bytes.</p></footer>\n";
  return out + page_end();
}

}  // namespace

std::optional<Report> render_report(const std::vector<ReportInput>& inputs, const ReportOptions& options,
                                    std::string* error) {
  if (inputs.empty()) {
    if (error) *error = "no histories to report";
    return std::nullopt;
  }
  std::vector<RunView> runs;
  for (const ReportInput& in : inputs) {
    auto v = view_run(in, error);
    if (!v) return std::nullopt;
    runs.push_back(std::move(*v));
  }
  return Report{report_html(runs, options), markdown_summary(runs, options)};
}

std::string write_report(const std::vector<ReportInput>& inputs, const std::string& html_path,
                         const std::string& md_path, ReportOptions options) {
  options.html_path = html_path;
  std::string error;
  auto report = render_report(inputs, options, &error);
  if (!report) return error;
  if (!write_text(html_path, report->html)) return html_path + ": cannot write the report";
  if (!md_path.empty() && !write_text(md_path, report->markdown)) return md_path + ": cannot write the summary";
  return {};
}

}  // namespace trafikey::reports
