#include "gui/models/module_tree_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>

#include "gui/models/colors.h"
#include "gui/models/roles.h"
#include "gui/models/run_loader.h"
#include "tests/unit/gui/qt_environment.h"

namespace flopscope::gui::testing {
namespace {

QStringList paths_in(const QAbstractItemModel& m, const QModelIndex& parent = {}) {
  QStringList out;
  for (int r = 0; r < m.rowCount(parent); ++r) {
    QModelIndex i = m.index(r, 0, parent);
    out << i.data(kPathRole).toString();
    out << paths_in(m, i);
  }
  return out;
}

TEST(ModuleTreeModel, PassesModelTesterAndShowsEveryModule) {
  ModuleTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  auto session = fixture_session(Variant::kV1);
  model.setSession(session);
  EXPECT_EQ(model.rowCount(), 1);                            // the model root
  EXPECT_EQ(model.columnCount(), ModuleTreeModel::kStatus);  // no diff columns for one run
  QStringList paths = paths_in(model);
  EXPECT_EQ(paths.size(), static_cast<int>(session->a->data.modules.size()));
  EXPECT_TRUE(paths.contains(QStringLiteral("layers.1.attn.position_adaptive_bias")));
  QModelIndex pab = model.indexForPath(QStringLiteral("layers.0.attn.position_adaptive_bias"));
  ASSERT_TRUE(pab.isValid());
  EXPECT_EQ(pab.data().toString(), QStringLiteral("position_adaptive_bias"));
  EXPECT_EQ(model.parent(pab).data(kPathRole).toString(), QStringLiteral("layers.0.attn"));
  // FLOPs are formatted for display (the core formatter, "FLOPs" as in the CLI), raw for sorting, and
  // positive for a module with a linear.
  QModelIndex flops = pab.siblingAtColumn(ModuleTreeModel::kFlops);
  EXPECT_GT(flops.data(kSortRole).toDouble(), 0);
  EXPECT_TRUE(flops.data().toString().endsWith(QStringLiteral("FLOPs")));
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kWeights).data().toString(), QStringLiteral("ACTIVE"));
}

// The first view of a run database comes from its stored aggregates (load_preview): the same modules and
// costs as the session built from the rows; calls, which need the rows, show as pending.
TEST(ModuleTreeModel, PreviewFromAggregatesShowsTheSameTreeAsTheRows) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("v1.db"));
  write_database(sonnet_run({}), path.toStdString());
  auto preview = load_preview({path});
  ASSERT_TRUE(preview.ok()) << preview.status().message();
  EXPECT_TRUE((*preview)->a->summary.from_aggregates);
  EXPECT_TRUE((*preview)->a->data.ops.empty());  // the rows were not read
  auto full = load_session({path});
  ASSERT_TRUE(full.ok()) << full.status().message();
  ModuleTreeModel lean, whole;
  QAbstractItemModelTester tester(&lean, QAbstractItemModelTester::FailureReportingMode::Fatal);
  lean.setSession(*preview);
  whole.setSession(*full);
  const QStringList paths = paths_in(whole);
  ASSERT_EQ(paths_in(lean), paths);
  for (const QString& p : paths) {
    const QModelIndex l = lean.indexForPath(p), w = whole.indexForPath(p);
    for (int c : {ModuleTreeModel::kBytes, ModuleTreeModel::kSelfP50, ModuleTreeModel::kInclP99,
                  ModuleTreeModel::kShare}) {
      EXPECT_EQ(l.siblingAtColumn(c).data().toString(), w.siblingAtColumn(c).data().toString())
          << p.toStdString();
    }
    // The same FLOPs. The lower-bound mark ">=" needs the rows or the stored summary facts (schema 010); this
    // fixture's database stores aggregates only, which carry no such flag, so only the number is compared.
    EXPECT_EQ(l.siblingAtColumn(ModuleTreeModel::kFlops).data(kSortRole),
              w.siblingAtColumn(ModuleTreeModel::kFlops).data(kSortRole))
        << p.toStdString();
    EXPECT_EQ(l.siblingAtColumn(ModuleTreeModel::kCalls).data().toString(), QStringLiteral("\u2026"));
  }
  // Not a run database with aggregates: no preview, the full load is all there is.
  EXPECT_FALSE(load_preview({path, path}).ok());
  EXPECT_FALSE(
      load_preview({QStringLiteral(FLOPSCOPE_SOURCE_DIR "/tests/fuzz/seeds/kineto/small.json")}).ok());
  // An Nsight Systems export is SQLite too, but not a run database: refused without importing it.
  EXPECT_FALSE(
      load_preview({QStringLiteral(FLOPSCOPE_SOURCE_DIR
                                   "/tests/data/nsys/pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite")})
          .ok());
}

