// libFuzzer target: the ncu importer on arbitrary bytes.
#include "fuzz_importer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return flopscope::fuzz::run_importer("ncu", ".csv", data, size);
}
