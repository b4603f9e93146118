// How every front end words an amount of work that may be incomplete: FLOPs that are a lower bound (some op
// below has no formula) carry the mark ">= 264 TFLOPs" in the CLI's reports and the GUI alike.
#pragma once

#include <string>

namespace flopscope {

std::string lower_bound_flops_text(double flops, bool complete);

}  // namespace flopscope
