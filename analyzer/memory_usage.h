// Memory per op and per module from a trace's allocator events (torch.profiler profile_memory=True): the
// bytes allocated and freed while each ran, the net change, and the highest allocator total seen during it,
// per device (the CPU and each GPU apart). One owner for the report formats and the GUI's module tree.
//
// The convention: an event belongs to the innermost op on its own thread whose host interval contains the
// event's host timestamp (start <= ts <= end); an event inside no op is unattributed. A module's figures
// are its ops' (self) and with its children's (total). Times are host timestamps: the allocator's events
// are recorded on the host thread that asked, as the ops are.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/memory_records.h"
#include "db/model/run_data.h"

namespace flopscope {

struct MemoryFigures {
  std::int64_t allocated = 0;    // bytes of the allocations (Bytes > 0)
  std::int64_t freed = 0;        // bytes of the frees, as a positive number
  std::int64_t allocations = 0;  // events
  std::int64_t frees = 0;
  // The highest "Total Allocated" after an event counted here: the device's allocated total (every owner's
  // bytes, not only this op's) at its peak during it; -1 when no event recorded a total.
  std::int64_t peak = -1;
  std::int64_t net() const { return allocated - freed; }
  bool any() const { return allocations + frees > 0; }
};

// One device as Kineto names it: c10::DeviceType and index.
struct MemoryDevice {
  int type = 0;
  int id = -1;
  bool operator==(const MemoryDevice&) const = default;
};
// "cpu", "cuda:0", "hip:0"; "device type 9:0" for a type without a name here.
std::string memory_device_name(const MemoryDevice& d);

struct MemoryOpRow {
  std::string name;        // op name, e.g. "aten::empty"
  std::size_t device = 0;  // index into MemoryUsage::devices
  std::int64_t ops = 0;    // op calls with at least one event on this device (self or nested)
  MemoryFigures self;      // events whose innermost op is this one
  MemoryFigures total;     // with the events of the ops nested in it
};

struct MemoryModuleRow {
  std::size_t module = 0;  // index into RunSummary::modules
  std::size_t device = 0;
  MemoryFigures self;   // events of the module's own ops
  MemoryFigures total;  // with its children's
};

struct MemoryUsage {
  std::int64_t events = 0;                   // every allocator event of the run
  std::vector<MemoryDevice> devices;         // GPUs first (by type and index), the CPU last
  std::vector<MemoryFigures> device_totals;  // per device: every event
  std::vector<MemoryFigures> unattributed;   // per device: events inside no op
  std::vector<MemoryOpRow> ops;              // by op name and device; most total allocated first
  std::vector<MemoryModuleRow> modules;      // modules with events; most total allocated first
  std::vector<MemoryFigures> module_totals;  // every module's total: [module * devices.size() + device]
  bool empty() const { return events == 0; }
  // A module's total figures on a device; nullptr when it had none.
  const MemoryFigures* module_total(std::size_t module, std::size_t device) const;
};

// `s` summarises `run` (its modules are the module rows' index); needs run's op rows when it has memory
// events. Empty when the run recorded none.
MemoryUsage memory_usage(const RunData& run, const RunSummary& s);

// The cell the report and the GUI show for a module's allocated bytes: per device, "12.3 MB" alone when
// the run has one device, else "12.3 MB cuda:0, 1.02 kB cpu"; "-" when nothing was allocated in it.
std::string module_allocated_text(const MemoryUsage& m, std::size_t module);

}  // namespace flopscope
