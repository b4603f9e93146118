// Number and table formatting shared by the diff and weights printers: SI units a reader can scan
// (1.8 GFLOP, 12.0 MB, 0.91 ms), and one table model rendered as aligned text, Markdown or HTML.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flopscope::cli {

std::string format_flops(double flops);
std::string format_bytes(double bytes);
std::string format_time_ns(double ns);
std::string format_count(double n);
std::string format_percent(double fraction);         // 0.123 -> "12.3%"
std::string format_signed_percent(double fraction);  // 0.05 -> "+5.0%"
std::string format_shape(const std::vector<std::int64_t>& shape);
std::string format_general(double v);                // %.4g

struct TextTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right_align;  // per column; missing means left

  std::string to_text() const;      // aligned columns, header underlined
  std::string to_markdown() const;  // GitHub table, pipes escaped
  std::string to_html() const;      // <table> with escaped cells
};

std::string html_escape(const std::string& s);
std::string markdown_escape(const std::string& s);
std::string xml_escape(const std::string& s);

}  // namespace flopscope::cli
