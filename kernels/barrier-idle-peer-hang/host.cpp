// Host harness: a real concurrent run on CPU threads. Two consumer threads of CTA 0 each arrive once on the
// barrier arrival_barrier() names; the producer (this thread) waits on its own barrier for both arrivals,
// bounded by a 1 s deadline, and a missed deadline is the hang. The arrivals happen concurrently with the
// wait, so the producer proceeds as soon as they land on its barrier: with `--cluster-size 1` the buggy
// routing's "peer" is the CTA itself and the buggy variant proceeds.
#include <array>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "barrier.cuh"
#include "harness_options.hpp"
#include "verdict.hpp"

int main(int argc, char** argv) {
  const int cluster_size = faultline::repro::int_option(argc, argv, "cluster-size", kDefaultClusterSize);
  if (cluster_size < 1 || cluster_size > kMaxClusterSize) return 2;
  constexpr int kProducerRank = 0;
  std::array<std::atomic<int>, kMaxClusterSize> barriers{};
  std::vector<std::thread> consumers;
  for (int c = 0; c < kConsumers; ++c) {
    consumers.emplace_back([&] { barriers[arrival_barrier(kProducerRank, cluster_size)].fetch_add(1); });
  }
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(1);
  bool proceeded = false;
  while (!(proceeded = producer_may_proceed(barriers[kProducerRank].load())) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  const auto waited_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  for (auto& t : consumers) t.join();
  const std::string where =
      "cluster of " + std::to_string(cluster_size) + ": " + std::to_string(barriers[kProducerRank].load()) +
      " arrivals on the producer's barrier, " + std::to_string(barriers[1].load()) + " on CTA 1's";
  return faultline::repro::verdict(
      !proceeded, proceeded ? "producer proceeded after " + std::to_string(waited_us) + " us (" + where + ")"
                            : "hang: producer still waiting after 1 s (" + where + ")");
}
