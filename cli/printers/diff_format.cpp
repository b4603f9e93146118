#include "cli/printers/diff_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace flopscope::cli {
namespace {

// Display width of UTF-8 text (every code point counts one column).
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80 ? 1 : 0;
  return w;
}

}  // namespace

std::string format_general(double v) {
  return fmt::format("{:.4g}", v);
}

std::string format_shape(const std::vector<std::int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ","));
}

std::string TextTable::to_text() const {
  // A cell is one line whatever a name holds: a newline in a module name must not start a line of its own.
  std::vector<std::vector<std::string>> lines;
  lines.reserve(rows.size());
  for (const auto& r : rows) {
    std::vector<std::string> safe;
    for (const auto& c : r) safe.push_back(terminal_safe(c, false));
    lines.push_back(std::move(safe));
  }
  std::size_t cols = header.size();
  std::vector<std::size_t> w(cols, 0);
  for (std::size_t c = 0; c < cols; ++c) w[c] = width(header[c]);
  for (const auto& r : lines) {
    for (std::size_t c = 0; c < cols && c < r.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (std::size_t c = 0; c < cols; ++c) {
      const std::string cell = c < r.size() ? r[c] : "";
      std::string pad(w[c] - width(cell), ' ');
      bool right = c < right_align.size() && right_align[c];
      out += right ? pad + cell : cell + (c + 1 < cols ? pad : "");
      if (c + 1 < cols) out += "  ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < cols; ++c) rule.emplace_back(w[c], '-');
  out += line(rule);
  for (const auto& r : lines) out += line(r);
  return out;
}

std::string TextTable::to_markdown() const {
  std::string out = "|";
  for (const auto& h : header) out += " " + markdown_escape(h) + " |";
  out += "\n|";
  for (std::size_t c = 0; c < header.size(); ++c) {
    out += (c < right_align.size() && right_align[c]) ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& r : rows) {
    out += "|";
    for (std::size_t c = 0; c < header.size(); ++c)
      out += " " + markdown_escape(c < r.size() ? r[c] : "") + " |";
    out += "\n";
  }
  return out;
}

std::string TextTable::to_html() const {
  std::string out = "<table>\n<thead><tr>";
  for (const auto& h : header) out += "<th>" + html_escape(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& r : rows) {
    out += "<tr>";
    for (std::size_t c = 0; c < header.size(); ++c) {
      bool right = c < right_align.size() && right_align[c];
      out += right ? "<td class=\"num\">" : "<td>";
      out += html_escape(c < r.size() ? r[c] : "") + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace flopscope::cli
