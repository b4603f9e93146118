#include "analyzer/work_text.h"

#include "analyzer/format.h"

namespace flopscope {

std::string lower_bound_flops_text(double flops, bool complete) {
  return complete ? flops_text(flops) : ">= " + flops_text(flops);
}

std::string op_calls_text(double calls) {
  return count_text(calls) + (calls == 1 ? " op call" : " op calls");
}

std::string op_nodes_text(std::size_t nodes) {
  return std::to_string(nodes) + (nodes == 1 ? " op node" : " op nodes");
}

WindowKernels window_kernels(std::int64_t all_kernels, double all_time_ns, std::int64_t orphans,
                             double orphan_ns) {
  WindowKernels w;
  w.orphans = orphans;
  w.kernels = all_kernels - orphans;
  w.time_ns = all_time_ns - orphan_ns;
  return w;
}

std::string orphans_apart_text(std::int64_t orphans) {
  if (orphans <= 0) return "";
  return "; " + std::to_string(orphans) + " orphan kernel" + (orphans == 1 ? "" : "s") +
         " (before the window or from an untraced thread) apart";
}

}  // namespace flopscope
