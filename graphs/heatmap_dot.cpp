#include "graphs/heatmap_dot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "analyzer/format.h"
#include "graphs/dot_writer.h"
#include "graphs/heat.h"

namespace flopscope::graphs {
namespace {

using namespace heatmap_frame;
constexpr double kFont = 11;
// Graphviz measures text itself; this writer only needs a safe guess of a label's width to size the label
// column and to elide (Helvetica averages about 0.55 em a character).
constexpr double kCharWidth = 0.6 * kFont;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Long module paths lose their middle, keeping what tells rows apart (layer numbers; elide_distinct), as the
// GUI's rows do.
std::vector<std::string> row_labels(const HeatmapData& data, double width) {
  std::vector<std::string> paths;
  for (const auto& r : data.rows) paths.push_back(r.path);
  return elide_distinct(paths, static_cast<std::size_t>(std::max(0.0, width / kCharWidth)));
}

// Shapes at fixed positions in a y-down frame of width x height points; Graphviz's frame is y-up.
class Canvas {
 public:
  Canvas(double width, double height) : height_(height) {
    // Lines are edges; nodesfirst draws them over the boxes (the histogram's marks cross its bars).
    out_ =
        "digraph heatmap {\n  graph [bgcolor=\"#ffffff\", pad=0, splines=line, outputorder=nodesfirst, "
        "bb=\"0,0," +
        num(width) + "," + num(height) + "\"];\n";
    out_ +=
        "  node [shape=box, fixedsize=true, label=\"\", style=filled, peripheries=0, margin=0, fontsize=" +
        num(kFont) + ", fontname=\"Helvetica,Arial,sans-serif\"];\n";
    out_ += "  edge [dir=none, arrowhead=none];\n";
    // Invisible corners fix the picture's bounding box to the requested size.
    point(0, 0);
    point(width, height);
  }

  void box(double x, double y, double w, double h, const std::string& fill) {
    node(x, y, w, h, "fillcolor=\"" + fill + "\"");
  }
  void frame(double x, double y, double w, double h, const std::string& color, double pen) {
    node(x, y, w, h, "style=\"\", peripheries=1, color=\"" + color + "\", penwidth=" + num(pen));
  }
  // align: 'l', 'r' or 'c' within the w x h box.
  void text(double x, double y, double w, double h, const std::string& text, char align,
            const std::string& color = "#000000", double size = kFont) {
    std::string quoted = dot_quote(text);
    if (align == 'l' || align == 'r') quoted.insert(quoted.size() - 1, align == 'l' ? "\\l" : "\\r");
    node(x, y, w, h,
         "shape=plaintext, style=\"\", label=" + quoted + ", fontcolor=\"" + color +
             "\", fontsize=" + num(size));
  }
  void line(double x1, double y1, double x2, double y2, const std::string& color, double pen, bool dashed) {
    int a = point(x1, y1), b = point(x2, y2);
    out_ += "  p" + std::to_string(a) + " -> p" + std::to_string(b) + " [color=\"" + color +
            "\", penwidth=" + num(pen) + (dashed ? ", style=dashed" : "") + "];\n";
  }

  std::string finish() { return out_ + "}\n"; }

 private:
  void node(double x, double y, double w, double h, const std::string& attrs) {
    out_ += "  n" + std::to_string(nodes_++) + " [pos=\"" + num(x + w / 2) + "," +
            num(height_ - (y + h / 2)) + "!\", width=" + num4(w / 72) + ", height=" + num4(h / 72) + ", " +
            attrs + "];\n";
  }
  int point(double x, double y) {
    int id = points_++;
    out_ += "  p" + std::to_string(id) + " [pos=\"" + num(x) + "," + num(height_ - y) +
            "!\", shape=point, width=0.001, height=0.001, style=invis];\n";
    return id;
  }
  static std::string num4(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", std::max(v, 0.0001));
    return buf;
  }

