#include "gui/views/diff_page.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "analyzer/diff/gates.h"
#include "analyzer/latency.h"
#include "gui/models/diff_table_model.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString percent(double a, double b) {
  if (a == 0) return QString();
  return QStringLiteral(" (%1%2%)").arg(b >= a ? QStringLiteral("+") : QString()).arg(100 * (b - a) / a, 0, 'f', 1);
}

}  // namespace

DiffPage::DiffPage(QWidget* parent)
    : QWidget(parent),
      model_(new DiffTableModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      headline_(new QLabel(this)),
      show_all_(new QCheckBox(tr("Show unchanged modules"), this)),
      table_(new QTableView(this)),
      expect_vanished_(new QLineEdit(this)),
      forbid_active_(new QLineEdit(this)),
      max_regression_(new QLineEdit(this)),
      gate_results_(new QLabel(this)) {
  headline_->setTextFormat(Qt::RichText);
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  connect(show_all_, &QCheckBox::toggled, model_, &DiffTableModel::setShowUnchanged);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { Q_EMIT moduleSelected(current.data(kPathRole).toString()); });
  expect_vanished_->setPlaceholderText(tr("e.g. *position_adaptive_bias*"));
  forbid_active_->setPlaceholderText(tr("globs, comma-separated"));
  max_regression_->setPlaceholderText(tr("e.g. time=5%,flops=0.5%,bytes=1%"));
  gate_results_->setTextFormat(Qt::RichText);
  gate_results_->setWordWrap(true);
  auto* evaluate = new QPushButton(tr("Evaluate gates"), this);
  connect(evaluate, &QPushButton::clicked, this, [this] { evaluateGates(); });
  for (QLineEdit* e : {expect_vanished_, forbid_active_, max_regression_})
    connect(e, &QLineEdit::returnPressed, this, [this] { evaluateGates(); });
  auto* gates = new QGroupBox(tr("CI gates (as flopscope diff --expect-vanished / --forbid-active / --max-regression)"), this);
  auto* form = new QFormLayout;
  form->addRow(tr("Expect vanished:"), expect_vanished_);
  form->addRow(tr("Forbid active:"), forbid_active_);
  form->addRow(tr("Max regression:"), max_regression_);
  auto* gate_box = new QHBoxLayout(gates);
  gate_box->addLayout(form, 2);
  auto* right = new QVBoxLayout;
  right->addWidget(evaluate, 0, Qt::AlignLeft);
  right->addWidget(gate_results_, 1);
  gate_box->addLayout(right, 3);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(headline_);
  layout->addWidget(gates);
  layout->addWidget(show_all_);
  layout->addWidget(table_, 1);
}

void DiffPage::setGates(const QString& expect_vanished, const QString& forbid_active, const QString& max_regression) {
  expect_vanished_->setText(expect_vanished);
  forbid_active_->setText(forbid_active);
  max_regression_->setText(max_regression);
}

bool DiffPage::evaluateGates() {
  if (!session_ || !session_->diff.engine) {
    gate_results_->setText(tr("Open two runs to evaluate gates."));
    return false;
  }
  GateOptions options;
  auto globs = [](const QLineEdit* e) {
    std::vector<std::string> out;
    for (const QString& g : e->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
      if (!g.trimmed().isEmpty()) out.push_back(g.trimmed().toStdString());
    return out;
  };
  options.expect_vanished = globs(expect_vanished_);
  options.forbid_active = globs(forbid_active_);
  if (!max_regression_->text().trimmed().isEmpty()) {
    auto limits = parse_regression_limits(max_regression_->text().trimmed().toStdString());
    if (!limits.ok()) {
      gate_results_->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(q(limits.status().message())));
      return false;
    }
    options.max_regression = *limits;
  }
  const auto results = evaluate_gates(*session_->diff.engine, options);
  if (results.empty()) {
    gate_results_->setText(tr("No gate given."));
    return true;
  }
  QString html;
  bool all = true;
  for (const auto& r : results) {
    all = all && r.passed;
    // ERROR: the gate could not be evaluated (e.g. time not assessable across processes): neither verdict.
    html += QStringLiteral("<div><b style='color:%1'>%2</b> %3: %4</div>")
                .arg(r.passed ? QStringLiteral("#2e7d32") : r.error ? QStringLiteral("#e65100") : QStringLiteral("#c62828"),
                     r.passed ? QStringLiteral("PASS") : r.error ? QStringLiteral("ERROR") : QStringLiteral("FAIL"),
                     q(r.name), q(r.message));
  }
  gate_results_->setText(html);
  return all;
}

QString DiffPage::gateResults() const { return gate_results_->text(); }

void DiffPage::setSession(SessionPtr session) {
  session_ = std::move(session);
  model_->setSession(session_);
  if (!session_ || !session_->is_diff()) {
    headline_->setText(tr("<p>Open two runs to compare them: <b>File \u203a Open Diff\u2026</b>, drop two files on "
                          "the window, or <tt>flopscope-gui a.db b.db</tt>.</p>"));
    return;
  }
  const auto& a = session_->a->summary;
  const auto& b = session_->b->summary;
  const auto& d = session_->diff;
  // The saving first: the core's summary sentence, as every CLI report opens with it.
  QString sentence;
  for (const auto& part : d.engine->sentence.parts)
    sentence += part.module ? QStringLiteral("<tt>%1</tt>").arg(q(part.text)) : q(part.text);
  QString html = QStringLiteral("<p style='font-size:large'><b>%1</b></p>").arg(sentence);
  html += QStringLiteral("<p><b>A</b> %1 &nbsp;\u2192&nbsp; <b>B</b> %2</p>")
                     .arg(QFileInfo(session_->a->path).fileName().toHtmlEscaped(),
                          QFileInfo(session_->b->path).fileName().toHtmlEscaped());
  // The diff engine's counts, worded by the engine: the same line as every CLI report.
  html += QStringLiteral("<p>Modules: <b>%1</b></p>").arg(q(verdict_counts_text(*d.engine)).toHtmlEscaped());
  // What forward() returned, compared by the core (runs stored with --save-outputs): the CLI's line.
  if (const std::string line = output_line(d.engine->outputs); !line.empty())
    html += QStringLiteral("<p>%1</p>").arg(q(line).toHtmlEscaped());
  html += QStringLiteral("<p>FLOPs per iteration: %1 \u2192 %2%3<br>Bytes: %4 \u2192 %5%6<br>")
              .arg(q(format_flops(a.total.flops)), q(format_flops(b.total.flops)), percent(a.total.flops, b.total.flops),
                   q(format_bytes(a.total.bytes())), q(format_bytes(b.total.bytes())),
                   percent(a.total.bytes(), b.total.bytes()));
  const RunDiff& e = *d.engine;
  if (e.a.time.samples > 0 && e.b.time.samples > 0) {
    html += QStringLiteral("Time per iteration (P50, %1): %2 \u2192 %3%4: %5</p>")
                .arg(e.gpu_time ? tr("device") : tr("host"), q(format_ns(e.a.time.p50)), q(format_ns(e.b.time.p50)),
                     percent(e.a.time.p50, e.b.time.p50), q(describe_time_change(e.time_diff, e.time_significant)));
  }
  headline_->setText(html);
}

QString DiffPage::headline() const { return headline_->text(); }

QString DiffPage::sentence() const {
  return session_ && session_->diff.engine ? QString::fromStdString(session_->diff.engine->sentence.text()) : QString();
}

}  // namespace flopscope::gui
