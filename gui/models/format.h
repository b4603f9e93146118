// Human-readable numbers for tables, tooltips and verdicts: 1.8 GFLOP, 12.0 MB, 0.91 ms.
#pragma once

#include <string>

namespace flopscope::gui {

std::string format_flops(double flops);
std::string format_bytes(double bytes);
std::string format_ns(double ns);
std::string format_count(double n);

}  // namespace flopscope::gui
