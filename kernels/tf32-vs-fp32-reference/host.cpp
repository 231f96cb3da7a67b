// Host harness: the kernel's element computation for the whole 64×64 product. `--perturb R` scales one
// element by 1 + R afterwards, a fault unrelated to TF32 that the oracle must not read as the symptom.
#include <string>
#include <vector>

#include "compare.hpp"
#include "harness_options.hpp"

int main(int argc, char** argv) {
  const double perturb = std::stod(faultline::repro::string_option(argc, argv, "perturb", "0"));
  std::vector<float> c(kDim * kDim);
  for (int i = 0; i < kDim; ++i) {
    for (int j = 0; j < kDim; ++j) c[i * kDim + j] = gemm_element(i, j);
  }
  c[kDim + 1] = static_cast<float>(c[kDim + 1] * (1 + perturb));
  return judge(c.data());
}
