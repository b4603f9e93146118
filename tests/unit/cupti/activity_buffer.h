// Builds CUPTI activity buffers by laying CUDA 13.0 record structs end to end, as CUPTI does.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace flopscope::gpu::testing {

class ActivityBuffer {
 public:
  ActivityBuffer() : bytes_(1 << 16) {}

  template <typename Record>
  void add(const Record& r) {
    std::memcpy(bytes_.data() + used_, &r, sizeof(Record));
    used_ += sizeof(Record);
  }
  std::uint8_t* data() { return bytes_.data(); }
  std::size_t size() const { return used_; }

 private:
  struct alignas(8) Byte8 {
    std::uint8_t b[8];
  };
  // 8-byte aligned storage viewed as bytes.
  struct Storage {
    explicit Storage(std::size_t n) : words(n / 8) {}
    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(words.data()); }
    std::vector<Byte8> words;
  } bytes_;
  std::size_t used_ = 0;
};

inline CUpti_ActivityKernel10 kernel_record(const char* name, std::uint32_t correlation, std::uint64_t start,
                                            std::uint64_t end, std::uint32_t graph_id = 0,
                                            std::uint64_t graph_node = 0) {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.name = name;
  k.correlationId = correlation;
  k.start = start;
  k.end = end;
  k.deviceId = 0;
  k.contextId = 1;
  k.streamId = 7;
  k.gridX = 128;
  k.gridY = 2;
  k.gridZ = 1;
  k.blockX = 256;
  k.blockY = 1;
  k.blockZ = 1;
  k.graphId = graph_id;
  k.graphNodeId = graph_node;
  return k;
}

}  // namespace flopscope::gpu::testing
