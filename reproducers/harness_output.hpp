// What the runner records of a child's output: the harness's "detail" (kernels/common/verdict.hpp prints
// it in a JSON line), or the end of the output when there is none, bounded and valid UTF-8.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "reproducers/process.hpp"

namespace faultline::reproducers {

// The most characters of a detail the runner records; a longer one is cut and says so.
constexpr size_t kDetailLimit = 2000;

// The "detail" of the last JSON line that has one, else the output's last lines; cut to kDetailLimit,
// noting when the process's output itself was cut.
std::string harness_detail(const ProcessResult& p);

// A harness's output read once: its detail (harness_detail) and the "symptom" of its verdict line (the last
// JSON line with a "detail"), nothing when there is none or it says nothing of a symptom: the exit status
// alone is not trusted (a harness that returns 0 whatever its check found would pass).
struct HarnessVerdict {
  std::string detail;
  std::optional<bool> symptom;
};
HarnessVerdict harness_verdict(const ProcessResult& p);

// `text` cut to `limit` bytes on a character boundary, with a note of its full length when cut;
// invalid UTF-8 bytes become '?'.
std::string bounded_text(const std::string& text, size_t limit);

}  // namespace faultline::reproducers