TEST(ModuleTreeModel, DiffMarksVanishedModulesRedAndStruckOut) {
  ModuleTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSession(fixture_session(Variant::kV1, Variant::kV2));
  EXPECT_EQ(model.columnCount(), ModuleTreeModel::kColumnCount);
  QModelIndex pab = model.indexForPath(QStringLiteral("layers.1.attn.position_adaptive_bias"));
  ASSERT_TRUE(pab.isValid());
  EXPECT_EQ(pab.data(kStatusRole).toInt(), static_cast<int>(Verdict::kVanished));
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kStatus).data().toString(), QStringLiteral("VANISHED"));
  EXPECT_EQ(pab.data(Qt::ForegroundRole).value<QBrush>().color(), status_color(Verdict::kVanished));
  EXPECT_TRUE(pab.data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kWeights).data().toString(),
            QStringLiteral("ACTIVE \u2192 ERASED"));
  EXPECT_TRUE(
      pab.data(Qt::ToolTipRole).toString().contains(QStringLiteral("VANISHED: not in B (A: 7 op calls")));
  EXPECT_TRUE(pab.data(Qt::ToolTipRole).toString().contains(QStringLiteral("weights ERASED")));
  // Its time and FLOPs are gone in B: the deltas are negative.
  EXPECT_LT(pab.siblingAtColumn(ModuleTreeModel::kDeltaFlops).data(kSortRole).toDouble(), 0);
  // The projections exist in both runs with the same work: unchanged.
  QModelIndex q = model.indexForPath(QStringLiteral("layers.0.attn.q_proj"));
  EXPECT_EQ(q.data(kStatusRole).toInt(), static_cast<int>(Verdict::kUnchanged));
  // The attention block lost the bias work: changed.
  QModelIndex attn = model.indexForPath(QStringLiteral("layers.0.attn"));
  EXPECT_EQ(attn.data(kStatusRole).toInt(), static_cast<int>(Verdict::kChanged));
}

TEST(ModuleTreeModel, ZeroedWeightsAreDormantNotVanished) {
  ModuleTreeModel model;
  model.setSession(fixture_session(Variant::kV1, Variant::kV2z));
  QModelIndex pab = model.indexForPath(QStringLiteral("layers.0.attn.position_adaptive_bias"));
  EXPECT_EQ(pab.data(kStatusRole).toInt(), static_cast<int>(Verdict::kDormant));
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kStatus).data().toString(), QStringLiteral("DORMANT"));
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kWeights).data().toString(),
            QStringLiteral("ACTIVE \u2192 ZEROED"));
  EXPECT_TRUE(pab.data(Qt::ToolTipRole).toString().contains(QStringLiteral("DORMANT")));
}

TEST(ModuleTreeModel, RecursiveFilterKeepsMatchesAndTheirAncestors) {
  ModuleTreeModel model;
  model.setSession(fixture_session(Variant::kV1));
  QSortFilterProxyModel proxy;
  QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
  proxy.setSourceModel(&model);
  proxy.setRecursiveFilteringEnabled(true);
  proxy.setFilterRole(kPathRole);
  proxy.setFilterFixedString(QStringLiteral("position_adaptive"));
  QStringList paths = paths_in(proxy);
  EXPECT_TRUE(paths.contains(QStringLiteral("layers.0.attn.position_adaptive_bias")));
  EXPECT_TRUE(paths.contains(QStringLiteral("layers.0.attn")));  // ancestor kept
  EXPECT_FALSE(paths.contains(QStringLiteral("layers.0.attn.q_proj")));
  EXPECT_FALSE(paths.contains(QStringLiteral("embed")));
}

TEST(ModuleTreeModel, SortsByTheNumberNotTheText) {
  ModuleTreeModel model;
  model.setSession(fixture_session(Variant::kV1));
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(kSortRole);
  proxy.sort(ModuleTreeModel::kInclP50, Qt::DescendingOrder);
  QModelIndex root = proxy.index(0, 0);
  ASSERT_GT(proxy.rowCount(root), 2);
  double prev = 1e300;
  for (int r = 0; r < proxy.rowCount(root); ++r) {
    double v = proxy.index(r, ModuleTreeModel::kInclP50, root).data(kSortRole).toDouble();
    EXPECT_LE(v, prev);
    prev = v;
  }
  // The model's layers dominate a small embedding lookup.
  EXPECT_EQ(proxy.index(0, 0, root).data(kPathRole).toString(), QStringLiteral("layers"));
}

}  // namespace
}  // namespace flopscope::gui::testing

