#include "gui/models/diff_table_model.h"

#include <QBrush>

#include "analyzer/diff/diff_cells.h"
#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

QString weights_cell(WeightState w) {
  return w == WeightState::kNone ? QStringLiteral("-") : QString::fromLatin1(to_string(w));
}

// Vanished first (the question reviewers ask), then new, then dormant (weights zeroed, compute still
// paid for), then moved, then changed, then the rest; tree order within (the Verdict enum's order).
int status_rank(Verdict v) {
  return static_cast<int>(v);
}

}  // namespace

DiffTableModel::DiffTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DiffTableModel::setSession(SessionPtr session) {
  beginResetModel();
  session_ = std::move(session);
  rebuild();
  endResetModel();
}

void DiffTableModel::setShowUnchanged(bool show) {
  if (show == show_unchanged_) return;
  beginResetModel();
  show_unchanged_ = show;
  rebuild();
  endResetModel();
}

void DiffTableModel::rebuild() {
  rows_.clear();
  if (!session_ || !session_->is_diff()) return;
  const auto& diff = session_->diff;
  const auto& nodes = diff.nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (show_unchanged_ || diff.verdict(nodes[i]) != Verdict::kUnchanged)
      rows_.push_back(static_cast<int>(i));
  std::stable_sort(rows_.begin(), rows_.end(), [&](int x, int y) {
    return status_rank(diff.verdict(nodes[x])) < status_rank(diff.verdict(nodes[y]));
  });
}

int DiffTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DiffTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant DiffTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const int node = rows_[index.row()];
  const DiffNode& n = session_->diff.nodes[node];
  const Verdict verdict = session_->diff.verdict(n);
  // Times and FLOPs are the diff engine's row (its clock, its per-iteration sides), worded by the core's
  // cells as the CLI's tables word them; a node without an engine row has nothing to compare.
  const flopscope::ModuleDiff* engine_row = session_->diff.entry(n);
  static const SideCost kAbsent;
  const SideCost& a = engine_row ? engine_row->a : kAbsent;
  const SideCost& b = engine_row ? engine_row->b : kAbsent;
  const double time_a = a.present ? a.time.p50 : 0, time_b = b.present ? b.time.p50 : 0;
  const double flops_a = a.present ? a.flops : 0, flops_b = b.present ? b.flops : 0;
  auto flops_cell = [](const SideCost& s) {
    return s.present ? q(flops_text(s.flops)) : QStringLiteral("-");
  };
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kModule:
        return n.path.empty() ? QStringLiteral("(model)") : q(n.path);
      case kStatus:
        return QString::fromLatin1(to_string(verdict));
      case kTimeA:
        return q(side_time_text(a));
      case kTimeB:
        return q(side_time_text(b));
      case kDeltaTime:
        return engine_row ? q(time_delta_text(engine_row->time_diff, engine_row->time_status,
                                              a.present && b.present))
                          : QString();
      case kFlopsA:
        return flops_cell(a);
      case kFlopsB:
        return flops_cell(b);
      case kWeightsA:
        return weights_cell(session_->diff.weights_a(n));
      case kWeightsB:
        return weights_cell(session_->diff.weights_b(n));
      case kVerdict:
        return q(session_->diff.verdict_text(n));
      default:
        return {};
    }
  }
  switch (role) {
    case kSortRole:
      switch (index.column()) {
        case kTimeA:
          return time_a;
        case kTimeB:
          return time_b;
        case kDeltaTime:
          return engine_row && a.present && b.present ? engine_row->time_diff.diff : 0.0;
        case kFlopsA:
          return flops_a;
        case kFlopsB:
          return flops_b;
        default:
          return data(index, Qt::DisplayRole);
      }
    case kPathRole:
      return q(n.path);
    case kStatusRole:
      return static_cast<int>(verdict);
    case kNodeRole:
      return node;
    case Qt::ForegroundRole:
      if (index.column() == kStatus && verdict != Verdict::kUnchanged) return QBrush(status_color(verdict));
      return {};
    case Qt::ToolTipRole:
      // The time column's tip is the engine's time text ("... not assessable across processes (use ...)").
      if (index.column() == kDeltaTime && engine_row != nullptr && !engine_row->time_text.empty()) {
        return q(engine_row->time_text);
      }
      return q(session_->diff.verdict_text(n));
    default:
      return {};
  }
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const names[kColumnCount] = {"Module",      "Status",  "Time A P50", "Time B P50",
                                                  "\u0394 time", "FLOPs A", "FLOPs B",    "Weights A",
                                                  "Weights B",   "Verdict"};
  if (section < 0 || section >= kColumnCount) return {};
  QString name = QString::fromUtf8(names[section]);
  // The clock named in the header: device time is not host time.
  if (session_ && (section == kTimeA || section == kTimeB || section == kDeltaTime)) {
    const QString clock = QString::fromLatin1(to_string(session_->clock()));
    const QString rest =
        name.front().unicode() < 128 ? name.left(1).toLower() + name.mid(1) : name;  // keep "Δ"
    name = clock.left(1).toUpper() + clock.mid(1) + QLatin1Char(' ') + rest;
  }
  return name;
}

}  // namespace flopscope::gui
