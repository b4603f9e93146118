// Kernel names as users read them. CUPTI-free.
#pragma once

#include <string>

namespace flopscope::gpu {

// The demangled name, or the name itself when it does not demangle (C kernels, PTX names).
std::string demangle(const std::string& name);

// Launch callbacks and activity records may spell a kernel's name differently (mangled or not).
bool same_kernel_name(const std::string& a, const std::string& b);

}  // namespace flopscope::gpu
