// SVG output of the roofline plot: plain shapes and text, no scripts, so it opens anywhere and embeds
// safely in the HTML report.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "analyzer/format.h"
#include "db/model/text_escape.h"
#include "graphs/roofline_plot.h"
#include "graphs/svg_frame.h"

namespace flopscope::graphs {
namespace {

// "0.01", "1", "100", "10 k": decade labels short enough for an axis.
std::string decade_label(int k, const char* unit) {
  if (k < 0) return fmt::format("{:.{}f}", std::pow(10.0, k), -k) + (*unit ? std::string(" ") + unit : "");
  return si_text(std::pow(10.0, k), unit);
}

struct Axis {
  int lo = 0, hi = 1;  // decades
  double px0 = 0, px1 = 1;
  double at(double v) const {
    return px0 + (std::log10(v) - lo) / static_cast<double>(hi - lo) * (px1 - px0);
  }
};

Axis axis_over(double min_v, double max_v, double px0, double px1) {
  Axis a;
  a.lo = static_cast<int>(std::floor(std::log10(min_v)));
  a.hi = static_cast<int>(std::ceil(std::log10(max_v)));
  if (a.hi <= a.lo) a.hi = a.lo + 1;
  a.px0 = px0;
  a.px1 = px1;
  return a;
}

constexpr double kLeft = 112, kRight = 30, kTop = 76, kBottom = 70;

// The plot area's two log axes over every point (and the roof around its ridge, when there is one).
struct Frame {
  Axis x, y;
  int width = 0, height = 0;
};

Frame frame_of(const RooflinePlot& plot, bool roof, int width, int height) {
  double x_min = 1e300, x_max = 0, y_min = 1e300, y_max = 0;
  for (const auto& p : plot.points) {
    x_min = std::min(x_min, p.intensity);
    x_max = std::max(x_max, p.intensity);
    y_min = std::min(y_min, p.achieved);
    y_max = std::max(y_max, p.achieved);
  }
  if (roof) {
    const double ridge = plot.peak->ridge();
    x_min = std::min(x_min, ridge / 10);
    x_max = std::max(x_max, ridge * 10);
    y_max = std::max(y_max, plot.peak->flops_per_s);
    y_min = std::min(y_min, x_min * plot.peak->bytes_per_s);
  }
  if (x_max <= 0) x_min = 0.1, x_max = 10;
  if (y_max <= 0) y_min = 1e6, y_max = 1e9;
  return {axis_over(x_min, x_max, kLeft, width - kRight), axis_over(y_min, y_max, height - kBottom, kTop),
          width, height};
}

// Grid, decade ticks, the plot's border and the axis titles.
std::string grid_svg(const RooflinePlot& plot, const Frame& f) {
  const Axis &ax = f.x, &ay = f.y;
  const int width = f.width, height = f.height;
  std::string svg;
  for (int k = ax.lo; k <= ax.hi; ++k) {
    const double x = ax.at(std::pow(10.0, k));
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x, kTop, height - kBottom, height - kBottom + 16, xml_escape(decade_label(k, "")));
  }
  for (int k = ay.lo; k <= ay.hi; ++k) {
    const double y = ay.at(std::pow(10.0, k));
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e4e4e4\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, y, width - kRight, kLeft - 6, y + 4, xml_escape(decade_label(k, "FLOP/s")));
  }
  svg +=
      fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888888\"/>\n",
                  kLeft, kTop, width - kRight - kLeft, height - kBottom - kTop);
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">arithmetic intensity, FLOPs per byte ({})</text>\n",
      (kLeft + width - kRight) / 2, height - kBottom + 40, xml_escape(plot.bytes_kind));
  svg += fmt::format(
      "<text transform=\"translate(18 {}) rotate(-90)\" text-anchor=\"middle\">achieved FLOP/s ({})</text>\n",
      (kTop + height - kBottom) / 2, xml_escape(plot.clock));
  return svg;
}

// A text's box on the plot, for placing labels that do not overlap.
struct Box {
  double x0, y0, x1, y1;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// The peak label's text, and its box at the plot's default 12 px font (about 6.8 px a character).
std::string peak_label(const DevicePeak& pk) {
  return si_text(pk.flops_per_s, "FLOP/s") + " peak; ridge " + si_text(pk.ridge(), "FLOP/B");
}
Box peak_label_box(const DevicePeak& pk, const Frame& f) {
  const double x = f.x.at(pk.ridge()) + 6, y = f.y.at(pk.flops_per_s) + 16;
  return {x, y - 11, x + 6.8 * static_cast<double>(peak_label(pk).size()), y + 4};
}

// The roof: bandwidth slope up to the ridge, then the compute ceiling.
std::string roof_svg(const DevicePeak& pk, const Frame& f) {
  const Axis &ax = f.x, &ay = f.y;
  const double x0 = std::pow(10.0, ax.lo), x1 = std::pow(10.0, ax.hi), ridge = pk.ridge();
  const double y0 = std::max(x0 * pk.bytes_per_s, std::pow(10.0, ay.lo));
  const double x0c = y0 / pk.bytes_per_s;
  std::string svg = fmt::format(
      "<polyline fill=\"none\" stroke=\"#b22222\" stroke-width=\"2\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} "
      "{:.1f},{:.1f}\">"
      "<title>{}</title></polyline>\n",
      ax.at(x0c), ay.at(y0), ax.at(ridge), ay.at(pk.flops_per_s), ax.at(x1), ay.at(pk.flops_per_s),
      xml_escape(pk.name + ": " + si_text(pk.flops_per_s, "FLOP/s") + ", " + si_text(pk.bytes_per_s, "B/s") +
                 "; ridge at " + si_text(ridge, "FLOP/B")));
  const Box b = peak_label_box(pk, f);
  svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#b22222\">{}</text>\n", b.x0, b.y1 - 4,
                     xml_escape(peak_label(pk)));
  return svg;
}

