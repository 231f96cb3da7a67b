#include "common/utf8.hpp"

namespace faultline::common {

namespace {

// The length of the sequence a UTF-8 lead byte announces: 1 for ASCII, 2 to 4, or 0 for a byte that cannot
// lead one (a continuation byte, 0xf8 and above).
size_t utf8_sequence_length(unsigned char lead) {
  return lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
}

}  // namespace

std::optional<Utf8Character> first_utf8_character(std::string_view text) {
  if (text.empty()) return std::nullopt;
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const size_t length = utf8_sequence_length(byte(0));
  if (length == 0 || length > text.size()) return std::nullopt;
  char32_t code = length == 1 ? byte(0) : byte(0) & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return std::nullopt;
    code = (code << 6) | (byte(k) & 0x3F);
  }
  // No overlong forms, surrogates or code points above U+10FFFF.
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
  return Utf8Character{code, length};
}

size_t utf8_prefix_length(std::string_view text, size_t limit) {
  if (text.size() <= limit) return text.size();
  size_t cut = limit;
  for (int back = 0; back < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80; ++back)
    --cut;
  return cut;
}

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const std::optional<Utf8Character> character = first_utf8_character(text.substr(i));
    if (!character) return false;
    i += character->length;
  }
  return true;
}

bool is_hidden_control(char32_t code) {
  return (code >= 0x80 && code <= 0x9F) || code == 0x061C || code == 0x200E || code == 0x200F ||
         (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

}  // namespace faultline::common
