#include <gtest/gtest.h>

#include <QFile>
#include <filesystem>

#include "graphs/open_graph.h"
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

// An imported trace names the trace as its source: the page says traces carry no graph, rather than what
// LibTorch says about a JSON file it cannot open as a model ("PytorchStreamReader failed reading zip
// archive").
TEST(RunGraph, ImportedTraceCarriesNoGraph) {
  const std::string trace = FLOPSCOPE_SOURCE_DIR
      "/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz";
  auto session = load_session({QString::fromStdString(trace)});
  ASSERT_TRUE(session.ok()) << session.status().message();
  const QString note = (*session)->a->graph_note;
  EXPECT_TRUE(note.contains(QStringLiteral("traces carry no computation graph"))) << note.toStdString();
  EXPECT_FALSE(note.contains(QStringLiteral("PytorchStreamReader"))) << note.toStdString();
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
