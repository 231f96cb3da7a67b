// Mechanism: after a refactor, consumer warps signal "buffer free" on the barrier of an idle peer instead
// of the producer's own. The producer waits for arrivals that never come and spins forever.
// Source: https://github.com/deepseek-ai/DeepGEMM/issues/147
// Fix: route arrivals to the barrier the producer waits on. Waits here are bounded: a timeout reports a hang.
#pragma once

#include "portability.hpp"

constexpr int kConsumers = 2;
// CTAs of the cluster: CTA 0 has a tile to pipeline, CTA 1 (its peer) is idle this round.
constexpr int kDefaultClusterSize = 2;
constexpr int kMaxClusterSize = 2;

// The barrier a consumer of CTA `rank` arrives on to hand its buffer back to its producer.
FL_HD inline int arrival_barrier(int rank, int cluster_size) {
#if FAULTLINE_FIXED
  (void)cluster_size;
  return rank;
#else
  return (rank + 1) % cluster_size;  // the peer's barrier, which is the CTA's own only in a 1-CTA cluster
#endif
}

FL_HD inline bool producer_may_proceed(int arrivals_on_own_barrier) {
  return arrivals_on_own_barrier >= kConsumers;
}
