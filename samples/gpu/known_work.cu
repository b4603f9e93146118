// Work of known size for checking flopscope's GPU counters (scripts/gpu-check.sh):
//   fma   : an FP32 kernel doing exactly THREADS * FMA_ITERS fused multiply-adds (2 FLOPs each)
//   gemm  : a bf16 cuBLAS GEMM, M = N = K = 4096 (2*M*N*K FLOPs on the tensor cores)
//   copy  : a kernel reading exactly COPY_BYTES and writing exactly COPY_BYTES of device memory
// Each part runs inside an NVTX range of its name, so flopscope attributes it to module "fma", "gemm",
// "copy". The expected numbers are printed as "expected <name> <value>" lines for the script.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 1320;  // 10 blocks per SM on a 132-SM H100/H200
constexpr int kFmaIters = 4096;
constexpr int kGemm = 4096;
constexpr size_t kCopyBytes = size_t{4} << 30;  // 4 GiB: the 50 MB L2 can hide at most ~1.2%

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "known_work: %s: %s\n", #call, cudaGetErrorString(e_));         \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

// Four independent chains so the FMA pipe stays busy; fmaf compiles to exactly one FFMA. The loop
// count is a runtime argument so nothing is folded away.
__global__ void fma_kernel(float* out, float a, float b, int iters) {
  // Integer adds before the conversion: no FADD outside the FMA chains.
  float x0 = threadIdx.x, x1 = threadIdx.x + 1, x2 = threadIdx.x + 2, x3 = threadIdx.x + 3;
  for (int i = 0; i < iters; i += 4) {
    x0 = fmaf(x0, a, b);
    x1 = fmaf(x1, a, b);
    x2 = fmaf(x2, a, b);
    x3 = fmaf(x3, a, b);
  }
  // Integer mixing only: no extra floating-point instructions.
  int bits = __float_as_int(x0) ^ __float_as_int(x1) ^ __float_as_int(x2) ^ __float_as_int(x3);
  out[blockIdx.x * blockDim.x + threadIdx.x] = __int_as_float(bits);
}

// 16-byte vector copy; n16 is the number of 16-byte words.
__global__ void copy_kernel(const int4* __restrict__ src, int4* __restrict__ dst, size_t n16) {
  size_t stride = size_t{gridDim.x} * blockDim.x;
  for (size_t i = size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n16; i += stride) dst[i] = src[i];
}

}  // namespace

int main() {
  auto t0 = std::chrono::steady_clock::now();
  float* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * kThreads * kBlocks));
  __nv_bfloat16 *A = nullptr, *B = nullptr;
  float* C = nullptr;
  CHECK(cudaMalloc(&A, sizeof(__nv_bfloat16) * kGemm * kGemm));
  CHECK(cudaMalloc(&B, sizeof(__nv_bfloat16) * kGemm * kGemm));
  CHECK(cudaMalloc(&C, sizeof(float) * kGemm * kGemm));
  CHECK(cudaMemset(A, 0, sizeof(__nv_bfloat16) * kGemm * kGemm));
  CHECK(cudaMemset(B, 0, sizeof(__nv_bfloat16) * kGemm * kGemm));
  void *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, kCopyBytes));
  CHECK(cudaMalloc(&dst, kCopyBytes));
  CHECK(cudaMemset(src, 1, kCopyBytes));
  CHECK(cudaDeviceSynchronize());

  nvtxRangePushA("fma");
  fma_kernel<<<kBlocks, kThreads>>>(out, 0.999f, 0.001f, kFmaIters);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "known_work: cublasCreate failed\n");
    return 2;
  }
  const float alpha = 1.0f, beta = 0.0f;
  nvtxRangePushA("gemm");
  cublasStatus_t st = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, kGemm, kGemm, kGemm, &alpha, A, CUDA_R_16BF,
                                   kGemm, B, CUDA_R_16BF, kGemm, &beta, C, CUDA_R_32F, kGemm, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT);
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "known_work: cublasGemmEx failed (%d)\n", static_cast<int>(st));
    return 2;
  }
  cublasDestroy(handle);

  nvtxRangePushA("copy");
  copy_kernel<<<kBlocks * 4, kThreads>>>(static_cast<const int4*>(src), static_cast<int4*>(dst), kCopyBytes / 16);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();

  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("expected fma_flops_fp32 %.0f\n", 2.0 * kThreads * kBlocks * double(kFmaIters));
  std::printf("expected gemm_flops %.0f\n", 2.0 * kGemm * double(kGemm) * kGemm);
  std::printf("expected copy_bytes_read %zu\n", kCopyBytes);
  std::printf("expected copy_bytes_written %zu\n", kCopyBytes);
  std::printf("wall_seconds %.3f\n", wall);
  CHECK(cudaFree(out));
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  return 0;
}
