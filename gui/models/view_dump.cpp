#include "gui/models/view_dump.h"

#include <functional>
#include <map>

#include "gui/models/diff_table_model.h"
#include "gui/models/kernel_table_model.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/op_group_cells.h"
#include "gui/models/rank_matrix_model.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

// One cell of a tab-separated line: a tab, newline or backslash inside a module or kernel name would
// otherwise split or shift the columns.
QString tsv(const QString& s) {
  QString out;
  out.reserve(s.size());
  for (QChar c : s) {
    if (c == QLatin1Char('\\'))
      out += QStringLiteral("\\\\");
    else if (c == QLatin1Char('\t'))
      out += QStringLiteral("\\t");
    else if (c == QLatin1Char('\n'))
      out += QStringLiteral("\\n");
    else if (c == QLatin1Char('\r'))
      out += QStringLiteral("\\r");
    else
      out += c;
  }
  return out;
}

void line(QString& out, const QStringList& cells) {
  QStringList escaped;
  escaped.reserve(cells.size());
  for (const QString& c : cells) escaped << tsv(c);
  out += escaped.join(QLatin1Char('\t')) + QLatin1Char('\n');
}

QString path_text(const QString& path) {
  return path.isEmpty() ? QStringLiteral("(model)") : path;
}

// The tree's rows in pre-order (the model's order, unsorted and unfiltered: "Show unchanged" ticked).
void walk(const QAbstractItemModel& m, const QModelIndex& parent,
          const std::function<void(const QModelIndex&)>& f) {
  for (int r = 0; r < m.rowCount(parent); ++r) {
    const QModelIndex i = m.index(r, 0, parent);
    f(i);
    walk(m, i, f);
  }
}

QString dump_tree(const SessionPtr& session) {
  ModuleTreeModel model;
  model.setSession(session);
  const std::vector<int> columns = model.shownColumns();
  QString out;
  QStringList header{QStringLiteral("Path")};
  for (int c : columns) header << model.headerData(c, Qt::Horizontal).toString();
  line(out, header);
  walk(model, {}, [&](const QModelIndex& i) {
    QStringList row{path_text(i.data(kPathRole).toString())};
    for (int c : columns) row << i.siblingAtColumn(c).data().toString();
    line(out, row);
  });
  return out;
}

QString dump_candidates(const SessionPtr& session) {
  ModuleTreeModel model;
  model.setSession(session);
  QString out;
  line(out,
       {QStringLiteral("Path"), model.headerData(ModuleTreeModel::kBehaviour, Qt::Horizontal).toString()});
  walk(model, {}, [&](const QModelIndex& i) {
    const QString behaves = i.siblingAtColumn(ModuleTreeModel::kBehaviour).data().toString();
    if (!behaves.isEmpty()) line(out, {path_text(i.data(kPathRole).toString()), behaves});
  });
  return out;
}

QString dump_table(const QAbstractItemModel& model) {
  QString out;
  QStringList header;
  for (int c = 0; c < model.columnCount(); ++c) header << model.headerData(c, Qt::Horizontal).toString();
  line(out, header);
  for (int r = 0; r < model.rowCount(); ++r) {
    QStringList row;
    for (int c = 0; c < model.columnCount(); ++c) row << model.index(r, c).data().toString();
    line(out, row);
  }
  return out;
}

// The detail pane's op tables of run A, module by module in tree order: the core's op groups, the rows of
// `report --format json` op_groups (each module's groups in the core's order).
QString dump_ops(const SessionPtr& session) {
  const LoadedRun& run = *session->a;
  std::map<std::string, std::vector<OpGroup>> by_module;
  for (OpGroup& g : group_ops(run.data, run.summary.iterations, run.summary.peak))
    by_module[g.module_path].push_back(std::move(g));
  QString out;
  line(out, QStringList{QStringLiteral("Path")} + op_group_header());
  ModuleTreeModel model;
  model.setSession(session);
  walk(model, {}, [&](const QModelIndex& i) {
    const QString path = i.data(kPathRole).toString();
    auto groups = by_module.find(path.toStdString());
    if (groups == by_module.end()) return;
    for (const OpGroup& g : groups->second)
      line(out, QStringList{path_text(path)} + op_group_cells(g, run.summary.has_kernels));
  });
  return out;
}

QString dump_ranks(const SessionPtr& session) {
  RankMatrixModel model;
  model.setReport(std::shared_ptr<const RankReport>(session->ranks, &session->ranks->report),
                  2);  // the tab's depth
  QString out;
  QStringList header{QStringLiteral("Module")};
  for (int c = 0; c < model.columnCount(); ++c) header << model.headerData(c, Qt::Horizontal).toString();
  line(out, header);
  for (int r = 0; r < model.rowCount(); ++r) {
    QStringList row{model.headerData(r, Qt::Vertical).toString()};
    for (int c = 0; c < model.columnCount(); ++c) row << model.index(r, c).data().toString();
    line(out, row);
  }
  return out;
}

// The Roofline tab's points: the facade's roofline of run A (what `flopscope roofline` plots), each with its
// bound and its tooltip, the SVG's <title> of that point.
QString dump_roofline(const SessionPtr& session) {
  QString out;
  line(out, {QStringLiteral("Path"), QStringLiteral("Bound"), QStringLiteral("Point")});
  for (const graphs::RooflinePoint& p : session->a->analysis.roofline().points) {
    const char* bound = p.attainable <= 0 ? "-" : p.memory_bound ? "memory" : "compute";
    line(out, {path_text(QString::fromStdString(p.path)), QString::fromLatin1(bound),
               QString::fromStdString(p.text)});
  }
  return out;
}

}  // namespace

QStringList dump_views() {
  return {QStringLiteral("tree"),    QStringLiteral("diff"),       QStringLiteral("kernels"),
          QStringLiteral("ops"),     QStringLiteral("candidates"), QStringLiteral("ranks"),
          QStringLiteral("roofline")};
}

StatusOr<QString> dump_view(const SessionPtr& session, const QString& view) {
  if (!session || !session->a) return InvalidArgument("no run opened");
  if (view == QLatin1String("tree")) return dump_tree(session);
  if (view == QLatin1String("candidates")) return dump_candidates(session);
  if (view == QLatin1String("ops")) return dump_ops(session);
  if (view == QLatin1String("roofline")) return dump_roofline(session);
  if (view == QLatin1String("kernels")) {
    StatusOr<std::vector<KernelRow>> rows = session->a->analysis.kernels();
    if (!rows.ok()) return rows.status();
    KernelTableModel model;
    model.setRows(std::move(*rows));
    return dump_table(model);
  }
  if (view == QLatin1String("diff")) {
    if (!session->is_diff()) return InvalidArgument("the diff view needs two runs (A B)");
    DiffTableModel model;  // as the tab opens: the modules with a verdict other than UNCHANGED
    model.setSession(session);
    return dump_table(model);
  }
  if (view == QLatin1String("ranks")) {
    if (!session->has_ranks())
      return InvalidArgument("the ranks view needs the ranks of one run (run.rank*.db)");
    return dump_ranks(session);
  }
  return InvalidArgument("unknown view '" + view.toStdString() + "' (" +
                         dump_views().join(QStringLiteral(", ")).toStdString() + ")");
}

}  // namespace flopscope::gui
