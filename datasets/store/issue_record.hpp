// One issue as the corpus record format of DESIGN.md describes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline::datasets {

struct IssueRecord {
  int64_t id = 0;    // store row id; 0 before the record is stored
  std::string repo;  // owner/name
  int64_t number = 0;
  std::string url;
  std::string state;  // open | closed
  std::string created;
  std::string updated;
  std::vector<std::string> labels;
  std::string title;
  std::string body;
  std::vector<std::string> error_lines;
  std::string env;
  std::string discussion;
  // The discussion is the issue's comments joined as classify reads them (attach_comment_discussions), not
  // a text of its own: export says so (`discussion_from`), and an import into a store holding the issue's
  // comments leaves them the source.
  bool discussion_is_comments = false;
  std::optional<std::string> scope;  // in | out, when a human decided it
  std::optional<std::string> scope_reason;
  std::optional<std::string> raw_json;  // the API object as mined, when it came from the miner

  std::string key() const { return repo + "#" + std::to_string(number); }
};

}  // namespace faultline::datasets
