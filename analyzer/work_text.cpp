#include "analyzer/work_text.h"

#include "analyzer/format.h"

namespace flopscope {

std::string lower_bound_flops_text(double flops, bool complete) {
  return complete ? flops_text(flops) : ">= " + flops_text(flops);
}

}  // namespace flopscope
