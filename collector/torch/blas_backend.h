// Which BLAS the loaded LibTorch calls. Debian's LibTorch calls the system libblas.so.3, which the
// alternatives system may point at the reference BLAS: correct, but 5-10x slower on GEMMs, so every
// timing a profile records would describe the wrong library.
#pragma once

#include <string>

namespace flopscope {

struct BlasBackend {
  std::string name;    // "OpenBLAS", "reference BLAS" or "unknown"
  std::string detail;  // OpenBLAS's config string, or the resolved libblas path
  bool slow_reference = false;
};

// Inspects the symbols of the BLAS already loaded into this process (call after LibTorch is loaded).
BlasBackend detect_blas_backend();

}  // namespace flopscope
