// Names of wire 2 tokens in scenario files (EMQ §8; SCENARIO.md "Tokens"). A wire 2 token,
// `<attempts>-<run_id>-<n>`, is 60-odd characters no one writes or reviews by hand, and
// its run_id and number differ from one server to the next. A file names it instead:
//
//   @CLIENT/JOB     the token CLIENT was handed for JOB by its latest CLAIM ... WIRE 2
//   @CLIENT/JOB/N   the token of its N-th (from 1) such grant of JOB
//
// as an argument of any call (of any client: a name says who was handed the token, not
// who sends it) and as the token item of a CLAIM's reply, where it names the token that
// very reply hands out. A runner learns each token from the reply that hands it out and
// resolves a name when a step uses it, so the same file runs on the sim and on a real
// server whose run_ids and grant numbers are its own. A word of that form that names no
// token handed out yet is sent as written (a server refuses it as a malformed token).
//
// The harness writes names too (name_tokens, when it writes a failure's file); a job
// whose id is not a plain word (it contains a `/`, or bytes a bare word cannot hold)
// keeps its tokens spelt out.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/reply.h"
#include "sim/scenario/reply_pattern.h"
#include "sim/scenario/scenario.h"

namespace trafikey::scenario {

class TokenNames {
 public:
  // Learns the tokens a CLAIM reply hands `client` (its items [id, attempts, payload,
  // token]); any other call's reply teaches nothing.
  void learn(const std::string& client, const std::vector<std::string>& argv, const Reply& reply);

  // The token `word` names, when it is a name of a token handed out so far.
  std::optional<std::string> resolve(std::string_view word) const;

  // `argv` with every name resolved (words that name nothing stay as written).
  std::vector<std::string> resolved(const std::vector<std::string>& argv) const;
  // `pattern` with every string item that is a name resolved.
  ReplyPattern resolved(const ReplyPattern& pattern) const;

  // The name of `token` as a file writes it: `@C/J` while it is the latest token C was
  // handed for J, `@C/J/N` once another followed; nullopt for a token never handed out
  // here, or one of a job whose id is not a plain word.
  std::optional<std::string> name_of(std::string_view token) const;

 private:
  struct Handed {
    std::string client, job;
    std::size_t n = 0;  // 1-based: the n-th token handed to client for job
  };
  std::map<std::pair<std::string, std::string>, std::vector<std::string>, std::less<>> handed_;
  std::map<std::string, Handed, std::less<>> by_token_;
};

// `scenario` with its wire 2 tokens written as names: every argument that is a token
// handed out earlier in the file, and the token item of every CLAIM reply. Replaying the
// result hands out and sends the same tokens as replaying `scenario`.
Scenario name_tokens(const Scenario& scenario);

}  // namespace trafikey::scenario
