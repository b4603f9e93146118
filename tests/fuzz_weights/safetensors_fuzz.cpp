// libFuzzer target: any bytes given to the safetensors reader end in an error or in tensors whose
// statistics can be read without touching memory outside the input (ASan checks the reads).
#include <cstddef>
#include <cstdint>

#include "analyzer/weights/safetensors.h"
#include "analyzer/weights/tensor_stats.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<flopscope::TensorLocation> tensors;
  flopscope::Status st = flopscope::parse_safetensors({data, size}, "fuzz.safetensors", &tensors);
  if (!st.ok()) return 0;
  flopscope::WeightsOptions options;
  for (const auto& t : tensors) (void)flopscope::measure_tensor(t, options);
  return 0;
}
