// Mechanism: after a refactor, consumer warps signal "buffer free" on the barrier of an idle peer instead
// of the producer's own. The producer waits for arrivals that never come and spins forever.
// Source: https://github.com/deepseek-ai/DeepGEMM/issues/147
// Fix: route arrivals to the barrier the producer waits on. Waits here are bounded: a timeout reports a hang.
#pragma once

#include "portability.hpp"

constexpr int kConsumers = 2;
constexpr int kProducerBarrier = 0;
constexpr int kIdlePeerBarrier = 1;

FL_HD inline int arrival_barrier(int consumer) {
  (void)consumer;
#if FAULTLINE_FIXED
  return kProducerBarrier;
#else
  return kIdlePeerBarrier;
#endif
}

FL_HD inline bool producer_may_proceed(const volatile int* barriers) {
  return barriers[kProducerBarrier] >= kConsumers;
}