  double height_;
  std::string out_;
  int nodes_ = 0;
  int points_ = 0;
};

void histogram(Canvas& c, double x, double y, double w, double h, const HeatmapRow& row,
               const std::string& measure) {
  const double line_h = kFont + 5;
  const int n = row.stats.samples;
  c.text(x, y, w, line_h,
         row.path + ": " + measure + " per iteration, n = " + std::to_string(n) +
             (n == 1 ? " iteration" : " iterations"),
         'l');
  double top = y + line_h + 4, bottom = y + h - (line_h + 2);
  if (row.stats.values.empty() || bottom - top < 10) return;
  if (n < kMinHistogramSamples) {  // too few for a distribution: the values (as the GUI)
    std::string values;
    for (double v : row.stats.values.dense()) values += (values.empty() ? "" : ", ") + time_text(v);
    c.text(
        x, top, w, line_h,
        values + " (a distribution needs at least " + std::to_string(kMinHistogramSamples) + " iterations)",
        'l', "#3c3c3c");
    return;
  }
  LatencyHistogram hist = latency_histogram(row.stats);
  const double bw = w / static_cast<double>(hist.counts.size());
  for (std::size_t i = 0; i < hist.counts.size(); ++i) {
    double bh = hist.peak ? static_cast<double>(hist.counts[i]) / hist.peak * (bottom - top) : 0;
    if (bh > 0) c.box(x + i * bw + 1, bottom - bh, std::max(bw - 2, 0.5), bh, "#3b528b");
  }
  c.line(x, bottom, x + w, bottom, "#787878", 1, false);
  struct Mark {
    const char* name;
    double v;
    const char* color;
  };
  const Mark marks[] = {{"P50", row.stats.p50, "#2e7d32"},
                        {"P90", row.stats.p90, "#ef6c00"},
                        {"P99", row.stats.p99, "#c62828"}};
  auto percentile = [](const Mark& m) { return std::atoi(m.name + 1); };
  for (const auto& m : marks) {
    if (n < min_samples_for_percentile(percentile(m))) continue;  // "-" in the key instead
    double mx = x + std::clamp((m.v - hist.lo) / (hist.hi - hist.lo), 0.0, 1.0) * w;
    c.line(mx, top, mx, bottom, m.color, 2, true);
  }
  // The marks' values in a key at the top right, clear of the bars.
  const double key_w = 150, key_x = x + w - key_w;
  c.box(key_x, top, key_w, 3 * line_h + 4, "#ffffff");
  double ky = top + 2;
  for (const auto& m : marks) {
    c.line(key_x + 6, ky + line_h / 2, key_x + 24, ky + line_h / 2, m.color, 2, true);
    c.text(key_x + 30, ky, key_w - 32, line_h,
           std::string(m.name) + "  " + percentile_text(row.stats, percentile(m)), 'l', m.color);
    ky += line_h;
  }
  c.text(x, bottom + 3, w / 2, line_h, time_text(hist.lo), 'l', "#3c3c3c");
  c.text(x + w / 2, bottom + 3, w / 2, line_h, time_text(hist.hi), 'r', "#3c3c3c");
}

// The colour bar: the logarithmic scale from the smallest cell (bottom) to the largest (top), round ticks
// with units (analyzer/heatmap), both ends labelled in grey, each label drawn unless it crowds one already
// drawn; its measure below. Returns the measure.
std::string colour_bar(Canvas& c, const HeatmapData& data, double x, double top, double h) {
  constexpr int kSlices = 48;
  for (int i = 0; i < kSlices; ++i)
    c.box(x, top + h - (i + 1) * h / kSlices, 14, h / kSlices + 0.5,
          latency_ramp(static_cast<double>(i) / (kSlices - 1)).hex());
  std::vector<double> labelled;
  auto tick = [&](double v, bool end) {
    const double ty = top + h - data.scale(v) * h;
    if (!end) c.box(x + 14, ty - 0.5, 4, 1, "#000000");
    for (double other : labelled)
      if (std::abs(ty - other) < kFont + 2) return;
    c.text(x + 20, ty - (kFont + 4) / 2, kLegendWidth - 40, kFont + 4, time_text(v), 'l',
           end ? "#5a5a5a" : "#000000");
    labelled.push_back(ty);
  };
  for (double v : heatmap_ticks(data)) tick(v, false);
  tick(data.max_ns, true);
  tick(data.min_ns, true);
  const std::string measure = std::string(to_string(data.clock)) + " self time";
  c.text(x - 8, top + h + 4, kLegendWidth - 8, kFont + 4, measure, 'l');  // ends at the margin
  return measure;
}

}  // namespace

std::string write_heatmap_dot(const HeatmapData& data, const HeatmapPictureOptions& options) {
  const double W = options.width, H = options.height;
  Canvas c(W, H);
  c.text(kMargin, kMargin, W - 2 * kMargin, kTitle, options.title, 'l', "#000000", 14);
  const int rows = static_cast<int>(data.rows.size());
  const int columns = data.iterations;
  double label_w = 0;
  for (const auto& r : data.rows)
    label_w = std::max(label_w, static_cast<double>(r.path.size()) * kCharWidth);
  label_w = std::min(label_w + 8, W / 2);
  const double hist_h = H >= 360 ? std::floor(H / 3) : 0;
  const double top = kMargin + kTitle;
  const double grid_x = kMargin + label_w;
  const double grid_w = W - 2 * kMargin - label_w - kLegendWidth;
  if (rows == 0 || columns == 0 || grid_w <= 0) {
    c.text(kMargin, top, W - 2 * kMargin, 40, "No module has per-iteration self time in this run.", 'l');
    return c.finish();
  }
  const double grid_h = H - top - kAxis - kMargin - hist_h - (hist_h > 0 ? kMargin : 0);
  const double row_h = std::clamp(std::floor(grid_h / rows), 4.0, 28.0);
  const double cell_w = grid_w / columns;
  const int selected = options.selected_row >= 0 && options.selected_row < rows ? options.selected_row : -1;
  const std::vector<std::string> labels = row_labels(data, label_w - 6);
  for (int r = 0; r < rows; ++r) {
    double y = top + r * row_h;
    if (row_h >= kFont)
      c.text(kMargin, y, label_w - 6, row_h, labels[static_cast<std::size_t>(r)], 'r',
             r == selected ? "#000000" : "#3c3c3c");
    // Neighbouring cells of one colour are drawn as one box: thousands of iterations stay a small file.
    int start = 0;
    std::string run_fill;
    for (int col = 0; col <= columns; ++col) {
      std::string fill;
      if (col < columns) {
        double v = data.value(static_cast<std::size_t>(r), static_cast<std::size_t>(col));
        fill = v > 0 ? latency_ramp(data.scale(v)).hex() : "#ebebeb";
      }
      if (col == columns || fill != run_fill) {
        // Half a point of overlap hides the anti-aliased seam between neighbouring boxes.
        if (col > 0)
          c.box(grid_x + start * cell_w, y, std::max((col - start) * cell_w, 1.0) + 0.5, row_h + 0.5,
                run_fill);
        start = col;
        run_fill = fill;
      }
    }
  }
  const double grid_bottom = top + rows * row_h;
  if (selected >= 0) c.frame(grid_x, top + selected * row_h, grid_w, row_h, "#000000", 2);
  // Iteration axis: about ten ticks.
  int step = std::max(1, static_cast<int>(std::ceil(columns / 10.0)));
  for (int col = 0; col < columns; col += step)
    c.text(grid_x + (col + 0.5) * cell_w - 30, grid_bottom + 2, 60, kAxis - 4, std::to_string(col), 'c',
           "#3c3c3c");
  c.text(grid_x, grid_bottom + 2, grid_w, kAxis, "iteration", 'r', "#3c3c3c");
  const double legend_h = std::max(grid_bottom - top, 60.0);
  const std::string measure = colour_bar(c, data, grid_x + grid_w + 16, top, legend_h);
  // What the colours mean in words (the GUI prints the same line), and why they show no spread when the
  // run has too few iterations.
  double ly = std::max(grid_bottom + kAxis, top + legend_h + kFont + 8);
  for (const std::string& line : {heatmap_legend(data), few_iterations_note(columns)}) {
    if (line.empty()) continue;
    c.text(kMargin, ly, W - 2 * kMargin, kFont + 6, line, 'l', "#3c3c3c");
    ly += kFont + 6;
  }
  if (hist_h > 0 && selected >= 0) {
    double hy = ly + 2 * kMargin;
    histogram(c, grid_x, hy, grid_w, H - hy - kMargin, data.rows[static_cast<std::size_t>(selected)],
              measure);
  }
  return c.finish();
}

}  // namespace flopscope::graphs
