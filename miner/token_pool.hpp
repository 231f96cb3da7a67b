// The tokens a mine may use (GITHUB_TOKENS, or one GITHUB_TOKEN, or none) and what each has left, as the
// latest response sent with it said. Each request takes the token with the most requests left.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "miner/response_classification.hpp"

namespace faultline::miner {

class TokenPool {
 public:
  // No tokens: one anonymous slot (requests without Authorization).
  explicit TokenPool(std::vector<std::string> tokens);

  // The usable slot with the most requests left; a slot not yet used, or whose reset has passed, counts as
  // having the most. Empty when every token has been dropped.
  std::optional<size_t> pick(double now_epoch) const;
  // Seconds until `pick()` has a slot with requests left: 0 when one has some now.
  double seconds_until_available(double now_epoch) const;

  void observe(size_t slot, const RateLimit& limit);
  // The slot's limit is spent until `reset_epoch` (at the latest of this and what the headers said).
  void spend(size_t slot, double reset_epoch);
  void drop(size_t slot);

  const std::string& token(size_t slot) const { return slots_[slot].token; }
  size_t size() const { return slots_.size(); }
  size_t usable() const;

 private:
  struct Slot {
    std::string token;  // empty: anonymous
    std::optional<long long> remaining;
    double reset_epoch = 0;
    bool dropped = false;
  };
  long long left(const Slot& s, double now_epoch) const;
  std::vector<Slot> slots_;
};

// GITHUB_TOKENS text ("t1,t2" or one per line, as a file holds them): the tokens, blanks skipped.
std::vector<std::string> parse_token_list(const std::string& text);

// The tokens the environment gives, in order of precedence: GITHUB_TOKENS, the file GITHUB_TOKENS_FILE
// names, GITHUB_TOKEN (null: unset). Throws Error naming the file (never a token) when it cannot be read
// or holds none.
std::vector<std::string> configured_tokens(const char* tokens, const char* tokens_file, const char* token);

}  // namespace faultline::miner