namespace flopscope::gui::testing {
namespace {

TEST(ModuleTreeModel, BehavesAsColumnShowsEliminationCandidates) {
  RunData run = sonnet_run({Variant::kV1});
  // Activation statistics as `profile --activations` records them: the bias modules output ~1e-7, the
  // projections order-one values.
  for (const auto& m : run.modules) {
    bool bias = m.path.ends_with("position_adaptive_bias");
    if (!bias && !m.path.ends_with("q_proj")) continue;
    for (int it = 0; it < 3; ++it) {
      ActivationRecord a;
      a.module_id = m.id;
      a.iteration = it;
      a.numel = 4096;
      a.out_l2 = bias ? 64 * 1e-7 : 64.0;
      run.activations.push_back(a);
    }
  }
  ModuleTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSession(make_session(make_loaded_run(QStringLiteral("v1.db"), std::move(run)), nullptr));
  EXPECT_EQ(model.headerData(ModuleTreeModel::kBehaviour, Qt::Horizontal).toString(),
            QStringLiteral("Behaves as"));
  QModelIndex pab = model.indexForPath(QStringLiteral("layers.0.attn.position_adaptive_bias"));
  ASSERT_TRUE(pab.isValid());
  EXPECT_EQ(pab.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString(),
            QStringLiteral("zero-like (3 of 3 calls)"));
  QModelIndex q = model.indexForPath(QStringLiteral("layers.0.attn.q_proj"));
  ASSERT_TRUE(q.isValid());
  EXPECT_TRUE(q.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString().isEmpty());
  // Without activation statistics the column stays empty.
  model.setSession(fixture_session(Variant::kV1));
  pab = model.indexForPath(QStringLiteral("layers.0.attn.position_adaptive_bias"));
  EXPECT_TRUE(pab.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString().isEmpty());
}

TEST(ModuleTreeModel, BehavesAsColumnShowsDeadCompute) {
  // x + alpha * f(x) with alpha 0 (profile --activations): f's ops are discarded by block.alpha's mul.
  RunData run;
  run.modules = {{0, kNoId, "", "Net"}, {1, 0, "block", "ReZero"}, {2, 1, "block.f", "Linear"}};
  for (int it = 0; it < 2; ++it) {
    OpRecord f, mul;
    f.id = 2 * it;
    mul.id = 2 * it + 1;
    f.iteration = mul.iteration = it;
    f.sequence = f.id;
    mul.sequence = mul.id;
    f.name = "aten::linear";
    mul.name = "aten::mul";
    f.module_id = 2;
    mul.module_id = 1;
    f.flops = 2048;
    mul.flops = 128;
    f.flops_source = mul.flops_source = FlopsSource::kFormula;
    f.duration_ns = 40;
    mul.duration_ns = 5;
    run.ops.push_back(f);
    run.ops.push_back(mul);
    run.discarded.push_back({f.id, mul.id, "block.alpha"});
    run.discarded.push_back({mul.id, mul.id, "block.alpha"});
  }
  run.activations.push_back({});  // recorded with --activations
  ModuleTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSession(make_session(make_loaded_run(QStringLiteral("rezero.db"), std::move(run)), nullptr));
  QModelIndex f = model.indexForPath(QStringLiteral("block.f"));
  QModelIndex block = model.indexForPath(QStringLiteral("block"));
  ASSERT_TRUE(f.isValid() && block.isValid());
  EXPECT_EQ(f.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString(),
            QStringLiteral("discarded (\u00d7 0: block.alpha)"));
  EXPECT_TRUE(block.siblingAtColumn(ModuleTreeModel::kBehaviour)
                  .data()
                  .toString()
                  .startsWith(QStringLiteral("computes then \u00d7 0: 2.18 kFLOPs")))
      << block.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString().toStdString();
  EXPECT_DOUBLE_EQ(f.siblingAtColumn(ModuleTreeModel::kBehaviour).data(kSortRole).toDouble(), 1.0);
}

TEST(ModuleTreeModel, BehavesAsColumnShowsModulesThatNeverRun) {
  // An expert the router never selects: parameters, no op, 0 calls in the tree; the core's words in the cell.
  RunData run;
  run.modules = {{0, kNoId, "", "Moe"},
                 {1, 0, "experts", "ModuleList"},
                 {2, 1, "experts.0", "Linear"},
                 {3, 1, "experts.1", "Linear"}};
  for (Id m : {2, 3}) {
    ParamRecord w;
    w.module_id = m;
    w.numel = 64;
    w.bytes = 256;
    w.max_abs = 0.5;
    run.params.push_back(w);
  }
  for (int it = 0; it < 2; ++it) {
    OpRecord op;
    op.id = op.sequence = it;
    op.iteration = it;
    op.name = "aten::linear";
    op.module_id = 2;
    op.duration_ns = 100;
    op.flops = 10;
    op.flops_source = FlopsSource::kFormula;
    run.ops.push_back(op);
  }
  ModuleTreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSession(make_session(make_loaded_run(QStringLiteral("moe.db"), std::move(run)), nullptr));
  QModelIndex idle = model.indexForPath(QStringLiteral("experts.1"));
  QModelIndex busy = model.indexForPath(QStringLiteral("experts.0"));
  ASSERT_TRUE(idle.isValid() && busy.isValid());
  EXPECT_EQ(idle.siblingAtColumn(ModuleTreeModel::kCalls).data().toString(), QStringLiteral("0"));
  EXPECT_EQ(idle.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString(),
            QStringLiteral("never runs on these inputs (1 param, 256 B)"));
  EXPECT_DOUBLE_EQ(idle.siblingAtColumn(ModuleTreeModel::kBehaviour).data(kSortRole).toDouble(), 1.0);
  EXPECT_TRUE(busy.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString().isEmpty());
}

}  // namespace
}  // namespace flopscope::gui::testing
