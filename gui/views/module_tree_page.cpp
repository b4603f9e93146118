#include "gui/views/module_tree_page.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/models/kernel_table_model.h"
#include "gui/models/module_details.h"
#include "gui/models/module_filter.h"
#include "gui/models/module_tree_model.h"
#include "gui/models/op_group_cells.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

QString h(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

QString shape_text(const std::vector<std::int64_t>& shape) {
  QStringList parts;
  for (auto d : shape) parts << QString::number(d);
  return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

void append_details(QString& html, const LoadedRun& run, const std::string& path, const QString& title) {
  ModuleDetails d = module_details(run.data, run.summary, path);
  html += QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
  if (!d.found) {
    html += QStringLiteral("<p><i>This module is not in this run.</i></p>");
    return;
  }
  // Ops: the core's op groups of this module (module + name + signature, `report --format json` op_groups),
  // in the cells `flopscope-gui --dump ops` prints. Ops are per iteration and per call, kernels summed over
  // the whole run (kernel_table): each section and header says which.
  const int iterations = std::max(1, run.summary.iterations);
  const QString whole_run = iterations == 1 ? QStringLiteral("whole run: 1 iteration")
                                            : QStringLiteral("whole run: all %1 iterations").arg(iterations);
  html += QStringLiteral("<p><b>Ops</b> (%1 kinds; per iteration and per call)</p>").arg(d.ops.size());
  if (!d.ops.empty()) {
    html += QStringLiteral("<table cellspacing=0 cellpadding=2><tr>");
    for (const QString& c : op_group_header()) html += QStringLiteral("<th>%1</th>").arg(c.toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (std::size_t i = 0; i < d.ops.size() && i < 40; ++i) {
      html += QStringLiteral("<tr>");
      const QStringList cells = op_group_cells(d.ops[i], run.summary.has_kernels);
      for (int c = 0; c < cells.size(); ++c)
        html += QStringLiteral("<td%1>%2</td>")
                    .arg(c < 2 ? QString() : QStringLiteral(" align=right"), cells[c].toHtmlEscaped());
      html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
  }
  // Kernels: the core's kernel table in the cells of `report --kernels` (analytic FLOPs of the launching
  // ops, ">=" or "unknown" where some have no formula; measured counters when recorded).
  html += QStringLiteral("<p><b>Kernels</b> (%1 kinds; totals, %2)</p>").arg(d.kernels.size()).arg(whole_run);
  if (!d.kernels.empty()) {
    const int columns[] = {KernelTableModel::kName, KernelTableModel::kCount, KernelTableModel::kDeviceTime,
                           KernelTableModel::kFlops, KernelTableModel::kMeasuredFlops};
    html += QStringLiteral("<table cellspacing=0 cellpadding=2><tr>");
    for (int c : columns) {
      const QString scope =
          c == KernelTableModel::kName ? QString() : QStringLiteral("<br>(%1)").arg(whole_run);
      html += QStringLiteral("<th>%1%2</th>").arg(KernelTableModel::header(c).toHtmlEscaped(), scope);
    }
    html += QStringLiteral("</tr>");
    for (std::size_t i = 0; i < d.kernels.size() && i < 40; ++i) {
      html += QStringLiteral("<tr>");
      for (int c : columns)
        html += QStringLiteral("<td%1>%2</td>")
                    .arg(c == KernelTableModel::kName ? QString() : QStringLiteral(" align=right"),
                         KernelTableModel::cell(d.kernels[i], c).toHtmlEscaped());
      html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
  }
  html += QStringLiteral("<p><b>Weights</b> (%1 tensors)</p>").arg(d.params.size());
  if (d.params.empty()) return;
  html += QStringLiteral(
      "<table cellspacing=0 cellpadding=2><tr><th align=left>name</th><th>dtype</th><th>shape</th>"
      "<th>max |x|</th><th>status</th></tr>");
  for (const auto& p : d.params)
    html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td align=right>%4</td><td>%5</td></tr>")
                .arg(h(p.name), h(p.dtype), shape_text(p.shape), QString::number(p.max_abs, 'g', 3),
                     p.max_abs == 0 ? QStringLiteral("ZEROED") : QStringLiteral("ACTIVE"));
  html += QStringLiteral("</table>");
}

}  // namespace

ModuleTreePage::ModuleTreePage(QWidget* parent)
    : QWidget(parent),
      model_(new ModuleTreeModel(this)),
      proxy_(new ModuleFilterProxy(this)),
      show_unchanged_(new QCheckBox(tr("Show unchanged modules"), this)),
      filter_(new QLineEdit(this)),
      tree_(new QTreeView(this)),
      details_(new QTextBrowser(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  filter_->setPlaceholderText(tr("Filter modules (path substring)"));
  filter_->setClearButtonEnabled(true);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setText(text);
    tree_->expandAll();
  });
  show_unchanged_->setVisible(false);
  connect(show_unchanged_, &QCheckBox::toggled, this, [this](bool show) {
    const QString current = selectedPath();
    proxy_->setHideUnchanged(!show);
    if (!current.isEmpty()) selectModule(current);
  });
  tree_->setModel(proxy_);
  tree_->setSortingEnabled(true);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            QString path = current.data(kPathRole).toString();
            showDetails(path);
            Q_EMIT moduleSelected(path);
          });
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  split->addWidget(details_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* bar = new QHBoxLayout;
  bar->addWidget(filter_, 1);
  bar->addWidget(show_unchanged_);
  layout->addLayout(bar);
  layout->addWidget(split);
}

void ModuleTreePage::setSession(SessionPtr session) {
  session_ = std::move(session);
  model_->setSession(session_);
  // Diff mode opens on what changed: UNCHANGED modules hidden until asked for.
  const bool diff = session_ && session_->is_diff();
  show_unchanged_->setVisible(diff);
  show_unchanged_->blockSignals(true);
  show_unchanged_->setChecked(false);
  show_unchanged_->blockSignals(false);
  proxy_->setHideUnchanged(diff);
  tree_->sortByColumn(-1, Qt::AscendingOrder);  // module order until the user sorts
  tree_->expandToDepth(2);
  // Which columns show, and in which order, is the model's (shownColumns), so `--dump tree` prints what
  // this tree shows. The model keeps its column numbers; the header moves and hides sections.
  QHeaderView* header = tree_->header();
  const std::vector<int> shown = model_->shownColumns();
  for (int c = 0; c < header->count(); ++c)
    tree_->setColumnHidden(c, std::find(shown.begin(), shown.end(), c) == shown.end());
  for (std::size_t to = 0; to < shown.size(); ++to)
    header->moveSection(header->visualIndex(shown[to]), static_cast<int>(to));
  details_->clear();
}

QSortFilterProxyModel* ModuleTreePage::proxy() const {
  return proxy_;
}

void ModuleTreePage::showChanges() {
  if (!session_ || !session_->is_diff() || !session_->diff.engine) return;
  QModelIndex first;
  for (const auto& m : session_->diff.engine->modules) {
    if (!m.headline ||
        (m.verdict != Verdict::kVanished && m.verdict != Verdict::kDormant && m.verdict != Verdict::kNew))
      continue;
    QModelIndex index = proxy_->mapFromSource(model_->indexForPath(QString::fromStdString(m.path)));
    if (!index.isValid()) continue;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) tree_->expand(p);
    if (!first.isValid()) first = index;
  }
  if (!first.isValid()) return;
  tree_->setCurrentIndex(first);
  tree_->scrollTo(first);
}

QString ModuleTreePage::selectedPath() const {
  return tree_->currentIndex().data(kPathRole).toString();
}

QString ModuleTreePage::detailsText() const {
  return details_->toPlainText();
}

void ModuleTreePage::selectModule(const QString& path) {
  QModelIndex source = model_->indexForPath(path);
  if (!source.isValid()) return;
  QModelIndex index = proxy_->mapFromSource(source);
  if (!index.isValid() || index == tree_->currentIndex()) return;
  tree_->setCurrentIndex(index);
  tree_->scrollTo(index);
}

void ModuleTreePage::showDetails(const QString& path) {
  if (!session_) return;
  const std::string p = path.toStdString();
  int node = session_->diff.find(p);
  QString html = QStringLiteral("<h2>%1</h2>").arg(path.isEmpty() ? tr("(model)") : path.toHtmlEscaped());
  if (node >= 0 && !session_->diff.verdict_text(session_->diff.nodes[node]).empty())
    html +=
        QStringLiteral("<p><b>%1</b></p>").arg(h(session_->diff.verdict_text(session_->diff.nodes[node])));
  append_details(html, *session_->a, p, session_->is_diff() ? tr("Run A") : tr("This run"));
  if (session_->b) append_details(html, *session_->b, p, tr("Run B"));
  details_->setHtml(html);
}

}  // namespace flopscope::gui
