// What a trace recorded that no analysis reads but an export writes back (schema 016): the host events that
// are neither ops nor kernel launches (the Python stack of a trace recorded with_stack, runtime calls that
// launched nothing: synchronisations, copies without a device record, event records, ...) and the trace's
// own deviceProperties entries as written. Kept apart from RunData: only `export` and the importers use it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flopscope {

struct HostEventRecord {
  std::string category;  // the source's "cat": python_function, cuda_runtime, cuda_driver, ...
  std::string name;
  std::int64_t start_ns = 0;           // host clock, nanoseconds from the run's start (may be negative: the
                                       // origin is the earliest op, kernel or launch, not a Python frame)
  std::int64_t duration_ns = 0;        // host time
  std::int64_t thread = 0;             // host thread id, as OpRecord::thread
  std::int64_t correlation = -1;       // a runtime call's correlation id; -1 when none
  std::int64_t python_id = -1;         // a Python frame's "Python id"; -1 when none
  std::int64_t python_parent_id = -1;  // its "Python parent id"; -1 for a root frame or none
};

struct TraceExtras {
  std::vector<HostEventRecord> host_events;  // in start order
  // The source's top-level "deviceProperties" array, minified JSON, every field as the source had it;
  // empty when it had none.
  std::string device_properties;
};

}  // namespace flopscope
