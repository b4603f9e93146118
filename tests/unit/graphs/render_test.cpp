#include "graphs/render.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "db/model/atomic_file.h"
#include "graphs/dot_writer.h"
#include "graphs/graph_diff.h"
#include "svg_groups.h"
#include "synthetic_graph.h"

namespace flopscope::graphs {
namespace {

TEST(Render, SvgHasOneGroupPerNodeAndCluster) {
  OpGraph g = testing::synthetic_graph(2, 3, 4);
  ViewGraph view = collapse(g, kOpLevel);
  auto svg = render_dot(write_dot(view), GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  // 26 graph nodes plus the legend.
  EXPECT_EQ(testing::svg_groups(*svg, "node").size(), view.nodes.size() + 1);
  EXPECT_EQ(testing::svg_groups(*svg, "cluster").size(), 9u);
  EXPECT_EQ(testing::svg_groups(*svg, "edge").size(), view.edges.size());
}

TEST(Render, RemovedNodesAreRedAndDashed) {
  OpGraph base = testing::synthetic_graph(1, 2, 2);
  OpGraph other = base;
  other.nodes.erase(other.nodes.begin() + 3, other.nodes.begin() + 5);  // drop blocks.0.sub1
  other.edges = {{0, 1, "", DiffStatus::kUnchanged},
                 {1, 2, "", DiffStatus::kUnchanged},
                 {2, 3, "", DiffStatus::kUnchanged}};
  auto svg = render_dot(write_dot(collapse(diff_graphs(base, other), kOpLevel)), GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  int removed = 0;
  for (const auto& group : testing::svg_groups(*svg, "node")) {
    if (group.find("blocks.0.sub1|") == std::string::npos) continue;
    ++removed;
    EXPECT_NE(group.find("stroke=\"#d62728\""), std::string::npos) << group;
    EXPECT_NE(group.find("stroke-dasharray"), std::string::npos) << group;
  }
  EXPECT_EQ(removed, 2);
}

TEST(Render, PdfAndPng) {
  std::string dot = write_dot(collapse(testing::synthetic_graph(1, 2, 3), kOpLevel));
  auto pdf = render_dot(dot, GraphFormat::kPdf);
  ASSERT_TRUE(pdf.ok()) << pdf.status().message();
  EXPECT_EQ(pdf->rfind("%PDF", 0), 0u);
  auto png = render_dot(dot, GraphFormat::kPng);
  ASSERT_TRUE(png.ok()) << png.status().message();
  EXPECT_EQ(png->substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));

  // pdfinfo (poppler-utils) reads it and finds one page.
  auto path = std::filesystem::temp_directory_path() /
              ("flopscope_render_test_" + std::to_string(::getpid()) + ".pdf");
  ASSERT_TRUE(write_file_atomically(path.string(), *pdf, true).ok());
  std::string cmd = "pdfinfo '" + path.string() + "' 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string info;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) info += buf;
  EXPECT_EQ(::pclose(p), 0) << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("Pages:\\s+1\\n"))) << info;
  std::filesystem::remove(path);
}

TEST(Render, DotPassesThroughAndBadDotIsAnError) {
  auto same = render_dot("digraph { a -> b }", GraphFormat::kDot);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, "digraph { a -> b }");
  auto bad = render_dot("digraph { a -> ", GraphFormat::kSvg);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Graphviz"), std::string::npos);
  EXPECT_NE(bad.status().message().find("syntax"), std::string::npos) << bad.status().message();
}

TEST(Render, LargeGraphCollapsesAndRenders) {
  OpGraph big = testing::synthetic_graph(24, 12, 35);
  ASSERT_EQ(big.nodes.size(), 10082u);
  ViewGraph view = collapse(big, choose_depth(big));
  ASSERT_LE(view.nodes.size(), kDefaultMaxNodes);
  EXPECT_EQ(view.depth, 3);
  auto svg = render_dot(write_dot(view), GraphFormat::kSvg);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_EQ(testing::svg_groups(*svg, "node").size(), view.nodes.size() + 1);
}

TEST(OutputFormat, FromExtension) {
  EXPECT_EQ(*format_from_path("a/b.SVG"), GraphFormat::kSvg);
  EXPECT_EQ(*format_from_path("g.gv"), GraphFormat::kDot);
  EXPECT_EQ(*format_from_path("g.pdf"), GraphFormat::kPdf);
  auto bad = format_from_path("g.jpeg");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("g.jpeg"), std::string::npos);
}

}  // namespace
}  // namespace flopscope::graphs
