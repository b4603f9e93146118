#include <gtest/gtest.h>

#include <QFile>
#include <filesystem>

#include "graphs/open_graph.h"
#include "graphs/trace_graph.h"
#include "gui/models/run_loader.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

TEST(RunGraph, KeepsAStoredGraph) {
  RunData run = sonnet_run({});
  const auto nodes = run.graph_nodes.size();
  EXPECT_TRUE(graphs::complete_graph_from_source(run, "v1.db").ok());
  EXPECT_EQ(run.graph_nodes.size(), nodes);
}

TEST(RunGraph, SaysWhyWhenTheSourceModelIsMissingOrDifferent) {
  RunData run = sonnet_run({});
  run.graph_nodes.clear();
  run.graph_edges.clear();
  run.info.source_path = "/nonexistent/sonnet-mini-v1.pt";
  Status missing = graphs::complete_graph_from_source(run, "/tmp/v1.db");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.message().find("not found"), std::string::npos) << missing.message();
  const QString other = output_dir(QStringLiteral("run-graph")) + QStringLiteral("/other.pt");
  QFile f(other);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("not the model");
  f.close();
  run.info.source_path = other.toStdString();
  run.info.source_sha256 = std::string(64, '0');
  Status differs = graphs::complete_graph_from_source(run, "/tmp/v1.db");
  EXPECT_FALSE(differs.ok());
  EXPECT_TRUE(run.graph_nodes.empty());
}

// An imported trace names the trace as its source: its graph is drawn from the ops that ran, with the
// kernels they launched, and nothing tries to open the JSON file as a model ("PytorchStreamReader failed
// reading zip archive").
TEST(RunGraph, ImportedTraceIsDrawnFromItsOps) {
  const std::string trace = FLOPSCOPE_SOURCE_DIR
      "/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz";
  auto session = load_session({QString::fromStdString(trace)});
  ASSERT_TRUE(session.ok()) << session.status().message();
  EXPECT_TRUE((*session)->a->graph_note.isEmpty()) << (*session)->a->graph_note.toStdString();
  const graphs::OpGraph& graph = (*session)->graph;
  std::size_t kernels = 0, clustered = 0;
  for (const auto& n : graph.nodes) {
    kernels += n.kind == graphs::kKernelKind ? 1 : 0;
    clustered += n.module_path.empty() ? 0 : 1;
  }
  // bert-small on the H100: 104 top-level ops and the 61 kernels and copies they launched.
  EXPECT_EQ(graph.nodes.size(), 165u);
  EXPECT_EQ(kernels, 61u);
  EXPECT_GT(clustered, graph.nodes.size() / 2);
  EXPECT_NE(graph.note.find("no data flow"), std::string::npos);
}

TEST(RunGraph, ExtractsTheGraphOfTheSampleModel) {
  const std::string model = FLOPSCOPE_BINARY_DIR "/samples/sonnet-mini-v1.pt";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "sample models not generated (target sample_models)";
  RunData run;
  run.info.source_path = model;
  Status s = graphs::complete_graph_from_source(run, "/tmp/v1.db");
  if (!s.ok() && s.code() == StatusCode::kUnsupported) GTEST_SKIP() << s.message();
  ASSERT_TRUE(s.ok()) << s.message();
  int bias = 0;
  for (const auto& n : run.graph_nodes)
    bias += n.module_path == "layers.0.attn.position_adaptive_bias" ? 1 : 0;
  EXPECT_GT(bias, 3);
  EXPECT_FALSE(run.graph_edges.empty());
}

}  // namespace
}  // namespace flopscope::gui::testing
