// Human-readable numbers for terminal and Markdown output. JSON and CSV always carry raw units.
#pragma once

#include <string>

namespace flopscope::cli {

std::string si(double value, const char* unit);  // 1.23 GFLOPs, 4.5 MB (decimal prefixes)
std::string flops_text(double flops);            // "1.23 GFLOPs"
std::string bytes_text(double bytes);            // "12.3 MB"
std::string time_text(double ns);                // "1.234 ms", "56.7 us"
std::string percent_text(double fraction);       // "12.3%"

}  // namespace flopscope::cli
