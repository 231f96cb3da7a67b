#include "reproducers/harness_output.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include "common/utf8.hpp"

namespace faultline::reproducers {

namespace {

// Length of the well-formed UTF-8 sequence starting at text[i] (no overlong form, surrogate or code point
// past U+10FFFF: the JUnit file is XML, which refuses them), or 0 when there is none.
size_t sequence_length(const std::string& text, size_t i) {
  const auto character = common::first_utf8_character(std::string_view(text).substr(i));
  return character ? character->length : 0;
}

// The last line of `output` that is a JSON object with a string "detail": the verdict (or skip) line
// kernels/common/verdict.hpp prints.
std::optional<nlohmann::json> verdict_line(const std::string& output) {
  size_t end = output.size();
  while (end > 0) {
    size_t begin = output.rfind('\n', end - 1);
    begin = begin == std::string::npos ? 0 : begin + 1;
    if (begin < end && output[begin] == '{') {
      // The parser is iterative, so neither a long nor a deeply nested line can exhaust the stack.
      // A byte that is not UTF-8 (a path in a loader's message) becomes '?': the JSON parser refuses it,
      // and the line would not be read as the verdict it is.
      const std::string text = output.substr(begin, end - begin);
      auto line = nlohmann::json::parse(bounded_text(text, text.size()), nullptr, false);
      if (line.is_object() && line.contains("detail") && line["detail"].is_string()) return line;
    }
    if (begin == 0) break;
    end = begin - 1;
  }
  return std::nullopt;
}

}  // namespace

std::string bounded_text(const std::string& text, size_t limit) {
  std::string out;
  size_t i = 0;
  while (i < text.size() && out.size() < limit) {
    size_t n = sequence_length(text, i);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    if (out.size() + n > limit) break;
    out.append(text, i, n);
    i += n;
  }
  if (i < text.size()) out += " [cut: " + std::to_string(text.size()) + " bytes in all]";
  return out;
}

HarnessVerdict harness_verdict(const ProcessResult& p) {
  HarnessVerdict v;
  std::string& detail = v.detail;
  if (auto line = verdict_line(p.output)) {
    detail = bounded_text((*line)["detail"].get<std::string>(), kDetailLimit);
    if (line->contains("symptom") && (*line)["symptom"].is_boolean())
      v.symptom = (*line)["symptom"].get<bool>();
  } else {
    constexpr size_t kTail = 300;
    size_t from = p.output.size() > kTail ? p.output.size() - kTail : 0;
    // Skip continuation bytes so the tail starts on a character.
    while (from < p.output.size() && (static_cast<unsigned char>(p.output[from]) >> 6) == 0x2) ++from;
    detail = bounded_text(p.output.substr(from), kTail);
  }
  if (p.bytes_dropped > 0)
    detail += " [output cut: the first " + std::to_string(p.bytes_dropped) +
              " bytes were dropped, the last " + std::to_string(p.output.size()) + " kept]";
  return v;
}

std::string harness_detail(const ProcessResult& p) { return harness_verdict(p).detail; }

}  // namespace faultline::reproducers
