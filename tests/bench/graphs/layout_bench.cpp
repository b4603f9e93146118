// How long drawing a 10,000-op model takes: choosing the depth and collapsing, writing DOT, and Graphviz
// layout + SVG rendering of the collapsed view. The op-level layout of the same graph is what the default
// collapse avoids; BM_LayoutDepth2Svg (26 nodes) shows how layout time grows with drawn nodes.
#include <benchmark/benchmark.h>

#include "graphs/collapse.h"
#include "graphs/dot_writer.h"
#include "graphs/render.h"
#include "synthetic_graph.h"

namespace {

using namespace flopscope::graphs;

const OpGraph& big_graph() {
  // 24 blocks x 12 subs x 35 ops = 10,080 ops; auto depth draws the 288 sub modules as boxes.
  static const OpGraph g = testing::synthetic_graph(24, 12, 35);
  return g;
}

void BM_ChooseDepthAndCollapse(benchmark::State& state) {
  for (auto _ : state) {
    ViewGraph v = collapse(big_graph(), choose_depth(big_graph()));
    benchmark::DoNotOptimize(v.nodes.size());
  }
}
BENCHMARK(BM_ChooseDepthAndCollapse)->Unit(benchmark::kMillisecond);

void BM_WriteDotCollapsed(benchmark::State& state) {
  ViewGraph v = collapse(big_graph(), choose_depth(big_graph()));
  for (auto _ : state) benchmark::DoNotOptimize(write_dot(v).size());
  state.counters["nodes"] = static_cast<double>(v.nodes.size());
}
BENCHMARK(BM_WriteDotCollapsed)->Unit(benchmark::kMillisecond);

void layout(benchmark::State& state, int depth) {
  ViewGraph v = collapse(big_graph(), depth);
  std::string dot = write_dot(v);
  for (auto _ : state) {
    auto svg = render_dot(dot, GraphFormat::kSvg);
    if (!svg.ok()) state.SkipWithError(svg.status().message().c_str());
    benchmark::DoNotOptimize(svg.ok());
  }
  state.counters["nodes"] = static_cast<double>(v.nodes.size());
}

// The default path of `flopscope graph` on a 10,000-op model: auto depth (290 nodes here).
void BM_LayoutAutoDepthSvg(benchmark::State& state) {
  layout(state, choose_depth(big_graph()));
}
BENCHMARK(BM_LayoutAutoDepthSvg)->Unit(benchmark::kMillisecond);

void BM_LayoutDepth2Svg(benchmark::State& state) {
  layout(state, 2);
}
BENCHMARK(BM_LayoutDepth2Svg)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
