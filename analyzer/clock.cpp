#include "analyzer/clock.h"

namespace flopscope {

Clock run_clock(const RunSummary& s) {
  return s.has_kernels ? Clock::kDevice : Clock::kHost;
}

const char* to_string(Clock c) {
  return c == Clock::kDevice ? "device" : "host";
}

const LatencyStats& inclusive_time(const ModuleSummary& m, Clock c) {
  return c == Clock::kDevice ? m.gpu_time : m.inclusive_time;
}

const LatencyStats& self_time(const ModuleSummary& m, Clock c) {
  return c == Clock::kDevice ? m.gpu_self_time : m.self_time;
}

const LatencyStats& iteration_time(const RunSummary& s, Clock c) {
  return c == Clock::kDevice ? s.iteration_gpu_time : s.iteration_time;
}

}  // namespace flopscope
