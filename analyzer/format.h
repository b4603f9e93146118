// The one formatter of numbers for people (terminal, Markdown, HTML, graph labels, GUI tables, axes):
// three significant digits with decimal SI prefixes, "FLOPs" for counts of floating-point operations,
// "µs" for microseconds. JSON and CSV carry raw units and never go through here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace flopscope {

std::string si_text(double value, const char* unit);  // "1.23 GFLOPs", "4.5 kB", "-2.5 kFLOPs", "999 B"
std::string flops_text(double flops);                 // "1.23 GFLOPs"
std::string bytes_text(double bytes);                 // "12.3 MB"
std::string time_text(double ns);                     // "812 ns", "12.3 µs", "1.23 ms", "4.56 s"
std::string count_text(double n);                     // "42" for whole numbers, else "41.5"
std::string percent_text(double fraction);            // 0.123 -> "12.3%"
std::string signed_percent_text(double fraction);     // 0.05 -> "+5.0%"
// "1 iteration", "2 iterations", "0 iterations": a count and its noun, plural unless the count is one
// (`plural_noun` for nouns that do not just take an "s").
std::string count_of(long long n, std::string_view noun, std::string_view plural_noun = {});

// A name cut to at most `width` characters by dropping its middle, so the part that tells similar names
// apart stays: layer numbers at the end of a path, a GEMM's tile sizes at the end of a kernel name.
// "sm90_xmma_gemm_bf16bf16_..._tilesize128x128x64" -> "sm90_xmma_gemm_b~128x128x64". Never splits a UTF-8
// character; names that fit are returned unchanged.
std::string elide_middle(std::string_view name, std::size_t width);
// Every name of one table cut to `width` so that different names stay different: elide_middle, and where two
// names would then read the same, a second cut that keeps the part where they differ ("gemm_~128x64~_kernel"
// vs "gemm_~256x64~_kernel").
std::vector<std::string> elide_distinct(const std::vector<std::string>& names, std::size_t width);

}  // namespace flopscope
