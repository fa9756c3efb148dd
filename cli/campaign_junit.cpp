#include "cli/campaign_junit.h"

#include <algorithm>
#include <vector>

#include "core/invariants.h"
#include "reports/junit.h"

namespace trafikey::cli {

std::string write_campaign_junit(const properties::CampaignSummary& s, const std::string& replay,
                                 double seconds, const std::string& path) {
  reports::JunitSuite suite;
  suite.name = "trafikey campaign seed " + std::to_string(s.seed) + ", " + std::to_string(s.runs) + " runs";
  suite.seconds = seconds;
  const std::string classname = "campaign.seed" + std::to_string(s.seed);
  std::vector<std::string> ids(invariant_ids.begin(), invariant_ids.end());
  if (s.failure && std::find(ids.begin(), ids.end(), s.failure->invariant) == ids.end()) {
    ids.push_back(s.failure->invariant);
  }
  for (const std::string& id : ids) {
    reports::JunitCase c;
    c.name = id;
    c.classname = classname;
    const auto judged = s.judged.find(id);
    const bool never_judged = judged == s.judged.end() || judged->second == 0;
    if (never_judged && !(s.failure && s.failure->invariant == id)) {
      // not a pass: no run of this campaign judged it (a sim campaign has no real server
      // to compare or replicate to; a differential campaign judges what a real run shows)
      c.skipped = "not judged by any run of this campaign";
    }
    if (s.failure && s.failure->invariant == id) {
      const auto& f = *s.failure;
      c.failure = reports::JunitFailure{
          f.invariant + ": " + f.facts, f.invariant,
          "invariant " + f.invariant + " broken in run " + std::to_string(f.run) + " of seed " +
              std::to_string(s.seed) + "\nfacts: " + f.facts + "\nshrunk from " +
              std::to_string(f.original_calls) + " to " + std::to_string(f.shrunk_calls) +
              " calls\nreplay with:\n  " + replay + "\n"};
    }
    suite.cases.push_back(std::move(c));
  }
  return reports::write_junit(suite, path);
}

}  // namespace trafikey::cli
