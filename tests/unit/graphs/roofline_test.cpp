// The roofline plot: each module's own work placed once (self FLOPs over self time), device self time as
// the subtree's minus the children's, the roof from the peak, honest notes, and escaped SVG text.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "graphs/roofline_plot.h"

namespace flopscope::graphs {
namespace {

// root (own: nothing) -> mm (1e9 FLOPs, 1e8 B, 1 ms) and relu (1e6 FLOPs, 8e6 B, 0.5 ms) and "<b>&" (no
// FLOPs)
RunSummary host_run() {
  RunSummary s;
  s.iterations = 2;
  auto add = [&](std::string path, int parent, double flops, double bytes, double ns_per_iteration) {
    ModuleSummary m;
    m.path = std::move(path);
    m.type = "T";
    m.parent = parent;
    m.self.flops = flops;
    m.self.bytes_read = bytes;
    m.self_time.values = IterationSeries::from_dense(std::vector<double>{ns_per_iteration, ns_per_iteration});
    s.modules.push_back(m);
    const int index = static_cast<int>(s.modules.size()) - 1;
    if (parent >= 0) s.modules[static_cast<std::size_t>(parent)].children.push_back(index);
    return index;
  };
  add("", -1, 0, 0, 0);
  add("mm", 0, 1e9, 1e8, 1e6);
  add("relu", 0, 1e6, 8e6, 5e5);
  add("<b>&", 0, 0, 4e6, 2e5);
  s.modules[0].inclusive_time.values = IterationSeries::from_dense(std::vector<double>{1.7e6, 1.7e6});
  s.index_paths();
  return s;
}

TEST(Roofline, PointsAreEachModulesOwnWork) {
  RunSummary s = host_run();
  RooflinePlot plot = roofline_plot(s, std::nullopt);
  ASSERT_EQ(plot.points.size(), 2u);
  EXPECT_EQ(plot.clock, "host time");
  EXPECT_EQ(plot.points[0].path, "mm");  // costliest first
  EXPECT_DOUBLE_EQ(plot.points[0].intensity, 10.0);
  EXPECT_DOUBLE_EQ(plot.points[0].achieved, 1e12);  // 1e9 FLOPs in 1 ms
  EXPECT_DOUBLE_EQ(plot.points[1].intensity, 0.125);
  EXPECT_DOUBLE_EQ(plot.time_covered_ns, 1.5e6);
  EXPECT_DOUBLE_EQ(plot.time_total_ns, 1.7e6);
  // The module without FLOPs is left out, and the notes say so and that there is no roof.
  std::string notes;
  for (const auto& n : plot.notes) notes += n + "\n";
  EXPECT_NE(notes.find("1 modules with no FLOPs"), std::string::npos) << notes;
  EXPECT_NE(notes.find("no roof for a CPU run"), std::string::npos) << notes;
}

TEST(Roofline, RoofGivesAttainableAndBound) {
  RunSummary s = host_run();
  DevicePeak peak{"test", 1e12, 1e11, "unit test"};  // ridge at 10 FLOP/B
  RooflinePlot plot = roofline_plot(s, peak);
  ASSERT_EQ(plot.points.size(), 2u);
  EXPECT_DOUBLE_EQ(plot.points[0].attainable, 1e12);  // at the ridge: the compute ceiling
  EXPECT_FALSE(plot.points[0].memory_bound);
  EXPECT_DOUBLE_EQ(plot.points[1].attainable, 1.25e10);  // 0.125 FLOP/B x 100 GB/s
  EXPECT_TRUE(plot.points[1].memory_bound);
  EXPECT_NE(plot.points[1].text.find("of attainable (memory-bound)"), std::string::npos)
      << plot.points[1].text;
}

TEST(Roofline, DeviceSelfTimeIsTheSubtreeMinusTheChildren) {
  RunSummary s = host_run();
  s.has_kernels = true;
  auto gpu = [](double v) { return IterationSeries::from_dense(std::vector<double>{v, v}); };
  s.modules[0].gpu_time.values = gpu(1000);
  s.modules[0].self.flops = 5e5;  // the root's own kernels: 1000 - (600 + 300 + 0) ns
  s.modules[0].self.bytes_read = 1e3;
  s.modules[1].gpu_time.values = gpu(600);
  s.modules[2].gpu_time.values = gpu(300);
  RooflinePlot plot = roofline_plot(s, std::nullopt);
  EXPECT_EQ(plot.clock, "device time");
  ASSERT_EQ(plot.points.size(), 3u);
  EXPECT_EQ(plot.points[0].path, "mm");
  EXPECT_DOUBLE_EQ(plot.points[0].time_ns, 600);
  EXPECT_EQ(plot.points[2].path, "");
  EXPECT_DOUBLE_EQ(plot.points[2].time_ns, 100);
  EXPECT_DOUBLE_EQ(plot.time_total_ns, 1000);
}

TEST(Roofline, SvgHasOneCirclePerPointAndEscapesNames) {
  RunSummary s = host_run();
  s.modules[1].path = "<script>x</script>";
  RooflinePlot plot = roofline_plot(s, DevicePeak{"roof & co", 1e12, 1e11, "unit test"});
  std::string svg = roofline_svg(plot, "t<>");
  std::size_t circles = 0;
  for (std::size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 2u);
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(svg.find("roof &amp; co"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);  // the roof
}

// Text boxes as roofline_svg estimates them (6.8 px a character at 12 px, 6.2 at 11 px).
struct TextBox {
  std::string text;
  double x0, y0, x1, y1;
};
std::vector<TextBox> text_boxes(const std::string& svg, const std::string& attributes, double char_width) {
  std::vector<TextBox> boxes;
  const std::regex text("<text x=\"([0-9.]+)\" y=\"([0-9.]+)\" " + attributes + ">([^<]+)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    const std::string t = (*it)[3];
    boxes.push_back({t, x, y - 11, x + char_width * static_cast<double>(t.size()), y + 3});
  }
  return boxes;
}

TEST(Roofline, PointLabelsStayOffThePeakLabelAndEachOther) {
  RunSummary s = host_run();
  // mm just under the compute roof, right of the ridge: where the peak's label is written.
  s.modules[1].self.bytes_read = 5e7;  // 20 FLOP/B
  s.modules[1].self_time.values = IterationSeries::from_dense(std::vector<double>{1.1e6, 1.1e6});
  s.modules[2].path = "encoder.layers.17.mlp.dense_h_to_4h_with_a_long_name.activation_fn";
  RooflinePlot plot = roofline_plot(s, DevicePeak{"test", 1e12, 1e11, "unit test"});
  const std::string svg = roofline_svg(plot, "t");
  const auto peak = text_boxes(svg, "fill=\"#b22222\"", 6.8);
  ASSERT_EQ(peak.size(), 1u) << svg;
  auto labels = text_boxes(svg, "font-size=\"11\"", 6.2);
  ASSERT_EQ(labels.size(), 2u) << svg;  // both points labelled
  EXPECT_EQ(labels[1].text, "mm");      // drawn last: the costliest
  // The long name loses its middle, not its layer number.
  EXPECT_NE(labels[0].text.find("encoder.layers."), std::string::npos) << labels[0].text;
  EXPECT_NE(labels[0].text.find("activation_fn"), std::string::npos) << labels[0].text;
  EXPECT_LE(labels[0].text.size(), 44u);
  auto overlap = [](const TextBox& a, const TextBox& b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
  };
  // The case is a real one: mm's label right of its circle (the only place tried before) hits the peak's.
  std::smatch circle;
  const std::string last = svg.substr(svg.rfind("<circle"));
  ASSERT_TRUE(
      std::regex_search(last, circle, std::regex("cx=\"([0-9.]+)\" cy=\"([0-9.]+)\" r=\"([0-9.]+)\"")));
  const double cx = std::stod(circle[1]), cy = std::stod(circle[2]), r = std::stod(circle[3]);
  EXPECT_TRUE(overlap({"mm", cx + r + 2, cy - 9, cx + r + 2 + 6.2 * 2, cy + 5}, peak[0])) << svg;
  labels.push_back(peak[0]);
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(overlap(labels[i], labels[j])) << labels[i].text << " / " << labels[j].text << "\n" << svg;
}

// Kineto paths name the layer in the middle: two labels cut to 44 characters keep the part where they
// differ rather than both reading "BertModel.BertEncoder.Bert~fAttention.Linear_0".
TEST(Roofline, LongLabelsKeepWhatTellsThemApart) {
  RunSummary s = host_run();
  s.modules[1].path = "BertModel.BertEncoder.BertLayer_0.BertAttention.BertSdpaSelfAttention.Linear_0";
  s.modules[2].path = "BertModel.BertEncoder.BertLayer_1.BertAttention.BertSdpaSelfAttention.Linear_0";
  // A third point far off in a corner, so that both Bert points sit inside the plot with room for labels.
  s.modules[3].self.flops = 1e12;
  s.index_paths();
  const std::string svg = roofline_svg(roofline_plot(s, std::nullopt), "t");
  auto labels = text_boxes(svg, "font-size=\"11\"", 6.2);
  std::erase_if(labels, [](const TextBox& b) { return b.text.find("Bert") == std::string::npos; });
  ASSERT_EQ(labels.size(), 2u) << svg;
  EXPECT_NE(labels[0].text, labels[1].text);
  std::set<std::string> layers;
  for (const auto& l : labels) {
    EXPECT_LE(l.text.size(), 44u) << l.text;
    for (const char* layer : {"yer_0", "yer_1"})
      if (l.text.find(layer) != std::string::npos) layers.insert(layer);
  }
  EXPECT_EQ(layers.size(), 2u) << labels[0].text << " / " << labels[1].text;
}

}  // namespace
}  // namespace flopscope::graphs
