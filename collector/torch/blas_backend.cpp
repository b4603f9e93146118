#include "collector/torch/blas_backend.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include "collector/torch/shared_library.h"

namespace flopscope {
namespace {

// The sgemm_ LibTorch's GEMM calls bind to: the global scope's, else (LibTorch loaded RTLD_LOCAL with
// the plugin) the first in the dependency scope of the library this code is in, which is searched next.
void* find_sgemm() {
  if (void* global = dlsym(RTLD_DEFAULT, "sgemm_")) return global;
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&find_sgemm), &self) == 0 || self.dli_fname == nullptr) return nullptr;
  StatusOr<SharedLibrary> library = SharedLibrary::open(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!library.ok()) return nullptr;
  StatusOr<void*> sgemm = library->symbol("sgemm_");
  return sgemm.ok() ? *sgemm : nullptr;
}

}  // namespace

BlasBackend detect_blas_backend() {
  BlasBackend b;
  // (openblas_get_config alone proves nothing: OpenBLAS may be loaded for LAPACK only.)
  void* sgemm = find_sgemm();
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
