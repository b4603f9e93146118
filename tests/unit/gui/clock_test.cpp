// GPU runs are read on the device clock in every table (analyzer/clock.h decides; the models present):
// the tree's time columns, shares and deltas, the diff table and the heatmap, with host time in its own
// labelled column. On the imported H100 Kineto trace, the sonnet-mini fixtures (kernels) and a CPU run.
#include <gtest/gtest.h>

#include "analyzer/heatmap.h"
#include "gui/models/diff_table_model.h"
#include "gui/models/kernel_table_model.h"
#include "gui/models/module_details.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/roles.h"
#include "gui/models/run_loader.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

const QString kH100Trace = QStringLiteral(
    FLOPSCOPE_SOURCE_DIR "/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz");

QString header(const QAbstractItemModel& m, int column) {
  return m.headerData(column, Qt::Horizontal).toString();
}

TEST(Clock, ImportedGpuTraceTreeShowsDeviceTimeWithHostApart) {
  auto session = load_session({kH100Trace});
  ASSERT_TRUE(session.ok()) << session.status().message();
  const RunSummary& s = (*session)->a->summary;
  ASSERT_EQ((*session)->clock(), Clock::kDevice);
  ModuleTreeModel model;
  model.setSession(*session);
  EXPECT_EQ(header(model, ModuleTreeModel::kInclP50), QStringLiteral("Device incl. P50"));
  EXPECT_EQ(header(model, ModuleTreeModel::kSelfP50), QStringLiteral("Device self P50"));
  EXPECT_EQ(header(model, ModuleTreeModel::kHostInclP50), QStringLiteral("Host incl. P50"));
  const QModelIndex root = model.index(0, 0);
  // Host and device time of this trace differ: the columns would agree if the tree read one clock twice.
  ASSERT_NE(s.modules[0].gpu_time.p50, s.modules[0].inclusive_time.p50);
  EXPECT_DOUBLE_EQ(root.siblingAtColumn(ModuleTreeModel::kInclP50).data(kSortRole).toDouble(),
                   s.modules[0].gpu_time.p50);
  EXPECT_DOUBLE_EQ(root.siblingAtColumn(ModuleTreeModel::kHostInclP50).data(kSortRole).toDouble(),
                   s.modules[0].inclusive_time.p50);
  // Self time: kernels of the module itself, not its children's.
  bool some_self = false;
  for (std::size_t i = 1; i < s.modules.size(); ++i) {
    const QModelIndex m = model.indexForPath(QString::fromStdString(s.modules[i].path));
    ASSERT_TRUE(m.isValid());
    EXPECT_DOUBLE_EQ(m.siblingAtColumn(ModuleTreeModel::kSelfP50).data(kSortRole).toDouble(),
                     s.modules[i].gpu_self_time.p50);
    EXPECT_LE(s.modules[i].gpu_self_time.p50, s.modules[i].gpu_time.p50 + 1e-9);
    some_self = some_self || s.modules[i].gpu_self_time.p50 > 0;
  }
  EXPECT_TRUE(some_self);
  // The heatmap's cells are device self time too.
  HeatmapData heat = heatmap_data(s, 5);
  EXPECT_EQ(heat.clock, Clock::kDevice);
  ASSERT_FALSE(heat.rows.empty());
  EXPECT_DOUBLE_EQ(heat.rows[0].stats.p50,
                   s.modules[static_cast<std::size_t>(s.find(heat.rows[0].path))].gpu_self_time.p50);
}

TEST(Clock, CpuRunsKeepHostTimeUnlabelled) {
  FixtureOptions o;
  o.kernels = false;
  auto session = make_session(make_loaded_run(QStringLiteral("cpu.db"), sonnet_run(o)), nullptr);
  ASSERT_EQ(session->clock(), Clock::kHost);
  ModuleTreeModel model;
  model.setSession(session);
  EXPECT_EQ(header(model, ModuleTreeModel::kInclP50), QStringLiteral("Incl. P50"));
  EXPECT_DOUBLE_EQ(model.index(0, ModuleTreeModel::kInclP50).data(kSortRole).toDouble(),
                   session->a->summary.modules[0].inclusive_time.p50);
}

