// A run as a Chrome trace (the JSON that Perfetto, chrome://tracing, HTA and the PyTorch profiler read): ops,
// kernels, their runtime calls as recorded, module call ranges, iterations, counters, launch -> kernel flow
// arrows, process and thread names, and the device in Kineto's "deviceProperties". Module ranges use the
// names flopscope's Python companion writes ("flopscope.module <Class> <path>"), so the file loads back
// through the Kineto importer with the same module paths.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"
#include "db/model/trace_extras.h"

namespace flopscope {

struct ChromeTraceStats {
  std::size_t ops = 0;
  std::size_t kernels = 0;
  std::size_t module_ranges = 0;
  std::size_t iterations = 0;
  std::size_t runtime_calls = 0;        // kernel launches (cuda_runtime events), one per correlation id
  std::size_t other_runtime_calls = 0;  // runtime calls that launched nothing (synchronisations, ...)
  std::size_t python_events = 0;        // Python stack frames (python_function events)
};

// The whole trace as JSON text. `extras` (a trace's host events and deviceProperties as recorded, see
// db/model/trace_extras.h) are written back when given.
std::string chrome_trace_json(const RunData& run, ChromeTraceStats* stats = nullptr,
                              const TraceExtras* extras = nullptr);

// Gzip of `text` (for .json.gz outputs).
StatusOr<std::string> gzip_text(const std::string& text);

}  // namespace flopscope
