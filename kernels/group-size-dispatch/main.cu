// GPU harness: the library's decode call on the device, one CTA per query head. It first runs a
// configuration every variant supports (8 query heads over 4 KV heads, group size 2) and checks its output,
// so the device path is shown to launch and compute; then the model's 12 query heads (`--query-heads N`).
// The symptom is the dispatcher's exception escaping that call; when the call launches, its output is
// compared on the host with attention over repeat-interleaved KV heads (repeated_kv_reference.hpp).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cuda_harness.cuh"
#include "dispatch.cuh"
#include "harness_options.hpp"
#include "repeated_kv_reference.hpp"

namespace {

constexpr int kControlQueryHeads = 8;

template <int kGroup>
__global__ void decode_kernel(int runtime_group, float* out) {
  if (threadIdx.x == 0) decode_head<kGroup>(blockIdx.x, runtime_group, out + blockIdx.x * kHeadDim);
}

// The library's decode call: dispatch on the host (which may raise), then the launch.
cudaError_t decode(int query_heads, int kv_heads, float* d_out) {
  const int variant = dispatch_group_size(query_heads, kv_heads);
  const int group = query_heads / kv_heads;
  switch (variant) {
    case 1:
      decode_kernel<1><<<query_heads, 32>>>(group, d_out);
      break;
    case 2:
      decode_kernel<2><<<query_heads, 32>>>(group, d_out);
      break;
    case 4:
      decode_kernel<4><<<query_heads, 32>>>(group, d_out);
      break;
    case 8:
      decode_kernel<8><<<query_heads, 32>>>(group, d_out);
      break;
    default:
      decode_kernel<0><<<query_heads, 32>>>(group, d_out);
      break;
  }
  cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? cudaDeviceSynchronize() : err;
}

struct CallResult {
  std::string raised;      // the exception's text when the call raised
  std::string cuda_error;  // a launch or copy failure (a harness error, not the symptom)
  int wrong_heads = 0;
};

CallResult run_decode(int query_heads) {
  CallResult r;
  std::vector<float> out(static_cast<size_t>(query_heads) * kHeadDim);
  float* d_out = nullptr;
  cudaError_t err = cudaMalloc(&d_out, out.size() * sizeof(float));
  if (err == cudaSuccess) {
    try {
      err = decode(query_heads, kKvHeads, d_out);
    } catch (const std::exception& e) {
      r.raised = e.what();
    }
    if (r.raised.empty() && err == cudaSuccess) {
      err = cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
    }
    cudaFree(d_out);
  }
  if (err != cudaSuccess) r.cuda_error = faultline::repro::cuda_error_text(err);
  if (r.raised.empty() && r.cuda_error.empty()) r.wrong_heads = heads_off_reference(out, query_heads);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  const int query_heads = faultline::repro::int_option(argc, argv, "query-heads", kDefaultQueryHeads);
  if (query_heads <= 0 || query_heads % kKvHeads != 0) {
    std::fprintf(stderr, "--query-heads must be a positive multiple of %d\n", kKvHeads);
    return 2;
  }
  const CallResult control = run_decode(kControlQueryHeads);
  if (!control.raised.empty() || !control.cuda_error.empty() || control.wrong_heads != 0) {
    std::fprintf(stderr, "control decode with %d query heads did not compute: %s%s %d wrong heads\n",
                 kControlQueryHeads, control.raised.c_str(), control.cuda_error.c_str(), control.wrong_heads);
    return 3;
  }
  const CallResult call = run_decode(query_heads);
  if (!call.cuda_error.empty()) {
    std::fprintf(stderr, "decode with %d query heads: %s\n", query_heads, call.cuda_error.c_str());
    return 3;
  }
  const std::string config = std::to_string(query_heads) + " query heads over " + std::to_string(kKvHeads) +
                             " KV heads (the 8-head control launched and matched)";
  if (!call.raised.empty()) {
    return faultline::repro::verdict(true,
                                     "decode call for " + config + " raised RuntimeError: " + call.raised);
  }
  return faultline::repro::verdict(
      call.wrong_heads > 0, "decode call for " + config + " launched; " + std::to_string(call.wrong_heads) +
                                " query heads differ from attention over repeated KV heads");
}
