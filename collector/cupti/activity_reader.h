// Reads a completed CUPTI activity buffer into plain records. Fields are copied by value: CUPTI's records
// are packed, so no reference may bind to them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "collector/cupti/cupti_api.h"
#include "db/model/records.h"

namespace flopscope::gpu {

struct DeviceActivity {
  KernelKind kind = KernelKind::kKernel;
  std::string name;  // kernel name (mangled, copied), or "[memcpy HtoD]" / "[memset]"
  std::uint32_t device = 0;
  std::uint32_t context = 0;
  std::uint32_t stream = 0;
  std::uint64_t start = 0;  // ns, CUPTI clock; 0 with end == 0 when CUPTI had no timestamp
  std::uint64_t end = 0;
  std::array<int, 3> grid{0, 0, 0};
  std::array<int, 3> block{0, 0, 0};
  std::uint32_t correlation = 0;          // of the launching driver (or runtime) API call
  std::uint32_t runtime_correlation = 0;  // memcpy: of the runtime API call around it, 0 if none
  std::uint32_t graph_id = 0;
  std::uint64_t graph_node_id = 0;
  std::uint64_t bytes = 0;  // memcpy / memset size
};

struct ExternalCorrelation {
  std::uint32_t correlation = 0;
  std::uint64_t external_id = 0;
};

struct ActivityBatch {
  std::vector<DeviceActivity> device;
  std::vector<ExternalCorrelation> external;
  std::int64_t other_records = 0;  // kinds flopscope does not use (API records, markers)
};

// Appends the records of one buffer. A record of a kind CUPTI itself cannot decode ends the buffer with
// an error (the rest of the buffer is lost, and the caller counts it in data quality).
Status read_activity_buffer(CuptiApi& api, std::uint8_t* buffer, std::size_t valid_bytes, ActivityBatch& out);

const char* memcpy_kind_name(std::uint8_t copy_kind);

}  // namespace flopscope::gpu
