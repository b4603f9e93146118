// SVG output of the module icicle: plain rectangles and text, no scripts, so it opens anywhere (browsers,
// review tools) and embeds safely in the HTML report.
#include <fmt/format.h>

#include <algorithm>

#include "db/model/text_escape.h"
#include "graphs/icicle.h"
#include "graphs/svg_frame.h"

namespace flopscope::graphs {
namespace {

// Text that fits a cell of `width` px at ~7 px per character, with an ellipsis when cut.
std::string fit(const std::string& label, double width) {
  auto chars = static_cast<std::size_t>(std::max(0.0, (width - 6) / 7));
  if (chars < 2) return "";
  if (label.size() <= chars) return label;
  return label.substr(0, chars - 1) + "\xE2\x80\xA6";
}

}  // namespace

std::string icicle_svg(const Icicle& icicle, const RunSummary&, const std::string& title, int width) {
  constexpr int kRow = 22;
  constexpr int kTop = 48;
  const int notes_height = 16 * static_cast<int>(icicle.notes.size());
  const int height = kTop + kRow * std::max(1, icicle.depth) + 12 + notes_height;
  std::string svg =
      svg_frame_start(width, height, title, {"width: " + icicle.measure + "; total " + icicle.root_text});
  const double usable = width - 16;
  for (const IcicleCell& c : icicle.cells) {
    double x = 8 + c.x0 * usable;
    double w = (c.x1 - c.x0) * usable;
    int y = kTop + c.depth * kRow;
    svg += fmt::format(
        "<g><title>{0}</title><rect x=\"{1:.2f}\" y=\"{2}\" width=\"{3:.2f}\" height=\"{4}\" fill=\"{5}\" "
        "stroke=\"#ffffff\" stroke-width=\"1\"/>",
        xml_escape(c.text), x, y, w, kRow - 1, c.fill);
    // The name, and its cost when there is room for both.
    std::string full = c.label + "  " + c.value_text;
    std::string label = fit(full, w) == full ? full : fit(c.label, w);
    if (!label.empty())
      svg += fmt::format("<text x=\"{0:.2f}\" y=\"{1}\">{2}</text>", x + 3, y + 15, xml_escape(label));
    svg += "</g>\n";
  }
  svg += svg_notes(icicle.notes, kTop + kRow * std::max(1, icicle.depth) + 16);
  svg += "</svg>\n";
  return svg;
}

}  // namespace flopscope::graphs
