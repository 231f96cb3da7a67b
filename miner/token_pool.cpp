#include "miner/token_pool.hpp"

#include <algorithm>
#include <limits>

#include "common/error.hpp"
#include "common/text_file.hpp"

namespace faultline::miner {

TokenPool::TokenPool(std::vector<std::string> tokens) {
  if (tokens.empty()) tokens.push_back("");
  for (auto& t : tokens) slots_.push_back({std::move(t), std::nullopt, 0, false});
}

long long TokenPool::left(const Slot& s, double now_epoch) const {
  bool fresh = !s.remaining || (*s.remaining == 0 && now_epoch >= s.reset_epoch);
  return fresh ? std::numeric_limits<long long>::max() : *s.remaining;
}

std::optional<size_t> TokenPool::pick(double now_epoch) const {
  std::optional<size_t> best;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].dropped) continue;
    if (!best || left(slots_[i], now_epoch) > left(slots_[*best], now_epoch)) best = i;
  }
  return best;
}

double TokenPool::seconds_until_available(double now_epoch) const {
  double earliest = std::numeric_limits<double>::max();
  for (const auto& s : slots_) {
    if (s.dropped) continue;
    if (left(s, now_epoch) > 0) return 0;
    earliest = std::min(earliest, s.reset_epoch);
  }
  return earliest == std::numeric_limits<double>::max() ? 0 : earliest - now_epoch;
}

void TokenPool::observe(size_t slot, const RateLimit& limit) {
  if (limit.remaining) slots_[slot].remaining = limit.remaining;
  // One second of margin for clock skew between GitHub and here.
  if (limit.reset_epoch) slots_[slot].reset_epoch = *limit.reset_epoch + 1.0;
}

void TokenPool::spend(size_t slot, double reset_epoch) {
  slots_[slot].remaining = 0;
  slots_[slot].reset_epoch = std::max(slots_[slot].reset_epoch, reset_epoch);
}

void TokenPool::drop(size_t slot) { slots_[slot].dropped = true; }

size_t TokenPool::usable() const {
  return static_cast<size_t>(
      std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.dropped; }));
}

std::vector<std::string> parse_token_list(const std::string& text) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    current.erase(0, current.find_first_not_of(" \t\r"));
    current.erase(current.find_last_not_of(" \t\r") + 1);
    if (!current.empty()) tokens.push_back(current);
    current.clear();
  };
  for (char c : text) {
    if (c == ',' || c == '\n') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return tokens;
}

std::vector<std::string> configured_tokens(const char* tokens, const char* tokens_file, const char* token) {
  if (tokens && *tokens) return parse_token_list(tokens);
  if (tokens_file && *tokens_file) {
    auto list = parse_token_list(common::read_text_file(tokens_file));
    if (list.empty()) throw Error("GITHUB_TOKENS_FILE " + std::string(tokens_file) + ": holds no token");
    return list;
  }
  if (token && *token) return {token};
  return {};
}

}  // namespace faultline::miner
