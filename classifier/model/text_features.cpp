#include "classifier/model/text_features.hpp"

namespace faultline::model {

std::string document_text(const datasets::IssueRecord& issue) {
  std::string doc = issue.title + "\n" + issue.body + "\n" + issue.env + "\n";
  for (const auto& line : issue.error_lines) doc += line + "\n";
  doc += issue.discussion;
  return doc;
}

namespace {

// ASCII letters, digits and "_.+", and every byte of a UTF-8 sequence: the characters a token is made of.
// A table instead of <cctype> calls: normalisation runs on every issue classified.
struct WordChars {
  bool table[256] = {};
  WordChars() {
    for (int c = 0; c < 256; ++c) {
      table[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                 c == '.' || c == '+' || c >= 0x80;
    }
  }
};
const WordChars kWordChars;

bool is_word_char(unsigned char c) { return kWordChars.table[c]; }
char lower(unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c); }

// Classifies one raw token (a run of non-space characters without surrounding punctuation).
const std::string& mask(const std::string& token) {
  static const std::string kHex = "<hex>", kPath = "<path>", kNum = "<num>";
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) return kHex;
  if (token.find('/') != std::string::npos || token.find('\\') != std::string::npos) return kPath;
  bool digits = !token.empty(), has_digit = false;
  for (unsigned char c : token) {
    if (c >= '0' && c <= '9')
      has_digit = true;
    else if (c != '.' && c != ',' && c != '-' && c != 'e')
      digits = false;
  }
  if (digits && has_digit) return kNum;
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
    if (is_word_char(c)) {
      token += lower(c);
    } else {
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace faultline::model
