#include "collector/cupti/kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>

namespace flopscope::gpu {

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) return name;
  std::string result(out);
  std::free(out);
  return result;
}

bool same_kernel_name(const std::string& a, const std::string& b) {
  return a == b || demangle(a) == demangle(b);
}

}  // namespace flopscope::gpu
