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

}  // namespace flopscope
