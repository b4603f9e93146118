// The one formatter of numbers for people (terminal, Markdown, HTML, graph labels, GUI tables, axes):
// three significant digits with decimal SI prefixes, "FLOPs" for counts of floating-point operations,
// "µs" for microseconds. JSON and CSV carry raw units and never go through here.
#pragma once

#include <string>

namespace flopscope {

std::string si_text(double value, const char* unit);  // "1.23 GFLOPs", "4.5 kB", "-2.5 kFLOPs", "999 B"
std::string flops_text(double flops);                 // "1.23 GFLOPs"
std::string bytes_text(double bytes);                 // "12.3 MB"
std::string time_text(double ns);                     // "812 ns", "12.3 µs", "1.23 ms", "4.56 s"
std::string count_text(double n);                     // "42" for whole numbers, else "41.5"
std::string percent_text(double fraction);            // 0.123 -> "12.3%"
std::string signed_percent_text(double fraction);     // 0.05 -> "+5.0%"

}  // namespace flopscope
