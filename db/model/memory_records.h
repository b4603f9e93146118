// Allocator events of a trace recorded with torch.profiler(profile_memory=True): one Kineto "[memory]"
// instant event per allocation or free. A header of its own so that the record can grow without
// rebuilding everything that includes records.h.
#pragma once

#include <cstdint>

namespace flopscope {

struct MemoryEvent {
  std::int64_t ts_ns = 0;   // host clock, nanoseconds from the run's start (the clock of OpRecord::start_ns)
  std::int64_t thread = 0;  // the host thread that allocated or freed (as OpRecord::thread)
  std::int64_t bytes = 0;   // > 0 allocated, < 0 freed
  // The allocator's totals on this device after the event; -1 when the trace did not record them.
  std::int64_t total_allocated = -1;
  std::int64_t total_reserved = -1;
  std::int64_t addr = 0;  // the block's address, as recorded (0 when not)
  int device_type = 0;    // c10::DeviceType as Kineto writes it: 0 CPU, 1 CUDA, 6 HIP, ...
  int device_id = -1;     // -1 for the CPU
};

}  // namespace flopscope
