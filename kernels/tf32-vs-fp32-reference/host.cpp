// Host harness: the kernel's element computation for the whole 64×64 product.
#include <vector>

#include "compare.hpp"

int main() {
  std::vector<float> c(kDim * kDim);
  for (int i = 0; i < kDim; ++i) {
    for (int j = 0; j < kDim; ++j) c[i * kDim + j] = gemm_element(i, j);
  }
  return judge(c.data());
}
