// Which clock a run's times are read on. One owner for the choice: device (kernel) time when the run has
// kernels (a GPU run: the host only launches), host op time otherwise. Reports, the GUI, the graphs and
// the heatmap ask here and label what they show; none decides on its own.
#pragma once

#include "analyzer/latency.h"
#include "analyzer/summary.h"

namespace flopscope {

enum class Clock { kHost, kDevice };

Clock run_clock(const RunSummary& s);
// "device" or "host", for labels ("device time", "host time").
const char* to_string(Clock c);

// A module's time per iteration on a clock: inclusive (its subtree) or self (its own ops or kernels).
const LatencyStats& inclusive_time(const ModuleSummary& m, Clock c);
const LatencyStats& self_time(const ModuleSummary& m, Clock c);
// The run's time per iteration on a clock.
const LatencyStats& iteration_time(const RunSummary& s, Clock c);

}  // namespace flopscope
