// Limits that keep memory bounded whatever a crafted input holds. Each is far above what real runs need;
// hitting one is one error line naming the limit and the flag that raises it (exit 2), never an
// exhausted machine. Process-wide: the CLI sets them from its global flags before any command runs.
#pragma once

#include <cstdint>
#include <string_view>

#include "db/model/status.h"

namespace flopscope {

struct InputLimits {
  std::uint64_t max_json_value_bytes = std::uint64_t{64} << 20;  // one trace event or top-level field
  int max_json_depth = 256;                                      // nesting of one JSON value
  int max_module_depth = 256;                                    // module hierarchy levels
  // Modules x iterations values in a JSON report (every module's time per iteration, written dense).
  std::uint64_t max_module_iteration_cells = 8'000'000;
  // Events of one trace: what the importer keeps per event is the memory a trace costs. 0 = sized from the
  // memory available when first asked (default_max_events).
  std::uint64_t max_events = 0;
  // Bytes a compressed trace may expand to: a gzip bomb of whitespace costs time, not memory.
  std::uint64_t max_decompressed_bytes = std::uint64_t{64} << 30;
};

InputLimits& input_limits();

// Bytes per trace event at the peak of `report` on a trace (measured with /usr/bin/time -v: 1M -> 2M cpu_op
// events added 595 MB; `import` adds about 190 bytes per event).
inline constexpr std::uint64_t kBytesPerEvent = 600;
// Events that fit in half of MemAvailable (/proc/meminfo) at kBytesPerEvent, at least 1M; 200M where
// /proc/meminfo cannot be read.
std::uint64_t default_max_events();
// The events limit in force: max_events, or default_max_events() when it is 0.
std::uint64_t max_events();

// The one module depth rule, for every reader and writer of module paths: `levels` is a path's segment
// count ("" 0, "a.b" 2). `source` names the input in the message.
Status check_module_depth(std::string_view source, std::size_t levels);

}  // namespace flopscope
