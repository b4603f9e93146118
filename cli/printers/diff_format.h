// Formatting shared by the diff and weights printers: counts, signed percentages, shapes, and one table
// model rendered as aligned text, Markdown or HTML.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/printers/units.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {

// Units (flops_text, bytes_text, time_text, percent_text, format_count, format_signed_percent): units.h.
std::string format_shape(const std::vector<std::int64_t>& shape);
std::string format_general(double v);  // %.4g

struct TextTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<bool> right_align;  // per column; missing means left

  std::string to_text() const;      // aligned columns, header underlined
  std::string to_markdown() const;  // GitHub table, pipes escaped
  std::string to_html() const;      // <table> with escaped cells
};

// Escaping (html_escape, markdown_escape, markdown_code, xml_escape, csv_field, terminal_safe) comes from
// db/model/text_escape.h, the one place every printer uses.

}  // namespace flopscope::cli
