#include "common/strict_json.hpp"

#include <set>
#include <vector>

#include "common/error.hpp"
#include "common/one_line.hpp"
#include "common/text_file.hpp"

namespace faultline::common {

namespace {

using nlohmann::json;

// A first reading of the text that builds nothing: it checks the keys of each object and keeps the first
// error. (nlohmann's parse with a callback would do the same while building, but it rescans a parent's
// members each time an object within it ends: quadratic in a record holding many small objects.)
class KeyChecker : public nlohmann::json_sax<json> {
 public:
  std::string repeated;  // the first key found twice in one object
  std::string error;     // why the text is not JSON

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return deeper();
  }
  bool key(string_t& key) override {
    if (keys_.back().insert(key).second) return true;
    repeated = key;
    return false;  // stops the reading
  }
  bool end_object() override {
    keys_.pop_back();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override { return deeper(); }
  bool end_array() override {
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }

 private:
  // A record is a few levels deep; millions of nested brackets would make the parse that follows build
  // millions of values (gigabytes) before anything could refuse them.
  bool deeper() {
    if (++depth_ <= kDeepest) return true;
    error = "nested more than " + std::to_string(kDeepest) + " levels deep";
    return false;
  }
  static constexpr int kDeepest = 64;
  int depth_ = 0;
  std::vector<std::set<std::string>> keys_;  // of each object being read, innermost last
};

}  // namespace

json parse_json_strictly(const std::string& text, const std::string& where) {
  KeyChecker checker;
  json::sax_parse(text, &checker);
  if (!checker.error.empty()) throw Error(where + ": not valid JSON (" + checker.error + ")");
  if (!checker.repeated.empty()) {
    throw Error(where + ": the key '" + one_line_cut(checker.repeated, kShownKeyBytes) +
                "' appears twice in one object");
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // not expected once the first reading passed
    throw Error(where + ": not valid JSON (" + e.what() + ")");
  }
}

json parse_json_file_strictly(const std::string& path) {
  return parse_json_strictly(read_text_file(path), path);
}

}  // namespace faultline::common
