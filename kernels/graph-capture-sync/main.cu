// Mechanism: a synchronising call (here cudaStreamSynchronize, as a host-side read of a device value
// would do) is issued while the stream is being captured into a CUDA Graph. Capture forbids it: the call
// fails and the whole capture is invalidated, so the graph cannot be built.
// Source: https://github.com/triton-lang/triton/issues/10596
// Fix: keep synchronising calls out of the captured region; synchronise after launching the graph.
#include <string>

#include "cuda_harness.cuh"
#include "portability.hpp"

__global__ void step_kernel(float* x) { x[threadIdx.x] += 1.f; }

int main() {
  if (int skip = faultline::repro::require_device(7, 0)) return skip;
  float* d_x = nullptr;
  FL_CUDA_OK(cudaMalloc(&d_x, 32 * sizeof(float)));
  FL_CUDA_OK(cudaMemset(d_x, 0, 32 * sizeof(float)));
  cudaStream_t stream;
  FL_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  FL_CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  step_kernel<<<1, 32, 0, stream>>>(d_x);
  cudaError_t in_capture = cudaSuccess;
#if !FAULTLINE_FIXED
  in_capture = cudaStreamSynchronize(stream);  // not allowed while capturing
#endif
  step_kernel<<<1, 32, 0, stream>>>(d_x);
  cudaGraph_t graph = nullptr;
  cudaError_t end = cudaStreamEndCapture(stream, &graph);
  std::string detail;
  bool broken = in_capture != cudaSuccess || end != cudaSuccess || graph == nullptr;
  if (!broken) {
    cudaGraphExec_t exec;
    FL_CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    FL_CUDA_OK(cudaGraphLaunch(exec, stream));
    FL_CUDA_OK(cudaStreamSynchronize(stream));
    float x = 0;
    FL_CUDA_OK(cudaMemcpy(&x, d_x, sizeof x, cudaMemcpyDeviceToHost));
    broken = x != 2.f;
    detail = "graph replayed both steps: x = " + std::to_string(x);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  } else {
    detail = "capture failed: sync during capture -> " + faultline::repro::cuda_error_text(in_capture) +
             "; end capture -> " + faultline::repro::cuda_error_text(end);
    cudaGetLastError();  // clear the sticky capture error
  }
  cudaStreamDestroy(stream);
  cudaFree(d_x);
  return faultline::repro::verdict(broken, detail);
}
