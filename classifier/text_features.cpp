#include "classifier/text_features.hpp"

#include <cctype>

namespace faultline::classifier {

std::string document_text(const datasets::IssueRecord& issue) {
  std::string doc = issue.title + "\n" + issue.body + "\n" + issue.env + "\n";
  for (const auto& line : issue.error_lines) doc += line + "\n";
  doc += issue.discussion;
  return doc;
}

namespace {

bool is_word_char(unsigned char c) { return std::isalnum(c) || c == '_' || c == '.' || c == '+'; }

// Classifies one raw token (a run of non-space characters without surrounding punctuation).
std::string mask(const std::string& token) {
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) return "<hex>";
  if (token.find('/') != std::string::npos || token.find('\\') != std::string::npos) return "<path>";
  bool digits = !token.empty(), has_digit = false;
  for (unsigned char c : token) {
    if (std::isdigit(c)) has_digit = true;
    else if (c != '.' && c != ',' && c != '-' && c != 'e') digits = false;
  }
  if (digits && has_digit) return "<num>";
  return token;
}

}  // namespace

std::string normalize_for_fasttext(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::string token;
  auto flush = [&] {
    // Strip trailing dots so "fails." and "fails" are one word, but keep versions like "2.3".
    while (!token.empty() && (token.back() == '.' || token.back() == '+')) token.pop_back();
    if (!token.empty()) {
      if (!out.empty()) out += ' ';
      out += mask(token);
    }
    token.clear();
  };
  bool in_code = false;
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '`') {
      flush();
      if (!in_code) {
        if (!out.empty()) out += ' ';
        out += "<code>";
      }
      in_code = !in_code;
      continue;
    }
    if (c == '/' || c == '\\') {
      // Part of a path only when glued to word characters on the left.
      if (!token.empty()) {
        token += static_cast<char>(c);
        continue;
      }
      flush();
      continue;
    }
    if (is_word_char(c) || c >= 0x80) {
      token += static_cast<char>(std::tolower(c));
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace faultline::classifier
