// How every front end words an amount of work that may be incomplete: FLOPs that are a lower bound (some op
// below has no formula) carry the mark ">= 264 TFLOPs" in the CLI's reports and the GUI alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace flopscope {

std::string lower_bound_flops_text(double flops, bool complete);

// "ops" is one word for one thing: calls of ops that ran ("64 op calls"; per iteration in a diff), in the
// CLI's tables and verdicts and the GUI. A drawn graph counts its nodes instead: one node per op of the
// model's graph, whatever it ran ("26 op nodes").
inline constexpr const char* kOpCallsWord = "op calls";
std::string op_calls_text(double calls);       // "64 op calls", "1 op call"
std::string op_nodes_text(std::size_t nodes);  // "26 op nodes", "1 op node"

// Kernel attribution is over the recorded window: orphan kernels (launched before it, or by an untraced
// thread: no op could have launched them) are counted apart, never in the denominator of "linked to an
// op N/M" or of the attributed device-time share. `import` and `report` both word it so.
struct WindowKernels {
  std::int64_t kernels = 0;  // in the window
  double time_ns = 0;        // their device time
  std::int64_t orphans = 0;
};
WindowKernels window_kernels(std::int64_t all_kernels, double all_time_ns, std::int64_t orphans,
                             double orphan_ns);
// "" without orphans, else "; 3 orphan kernels (before the window or from an untraced thread) apart".
std::string orphans_apart_text(std::int64_t orphans);

}  // namespace flopscope
