// A run as a Chrome trace (the JSON that Perfetto, chrome://tracing and the PyTorch profiler use): ops,
// kernels, module call ranges, iterations, counters and launch -> kernel flow arrows. Module ranges use the
// names flopscope's Python companion writes ("flopscope.module <Class> <path>"), so the file loads back
// through the Kineto importer with the same module paths.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope {

struct ChromeTraceStats {
  std::size_t ops = 0;
  std::size_t kernels = 0;
  std::size_t module_ranges = 0;
  std::size_t iterations = 0;
};

// The whole trace as JSON text.
std::string chrome_trace_json(const RunData& run, ChromeTraceStats* stats = nullptr);

// Gzip of `text` (for .json.gz outputs).
StatusOr<std::string> gzip_text(const std::string& text);

}  // namespace flopscope
