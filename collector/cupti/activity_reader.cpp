#include "collector/cupti/activity_reader.h"

#include <utility>

namespace flopscope::gpu {
namespace {

DeviceActivity from_kernel(const CUpti_ActivityKernel10& k) {
  DeviceActivity a;
  a.kind = KernelKind::kKernel;
  const char* name = k.name;
  a.name = name != nullptr ? name : "";
  a.device = k.deviceId;
  a.context = k.contextId;
  a.stream = k.streamId;
  a.start = k.start;
  a.end = k.end;
  a.grid = {k.gridX, k.gridY, k.gridZ};
  a.block = {k.blockX, k.blockY, k.blockZ};
  a.correlation = k.correlationId;
  a.graph_id = k.graphId;
  a.graph_node_id = k.graphNodeId;
  return a;
}

// Memcpy and memset records share these fields (same names, different layouts).
template <typename Record>
DeviceActivity from_memory_op(const Record& m, KernelKind kind, std::string name) {
  DeviceActivity a;
  a.kind = kind;
  a.name = std::move(name);
  a.device = m.deviceId;
  a.context = m.contextId;
  a.stream = m.streamId;
  a.start = m.start;
  a.end = m.end;
  a.correlation = m.correlationId;
  a.graph_id = m.graphId;
  a.graph_node_id = m.graphNodeId;
  a.bytes = m.bytes;
  return a;
}

}  // namespace

const char* memcpy_kind_name(std::uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return "HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return "AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      return "AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
      return "AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      return "DtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "PtoP";
    default:
      return "?";
  }
}

Status read_activity_buffer(CuptiApi& api, std::uint8_t* buffer, std::size_t valid_bytes,
                            ActivityBatch& out) {
  if (buffer == nullptr || valid_bytes == 0) return {};
  CUpti_Activity* record = nullptr;
  while (true) {
    CUptiResult r = api.next_record(buffer, valid_bytes, &record);
    if (r == CUPTI_ERROR_MAX_LIMIT_REACHED) return {};
    if (r != CUPTI_SUCCESS) return cupti_status(api, r, "reading a CUPTI activity buffer");
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        out.device.push_back(from_kernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record)));
        break;
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto& m = *reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        std::uint8_t copy_kind = m.copyKind;
        out.device.push_back(from_memory_op(m, KernelKind::kMemcpy,
                                            std::string("[memcpy ") + memcpy_kind_name(copy_kind) + "]"));
        out.device.back().runtime_correlation = m.runtimeCorrelationId;
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET:
        out.device.push_back(from_memory_op(*reinterpret_cast<const CUpti_ActivityMemset4*>(record),
                                            KernelKind::kMemset, "[memset]"));
        break;
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto* e = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
        if (e->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2) {
          out.external.push_back({e->correlationId, e->externalId});
        } else {
          ++out.other_records;
        }
        break;
      }
      default:
        ++out.other_records;
        break;
    }
  }
}

}  // namespace flopscope::gpu
