// Host harness: consumers arrive, then the producer polls its barrier a bounded number of times.
#include <string>

#include "barrier.cuh"
#include "verdict.hpp"

int main() {
  volatile int barriers[2] = {0, 0};
  for (int c = 0; c < kConsumers; ++c) barriers[arrival_barrier(c)] = barriers[arrival_barrier(c)] + 1;
  const long kPolls = 10000000;
  long polls = 0;
  while (!producer_may_proceed(barriers) && polls < kPolls) ++polls;
  bool hung = polls == kPolls;
  return faultline::repro::verdict(
      hung, hung ? "producer still waiting after " + std::to_string(kPolls) +
                       " polls: arrivals went to barrier " + std::to_string(arrival_barrier(0))
                 : "producer proceeded after " + std::to_string(polls) + " polls");
}
