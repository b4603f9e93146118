#include "gui/models/diff_table_model.h"

#include <QBrush>

#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString weights_cell(WeightState w) {
  return w == WeightState::kNone ? QStringLiteral("-") : QString::fromLatin1(to_string(w));
}

// The engine's time status of a module as a suffix of its time delta: " slower", " faster", " n/a" (not
// assessable across processes), "" otherwise.
QString time_status_suffix(const flopscope::ModuleDiff* m) {
  if (m == nullptr) return {};
  switch (m->time_status) {
    case TimeStatus::kSlower:
    case TimeStatus::kFaster: return QLatin1Char(' ') + QString::fromLatin1(to_string(m->time_status));
    case TimeStatus::kNotAssessable: return QStringLiteral(" n/a");
    default: return {};
  }
}

// Vanished first (the question reviewers ask), then new, then dormant (weights zeroed, compute still
// paid for), then moved, then changed, then the rest; tree order within (the Verdict enum's order).
int status_rank(Verdict v) { return static_cast<int>(v); }

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
    if (show_unchanged_ || diff.verdict(nodes[i]) != Verdict::kUnchanged) rows_.push_back(static_cast<int>(i));
  std::stable_sort(rows_.begin(), rows_.end(), [&](int x, int y) {
    return status_rank(diff.verdict(nodes[x])) < status_rank(diff.verdict(nodes[y]));
  });
}

int DiffTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int DiffTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant DiffTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const int node = rows_[index.row()];
  const DiffNode& n = session_->diff.nodes[node];
  const Verdict verdict = session_->diff.verdict(n);
  const ModuleSummary* a = n.a >= 0 ? &session_->a->summary.modules[n.a] : nullptr;
  const ModuleSummary* b = n.b >= 0 ? &session_->b->summary.modules[n.b] : nullptr;
  // Times on the diff engine's clock (device time when both runs have kernels), as its verdicts.
  const Clock clock = session_->clock();
  const double time_a = a ? inclusive_time(*a, clock).p50 : 0, time_b = b ? inclusive_time(*b, clock).p50 : 0;
  const double flops_a = a ? a->inclusive.flops : 0, flops_b = b ? b->inclusive.flops : 0;
  const flopscope::ModuleDiff* engine_row = session_->diff.entry(n);
  auto dash_or = [](const void* p, const std::string& s) { return p ? QString::fromStdString(s) : QStringLiteral("-"); };
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kModule: return n.path.empty() ? QStringLiteral("(model)") : q(n.path);
      case kStatus: return QString::fromLatin1(to_string(verdict));
      case kTimeA: return dash_or(a, format_ns(time_a));
      case kTimeB: return dash_or(b, format_ns(time_b));
      case kDeltaTime:
        return (time_b > time_a ? QStringLiteral("+") : QString()) + q(format_ns(time_b - time_a)) +
               time_status_suffix(engine_row);
      case kFlopsA: return dash_or(a, format_flops(flops_a));
      case kFlopsB: return dash_or(b, format_flops(flops_b));
      case kWeightsA: return weights_cell(session_->diff.weights_a(n));
      case kWeightsB: return weights_cell(session_->diff.weights_b(n));
      case kVerdict: return q(session_->diff.verdict_text(n));
      default: return {};
    }
  }
  switch (role) {
    case kSortRole:
      switch (index.column()) {
        case kTimeA: return time_a;
        case kTimeB: return time_b;
        case kDeltaTime: return time_b - time_a;
        case kFlopsA: return flops_a;
        case kFlopsB: return flops_b;
        default: return data(index, Qt::DisplayRole);
      }
    case kPathRole: return q(n.path);
    case kStatusRole: return static_cast<int>(verdict);
    case kNodeRole: return node;
    case Qt::ForegroundRole:
      if (index.column() == kStatus && verdict != Verdict::kUnchanged) return QBrush(status_color(verdict));
      return {};
    case Qt::ToolTipRole:
      // The time column's tip is the engine's time text ("... not assessable across processes (use ...)").
      if (index.column() == kDeltaTime && engine_row != nullptr && !engine_row->time_text.empty()) {
        return q(engine_row->time_text);
      }
      return q(session_->diff.verdict_text(n));
    default: return {};
  }
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const names[kColumnCount] = {"Module",  "Status",  "Time A P50", "Time B P50", "\u0394 time",
                                                  "FLOPs A", "FLOPs B", "Weights A",  "Weights B",  "Verdict"};
  if (section < 0 || section >= kColumnCount) return {};
  QString name = QString::fromUtf8(names[section]);
  // The clock named in the header: device time is not host time.
  if (session_ && (section == kTimeA || section == kTimeB || section == kDeltaTime)) {
    const QString clock = QString::fromLatin1(to_string(session_->clock()));
    const QString rest = name.front().unicode() < 128 ? name.left(1).toLower() + name.mid(1) : name;  // keep "Δ"
    name = clock.left(1).toUpper() + clock.mid(1) + QLatin1Char(' ') + rest;
  }
  return name;
}

}  // namespace flopscope::gui
