// Human-readable numbers for verdicts, terminal and Markdown output (the diff engine words its verdicts
// with them, so every front end shows the same text). JSON and CSV always carry raw units.
#pragma once

#include <string>

namespace flopscope {

std::string si(double value, const char* unit);      // 1.23 GFLOPs, 4.5 MB (decimal prefixes)
std::string flops_text(double flops);                // "1.23 GFLOPs"
std::string bytes_text(double bytes);                // "12.3 MB"
std::string time_text(double ns);                    // "1.234 ms", "56.7 us"
std::string percent_text(double fraction);           // "12.3%"
std::string format_count(double n);                  // "64", "2.5"
std::string format_signed_percent(double fraction);  // 0.05 -> "+5.0%"

}  // namespace flopscope
