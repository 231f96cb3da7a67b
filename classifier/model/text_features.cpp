#include "classifier/model/text_features.hpp"

#include <string_view>

#include "classifier/model/word_stemmer.hpp"
#include "common/utf8.hpp"

namespace faultline::model {

std::optional<datasets::IssueRecord> cut_to_what_is_read(const datasets::IssueRecord& issue) {
  size_t error_bytes = 0;
  for (const auto& line : issue.error_lines) error_bytes += line.size() + 1;
  auto over = [](const std::string& field) { return field.size() > kBytesReadPerField; };
  if (!over(issue.title) && !over(issue.body) && !over(issue.env) && !over(issue.discussion) &&
      error_bytes <= kBytesReadPerField)
    return std::nullopt;
  // What the classifier reads, not the rest (a mined issue's raw_json may be large).
  datasets::IssueRecord cut;
  cut.repo = issue.repo;
  cut.title = issue.title;
  cut.body = issue.body;
  cut.env = issue.env;
  cut.discussion = issue.discussion;
  cut.error_lines = issue.error_lines;
  for (std::string* field : {&cut.title, &cut.body, &cut.env, &cut.discussion})
    field->resize(common::utf8_prefix_length(*field, kBytesReadPerField));
  size_t left = kBytesReadPerField;
  for (size_t i = 0; i < cut.error_lines.size(); ++i) {
    std::string& line = cut.error_lines[i];
    if (line.size() + 1 <= left) {
      left -= line.size() + 1;
      continue;
    }
    line.resize(common::utf8_prefix_length(line, left == 0 ? 0 : left - 1));
    cut.error_lines.resize(left == 0 ? i : i + 1);
    break;
  }
  return cut;
}

std::string text_before_discussion(const datasets::IssueRecord& issue, size_t room_after) {
  size_t size = issue.title.size() + issue.body.size() + issue.env.size() + 3 + room_after;
  for (const auto& line : issue.error_lines) size += line.size() + 1;
  std::string doc;
  doc.reserve(size);  // built once in place: this runs on every issue classified
  for (const std::string* part : {&issue.title, &issue.body, &issue.env}) {
    doc += *part;
    doc += '\n';
  }
  for (const auto& line : issue.error_lines) {
    doc += line;
    doc += '\n';
  }
  return doc;
}

std::string document_text(const datasets::IssueRecord& issue) {
  return text_before_discussion(issue, issue.discussion.size()) + issue.discussion;
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

// What a raw token (a run of word characters and glued slashes, trailing dots and pluses stripped) is
// written as: a mask for volatile details, else itself (nullptr).
const char* mask_of(std::string_view token) {
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) return "<hex>";
  if (token.find('/') != std::string_view::npos || token.find('\\') != std::string_view::npos)
    return "<path>";
  bool digits = !token.empty(), has_digit = false;
  for (unsigned char c : token) {
    if (c >= '0' && c <= '9')
      has_digit = true;
    else if (c != '.' && c != ',' && c != '-' && c != 'e')
      digits = false;
  }
  if (digits && has_digit) return "<num>";
  return nullptr;
}

}  // namespace

std::string normalize_for_fasttext(const std::string& text) {
  bool in_code = false;
  return normalize_for_fasttext(text, in_code);
}

std::string normalize_for_fasttext(const std::string& text, bool& in_code) {
  // Tokens are lowered straight into `out` and masked there when they end: no copy per token (this runs on
  // every issue classified).
  std::string out;
  out.reserve(text.size() + 16);
  constexpr size_t kNone = std::string::npos;
  size_t start = kNone;  // where the current token begins in `out`
  auto begin_token = [&] {
    if (start != kNone) return;
    if (!out.empty()) out += ' ';
    start = out.size();
  };
  auto flush = [&] {
    if (start == kNone) return;
    // Strip trailing dots so "fails." and "fails" are one word, but keep versions like "2.3".
    size_t end = out.size();
    while (end > start && (out[end - 1] == '.' || out[end - 1] == '+')) --end;
    // Leading underscores go too: issue text must not spell the tokens fastText reads as labels
    // ("__label__…") or those the classifier adds itself ("__repo_…", "__rule_…").
    size_t first = start;
    while (first < end && out[first] == '_') ++first;
    out.erase(start, first - start);
    end -= first - start;
    if (end == start) {
      out.resize(start == 0 ? 0 : start - 1);  // nothing left: no token, and no space before it
    } else if (const char* masked = mask_of(std::string_view(out).substr(start, end - start))) {
      out.replace(start, kNone, masked);
    } else {
      out.resize(end);
      const std::string_view word = std::string_view(out).substr(start);
      if (const std::string_view stem = english_stem(word); stem.data() != word.data())
        out.replace(start, kNone, stem);
    }
    start = kNone;
  };
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
      if (start != kNone) {
        out += static_cast<char>(c);
        continue;
      }
      flush();
      continue;
    }
    if (is_word_char(c)) {
      begin_token();
      out += lower(c);
    } else if (start != kNone) {  // most separators follow a separator or end a token: test before calling
      flush();
    }
  }
  flush();
  return out;
}

}  // namespace faultline::model
