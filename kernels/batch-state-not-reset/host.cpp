// Host harness: three batches through the same state, each quantized then dequantized.
#include <cmath>
#include <string>

#include "batch_state.cuh"
#include "verdict.hpp"

int main() {
  QuantState state;
  int wrong_batches = 0;
  float worst = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    float x[kBatchSize];
    signed char q[kBatchSize];
    for (int i = 0; i < kBatchSize; ++i) x[i] = input_value(batch, i);
    begin_batch(&state);
    for (int b = 0; b < kBlocksPerBatch; ++b) quantize_block(&state, x + b * kBlock, q + b * kBlock);
    float err = 0;
    for (int b = 0; b < kBlocksPerBatch; ++b) {
      for (int i = 0; i < kBlock; ++i)
        err = std::fmax(err, std::fabs(dequantize(&state, q + b * kBlock, b, i) - x[b * kBlock + i]));
    }
    worst = std::fmax(worst, err);
    wrong_batches += err > 0.1f;
  }
  return faultline::repro::verdict(
      wrong_batches > 0, std::to_string(wrong_batches) + " of " + std::to_string(kBatches) +
                             " batches dequantize wrongly (max error " + std::to_string(worst) + ")");
}
