// Limits that keep memory bounded whatever a crafted input holds. Each is far above what real runs need;
// hitting one is one error line naming the limit and the flag that raises it (exit 2), never an
// exhausted machine. Process-wide: the CLI sets them from its global flags before any command runs.
#pragma once

#include <cstdint>

namespace flopscope {

struct InputLimits {
  std::uint64_t max_json_value_bytes = std::uint64_t{64} << 20;  // one trace event or top-level field
  int max_json_depth = 256;                                      // nesting of one JSON value
  int max_module_depth = 256;                                    // module hierarchy levels
  // Modules x iterations values in a JSON report (every module's time per iteration, written dense).
  std::uint64_t max_module_iteration_cells = 8'000'000;
};

InputLimits& input_limits();

}  // namespace flopscope
