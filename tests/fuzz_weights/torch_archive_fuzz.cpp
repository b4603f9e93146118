// libFuzzer target for the zip + pickle reader of torch.save / TorchScript archives: errors or tensors whose
// (possibly strided) views stay inside the input.
#include <cstddef>
#include <cstdint>

#include "analyzer/weights/tensor_stats.h"
#include "analyzer/weights/torch_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto source = flopscope::parse_torch_archive({data, size}, "fuzz.bin");
  if (!source.ok()) return 0;
  flopscope::WeightsOptions options;
  for (const auto& t : source->tensors) (void)flopscope::measure_tensor(t, options);
  return 0;
}
