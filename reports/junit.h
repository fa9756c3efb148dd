// JUnit XML for CI: one <testsuite> of <testcase>s, a <failure> (message, type, text) or a
// <skipped/> on a case. The subset every CI reader accepts (the Jenkins/Surefire schema):
// testsuites > testsuite(name, tests, failures, errors, skipped, time) > testcase(name,
// classname, time) > failure(message, type) | skipped. Text is escaped for XML, and
// characters XML 1.0 cannot carry are written as U+FFFD.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace trafikey::reports {

struct JunitFailure {
  std::string message;  // one line: the invariant and its facts
  std::string type;     // e.g. the invariant id
  std::string text;     // the body: facts, replay command
};

struct JunitCase {
  std::string name, classname;
  double seconds = 0;
  std::optional<JunitFailure> failure;
  std::optional<std::string> skipped;  // the reason
};

struct JunitSuite {
  std::string name;
  double seconds = 0;
  std::vector<JunitCase> cases;
};

std::string junit_xml(const JunitSuite& suite);
std::string xml_escape(std::string_view text);

// Writes junit_xml to `path`; empty on success, else why not.
std::string write_junit(const JunitSuite& suite, const std::string& path);

}  // namespace trafikey::reports