// A point's circle radius: its area by its share of the plotted time.
double radius_of(const RooflinePlot& plot, const RooflinePoint& p) {
  const double share = plot.time_covered_ns > 0 ? p.time_ns / plot.time_covered_ns : 0;
  return 3 + 11 * std::sqrt(share);
}

// Labels of the costliest points, placed greedily: the first of right, left, above and below the circle
// that stays inside the plot and overlaps neither the peak label (`taken`) nor a label placed before it;
// a point with no such place goes unlabelled (its tooltip still names it). Names longer than 44 characters
// lose their middle, and where two would then read the same, the part where they differ stays
// (elide_distinct: "BertLayer_0" and "BertLayer_1" in the middle of a Kineto path). One entry per point, ""
// for none.
std::vector<std::string> point_labels(const RooflinePlot& plot, const Frame& f, std::vector<Box> taken) {
  std::vector<std::string> label_svg(plot.points.size());
  std::vector<std::string> names;
  for (const auto& p : plot.points) names.push_back(p.path.empty() ? std::string("(model)") : p.path);
  const std::vector<std::string> texts = elide_distinct(names, 44);
  int labelled = 0;
  for (std::size_t n = 0; n < plot.points.size() && labelled < 10; ++n) {
    const RooflinePoint& p = plot.points[n];
    const double r = radius_of(plot, p);
    const std::string& text = texts[n];
    const double w = 6.2 * static_cast<double>(text.size()), cx = f.x.at(p.intensity),
                 cy = f.y.at(p.achieved);
    const Box candidates[] = {{cx + r + 2, cy - 9, cx + r + 2 + w, cy + 5},
                              {cx - r - 2 - w, cy - 9, cx - r - 2, cy + 5},
                              {cx - w / 2, cy - r - 16, cx + w / 2, cy - r - 2},
                              {cx - w / 2, cy + r + 2, cx + w / 2, cy + r + 16}};
    for (const Box& b : candidates) {
      const bool inside =
          b.x0 >= kLeft && b.x1 <= f.width - kRight && b.y0 >= kTop && b.y1 <= f.height - kBottom;
      if (!inside || std::any_of(taken.begin(), taken.end(), [&](const Box& o) { return b.overlaps(o); }))
        continue;
      taken.push_back(b);
      ++labelled;
      label_svg[n] = fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>", b.x0, b.y1 - 1,
                                 xml_escape(text));
      break;
    }
  }
  return label_svg;
}

}  // namespace

std::string roofline_svg(const RooflinePlot& plot, const std::string& title, int width, int height) {
  const int notes_height = 16 * static_cast<int>(plot.notes.size());
  const int total_height = height + notes_height;
  const bool roof = plot.peak && plot.peak->flops_per_s > 0 && plot.peak->bytes_per_s > 0;
  const Frame f = frame_of(plot, roof, width, height);

  std::string svg = svg_frame_start(
      width, total_height, title,
      {std::to_string(plot.points.size()) + " modules by their own work; x: " + plot.bytes_kind +
           "; y: over " + plot.clock + " (mean per iteration); plotted " + time_text(plot.time_covered_ns) +
           " of " + time_text(plot.time_total_ns) + " per iteration",
       roof ? "roof: " + plot.peak->name + " (" + plot.peak->source + ")" : std::string("no roof")});
  svg += grid_svg(plot, f);
  if (roof) svg += roof_svg(*plot.peak, f);

  // Points, the costliest drawn last (on top).
  std::vector<Box> taken;
  if (roof) taken.push_back(peak_label_box(*plot.peak, f));
  const std::vector<std::string> label_svg = point_labels(plot, f, std::move(taken));
  for (std::size_t n = plot.points.size(); n-- > 0;) {
    const RooflinePoint& p = plot.points[n];
    const char* fill = p.attainable <= 0 ? "#7f7f7f" : p.memory_bound ? "#1f77b4" : "#ff7f0e";
    svg += fmt::format(
        "<g><title>{}</title><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" fill=\"{}\" "
        "fill-opacity=\"0.7\" stroke=\"#333333\" stroke-width=\"0.5\"/>",
        xml_escape(p.text), f.x.at(p.intensity), f.y.at(p.achieved), radius_of(plot, p), fill);
    svg += label_svg[n] + "</g>\n";
  }
  if (roof) {
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-size=\"11\"><tspan fill=\"#1f77b4\">&#9679; memory-bound</tspan>"
        "  <tspan fill=\"#ff7f0e\">&#9679; compute-bound</tspan>  circle area: share of time</text>\n",
        kLeft, height - 12);
  }
  svg += svg_notes(plot.notes, height + 4);
  svg += "</svg>\n";
  return svg;
}

}  // namespace flopscope::graphs
