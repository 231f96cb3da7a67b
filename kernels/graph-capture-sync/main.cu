// Mechanism: a synchronising call (here cudaStreamSynchronize, as a host-side read of a device value
// would do) is issued while the stream is being captured into a CUDA Graph. Capture forbids it: the call
// fails and the whole capture is invalidated, so the graph cannot be built.
// Source: https://github.com/triton-lang/triton/issues/10596
// Fix: keep synchronising calls out of the captured region; synchronise after launching the graph.
#include <cstdio>
#include <string>

#include "cuda_harness.cuh"
#include "portability.hpp"

__global__ void step_kernel(float* x) { x[threadIdx.x] += 1.f; }

namespace {

int harness_error(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  return faultline::repro::kHarnessError;
}

std::string text(cudaError_t e) { return faultline::repro::cuda_error_text(e); }

}  // namespace

// Only the capture's own refusal is the symptom: the synchronisation answered with
// cudaErrorStreamCaptureUnsupported and the end of capture with cudaErrorStreamCaptureInvalidated and no
// graph. Any other error, and a graph that does not compute x = 2, is a harness error.
int main() {
  if (int skip = faultline::repro::require_device(9, 0)) return skip;
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, 32 * sizeof(float)));
  FL_CUDA_OK(cudaMemset(d_x, 0, 32 * sizeof(float)));
  cudaStream_t stream;
  FL_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  FL_CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  step_kernel<<<1, 32, 0, stream>>>(d_x);
  const cudaError_t first_launch = cudaGetLastError();
  cudaError_t in_capture = cudaSuccess;
#if !FAULTLINE_FIXED
  in_capture = cudaStreamSynchronize(stream);  // not allowed while capturing
  cudaGetLastError();  // the refusal is kept in in_capture; clear it so the next check sees only the launch
#endif
  step_kernel<<<1, 32, 0, stream>>>(d_x);
  const cudaError_t second_launch = cudaGetLastError();
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);
  const bool refused = in_capture == cudaErrorStreamCaptureUnsupported;
  const std::string errors = "first launch -> " + text(first_launch) + "; sync during capture -> " +
                             text(in_capture) + "; second launch -> " + text(second_launch) +
                             "; end capture -> " + text(end);

  // A launch into a capture that the refusal already invalidated may report the invalidation.
  const bool launches_ok =
      first_launch == cudaSuccess &&
      (second_launch == cudaSuccess || (refused && second_launch == cudaErrorStreamCaptureInvalidated));
  if (!launches_ok || (in_capture != cudaSuccess && !refused)) return harness_error(errors);
  if (refused) {
    if (end != cudaErrorStreamCaptureInvalidated || graph != nullptr) {
      return harness_error(errors + ", where an invalidated capture and no graph were expected");
    }
    cudaGetLastError();
    cudaStreamDestroy(stream);
    cudaFree(d_x);
    return faultline::repro::verdict(true, "capture failed: " + errors);
  }
  if (end != cudaSuccess || graph == nullptr) return harness_error(errors + ", without a synchronisation");

  cudaGraphExec_t exec;
  FL_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  FL_CUDA_OK(cudaGraphLaunch(exec, stream));
  FL_CUDA_OK(cudaStreamSynchronize(stream));
  float x = 0;
  FL_CUDA_OK(cudaMemcpy(&x, d_x, sizeof x, cudaMemcpyDeviceToHost));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(d_x);
  if (x != 2.f) return harness_error("the captured graph ran, but x = " + std::to_string(x) + ", not 2");
  return faultline::repro::verdict(false, "graph replayed both steps: x = " + std::to_string(x));
}
