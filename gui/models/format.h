// Human-readable numbers for tables, tooltips and verdicts come from the core's one formatter
// (analyzer/format.h), so the GUI and the CLI print the same "1.80 GFLOPs"; these are its names here.
#pragma once

#include <string>

#include "analyzer/format.h"

namespace flopscope::gui {

inline std::string format_flops(double flops) {
  return flops_text(flops);
}
inline std::string format_bytes(double bytes) {
  return bytes_text(bytes);
}
inline std::string format_ns(double ns) {
  return time_text(ns);
}
inline std::string format_count(double n) {
  return count_text(n);
}

}  // namespace flopscope::gui
