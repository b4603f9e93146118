#include "collector/torch/blas_backend.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

namespace flopscope {

BlasBackend detect_blas_backend() {
  BlasBackend b;
  // The library that provides sgemm_ in the global scope is the one LibTorch's GEMM calls bind to.
  // (openblas_get_config alone proves nothing: OpenBLAS may be loaded for LAPACK only.)
  void* sgemm = dlsym(RTLD_DEFAULT, "sgemm_");
  Dl_info info{};
  if (sgemm == nullptr || dladdr(sgemm, &info) == 0 || info.dli_fname == nullptr) {
    b.name = "unknown";
    b.detail = "no BLAS in the process";
    return b;
  }
  // libblas.so.3 is a chain of alternatives links: the target names the implementation.
  char resolved[PATH_MAX];
  b.detail = realpath(info.dli_fname, resolved) != nullptr ? resolved : info.dli_fname;
  if (b.detail.find("openblas") != std::string::npos) {
    b.name = "OpenBLAS";
  } else if (b.detail.find("/blas/libblas.so") != std::string::npos) {
    b.name = "reference BLAS";  // Debian's netlib build
    b.slow_reference = true;
  } else {
    b.name = "unknown";
  }
  return b;
}

}  // namespace flopscope
