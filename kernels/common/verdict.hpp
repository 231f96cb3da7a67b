// How a reproducer harness reports to the runner: one JSON line on stdout and an exit code.
//   0  = the behaviour is correct (oracle satisfied)
//   10 = the failure's symptom was observed
//   77 = skipped: a requirement is not met here (the line says which)
//   anything else = the harness itself broke
#pragma once

#include <cstdio>
#include <string>

namespace faultline::repro {

constexpr int kCorrect = 0;
constexpr int kSymptom = 10;
constexpr int kSkipped = 77;
constexpr int kHarnessError = 3;  // what FL_CUDA_OK and refusal_verdict return too

// Escapes for a JSON string: quote, backslash and every control character (a tab or a carriage return
// left raw would make the line invalid JSON, and the runner would lose the detail).
inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(c));
      out += code;
    } else {
      out += c;
    }
  }
  return out;
}

inline int verdict(bool symptom_observed, const std::string& detail) {
  std::printf("{\"symptom\": %s, \"detail\": \"%s\"}\n", symptom_observed ? "true" : "false",
              json_escape(detail).c_str());
  std::fflush(stdout);
  return symptom_observed ? kSymptom : kCorrect;
}

inline int skipped(const std::string& reason) {
  std::printf("{\"skipped\": true, \"detail\": \"%s\"}\n", json_escape(reason).c_str());
  std::fflush(stdout);
  return kSkipped;
}

}  // namespace faultline::repro