// The diff's deltas are on the diff engine's clock (both fixtures have kernels: device), as its verdicts.
TEST(Clock, DiffDeltasUseTheEnginesClock) {
  auto session = fixture_session(Variant::kV1, Variant::kV2);
  ASSERT_TRUE(session->diff.engine);
  ASSERT_TRUE(session->diff.engine->gpu_time);
  ModuleTreeModel tree;
  tree.setSession(session);
  DiffTableModel table;
  table.setSession(session);
  EXPECT_EQ(header(tree, ModuleTreeModel::kDeltaTime), QStringLiteral("Device \u0394 time P50"));
  EXPECT_EQ(header(table, DiffTableModel::kTimeA), QStringLiteral("Device time A P50"));
  EXPECT_EQ(header(table, DiffTableModel::kDeltaTime), QStringLiteral("Device \u0394 time"));
  const auto& engine = *session->diff.engine;
  int checked = 0;
  for (const auto& m : engine.modules) {
    if (m.path.empty() || m.verdict != Verdict::kVanished) continue;
    const QModelIndex i = tree.indexForPath(QString::fromStdString(m.path));
    ASSERT_TRUE(i.isValid());
    // Present in A only: no time change to measure, blank as in the CLI's tables (not A's time negated).
    EXPECT_DOUBLE_EQ(i.siblingAtColumn(ModuleTreeModel::kDeltaTime).data(kSortRole).toDouble(), 0);
    EXPECT_EQ(i.siblingAtColumn(ModuleTreeModel::kDeltaTime).data().toString(), QString());
    EXPECT_GT(session->a->summary.modules[static_cast<std::size_t>(m.summary_a)].gpu_time.p50, 0);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
  for (int r = 0; r < table.rowCount(); ++r) {
    const auto* e = session->diff.entry(session->diff.nodes[table.index(r, 0).data(kNodeRole).toInt()]);
    ASSERT_TRUE(e);
    if (e->a.present) {
      EXPECT_DOUBLE_EQ(table.index(r, DiffTableModel::kTimeA).data(kSortRole).toDouble(), e->a.time.p50);
    }
  }
}

// The detail pane's kernels are the core's kernel table of the module (`report --kernels`): a GEMM kernel
// of a trace without hardware counters carries its op's analytic FLOPs, not the 0 of absent counters.
TEST(Clock, DetailPaneKernelsCarryTheirOpsFlops) {
  auto session = load_session({kH100Trace});
  ASSERT_TRUE(session.ok()) << session.status().message();
  const RunData& run = (*session)->a->data;
  const std::vector<KernelRow> whole = kernel_table(run);
  std::int64_t listed = 0;
  double flops = 0;
  for (const auto& m : run.modules) {
    const ModuleDetails d = module_details(run, (*session)->a->summary, m.path);
    for (const KernelRow& r : d.kernels) {
      listed += r.count;
      flops += r.flops;
      EXPECT_FALSE(r.has_counters);
      EXPECT_EQ(KernelTableModel::cell(r, KernelTableModel::kFlops).toStdString(),
                kernel_work_text(r, r.flops));
    }
  }
  std::int64_t attributed = 0;
  for (const auto& k : run.kernels) attributed += k.module_id != kNoId ? 1 : 0;
  EXPECT_EQ(listed, attributed);
  double whole_flops = 0;
  for (const KernelRow& r : whole) whole_flops += r.flops;
  EXPECT_GT(flops, 0);
  EXPECT_LE(flops, whole_flops * (1 + 1e-9));
}

}  // namespace
}  // namespace flopscope::gui::testing
