// Tests that reach CUPTI's Profiler Host API are skipped in AddressSanitizer builds (the asan preset), with
// the reason printed: libcupti loads libnvperf_host.so with dlopen(RTLD_DEEPBIND), which the sanitizer
// runtime refuses by ending the process (google/sanitizers#611). The library is NVIDIA's; the same tests
// run in every other build.
#pragma once

#include <gtest/gtest.h>

namespace flopscope::gpu::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAsan = true;
#else
inline constexpr bool kUnderAsan = false;
#endif
#else
inline constexpr bool kUnderAsan = false;
#endif

inline constexpr const char* kAsanSkipReason =
    "ASan build: libcupti dlopens libnvperf_host.so with RTLD_DEEPBIND, which the sanitizer runtime refuses "
    "(google/sanitizers#611)";

}  // namespace flopscope::gpu::testing

// For one test that reaches the Profiler Host API: the first statement of its body.
#define FLOPSCOPE_SKIP_UNDER_ASAN()                                                                        \
  do {                                                                                                     \
    if (::flopscope::gpu::testing::kUnderAsan) GTEST_SKIP() << ::flopscope::gpu::testing::kAsanSkipReason; \
  } while (false)
