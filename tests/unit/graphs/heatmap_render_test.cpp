#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "graphs/heat.h"
#include "graphs/heatmap_dot.h"
#include "graphs/render.h"

namespace flopscope::graphs {
namespace {

HeatmapData two_rows() {
  HeatmapData d;
  d.rows.push_back({"blocks.0.<attn>",
                    latency_stats({1000, 2000, 9000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000})});
  d.rows.push_back({"blocks.1.mlp", latency_stats(std::vector<double>(12, 100))});
  d.iterations = 12;
  d.min_ns = 100;
  d.max_ns = 9000;
  return d;
}

StatusOr<std::string> render(const HeatmapData& d, GraphFormat format, int w = 600, int h = 400) {
  HeatmapPictureOptions o;
  o.width = w;
  o.height = h;
  o.title = "t";
  RenderOptions r;
  r.engine = kHeatmapEngine;
  r.png_dpi = 72;
  return render_dot(write_heatmap_dot(d, o), format, r);
}

TEST(HeatmapPicture, SvgShowsRowsColoursAndPercentiles) {
  auto svg = render(two_rows(), GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_NE(svg->find("blocks.0.&lt;attn&gt;"), std::string::npos);  // escaped, not raw markup
  EXPECT_NE(svg->find("blocks.1.mlp"), std::string::npos);
  // The slowest cell is the top of the ramp, the fastest its bottom.
  EXPECT_NE(svg->find(latency_ramp(1).hex()), std::string::npos);
  EXPECT_NE(svg->find(latency_ramp(0).hex()), std::string::npos);
  EXPECT_NE(svg->find("P99"), std::string::npos);
  EXPECT_NE(svg->find("9 \xC2\xB5s"), std::string::npos);  // the max, on the histogram's axis
  // The colour bar: round ticks with units and what it measures; P99 needs 100 iterations.
  EXPECT_NE(svg->find(">1 \xC2\xB5s<"), std::string::npos);
  EXPECT_NE(svg->find("host self time"), std::string::npos);
  EXPECT_NE(svg->find("n = 12 iterations"), std::string::npos);
}

TEST(HeatmapPicture, FewIterationsListTheValues) {
  HeatmapData d;
  d.rows.push_back({"m", latency_stats({1000, 3000})});
  d.iterations = 2;
  d.min_ns = 1000;
  d.max_ns = 3000;
  auto svg = render(d, GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_NE(svg->find("a distribution needs at least 5"), std::string::npos);
  EXPECT_EQ(svg->find("P50"), std::string::npos);
}

// What the colours mean, in units: the legend line names the measure, the scale and both ends, and the bar
// labels the smallest and largest cell; with too few iterations a note says the colours show no spread.
TEST(HeatmapPicture, LegendSaysWhatTheColoursMeanInUnits) {
  auto svg = render(two_rows(), GraphFormat::kSvg, 1000, 500);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_NE(svg->find("colour: host self time per iteration, logarithmic from 100 ns (dark purple, the "
                      "smallest cell) to 9 \xC2\xB5s (yellow, the largest)"),
            std::string::npos)
      << *svg;
  EXPECT_NE(svg->find(">100 ns<"), std::string::npos);           // the bottom end of the bar, labelled
  EXPECT_EQ(svg->find("too few to colour"), std::string::npos);  // 12 iterations

  HeatmapData one;
  one.rows.push_back({"m", latency_stats(std::vector<double>{1000})});
  one.rows.push_back({"n", latency_stats(std::vector<double>{1020})});
  one.iterations = 1;
  one.min_ns = 1000;
  one.max_ns = 1020;
  auto few = render(one, GraphFormat::kSvg, 1400, 500);
  ASSERT_TRUE(few.ok()) << few.status().message();
  EXPECT_NE(few->find("1 iteration: too few to colour a spread across iterations"), std::string::npos)
      << *few;
  EXPECT_NE(few->find("from 1 \xC2\xB5s"), std::string::npos);
  EXPECT_NE(few->find("to 1.02 \xC2\xB5s"), std::string::npos);
}

// Rows cut to the label column keep what tells them apart (the layer number in a Kineto path).
TEST(HeatmapPicture, LongRowNamesKeepTheirLayerNumbers) {
  HeatmapData d;
  for (const char* layer : {"0", "1"})
    d.rows.push_back({std::string("BertModel.BertEncoder.BertLayer_") + layer +
                          ".BertAttention.BertSdpaSelfAttention.Linear_0",
                      latency_stats(std::vector<double>(6, 1000))});
  d.iterations = 6;
  d.min_ns = d.max_ns = 1000;
  auto svg = render(d, GraphFormat::kSvg, 400, 400);  // the label column is half the width: 200 points
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  // Row 1 is not the selected row, whose histogram title names it in full: its label is all there is.
  EXPECT_EQ(svg->find("BertModel.BertEncoder.BertLayer_1.BertAttention"), std::string::npos);
  EXPECT_NE(svg->find("yer_0"), std::string::npos) << *svg;
  EXPECT_NE(svg->find("yer_1"), std::string::npos) << *svg;
}

std::uint32_t be32(const std::string& s, std::size_t at) {
  auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + i])); };
  return b(0) << 24 | b(1) << 16 | b(2) << 8 | b(3);
}

TEST(HeatmapPicture, PngHasTheRequestedSize) {
  auto png = render(two_rows(), GraphFormat::kPng, 640, 420);
  ASSERT_TRUE(png.ok()) << png.status().message();
  ASSERT_GT(png->size(), 24u);
  ASSERT_EQ(png->substr(1, 3), "PNG");
  EXPECT_EQ(be32(*png, 16), 640u);  // IHDR width and height
  EXPECT_EQ(be32(*png, 20), 420u);
}

TEST(HeatmapPicture, EmptyDataSaysSo) {
  auto svg = render(HeatmapData{}, GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_NE(svg->find("No module has per"), std::string::npos);  // Graphviz writes "-" as &#45;
}

}  // namespace
}  // namespace flopscope::graphs
