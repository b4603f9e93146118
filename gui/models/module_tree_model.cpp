#include "gui/models/module_tree_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>
#include <algorithm>

#include "analyzer/activations/candidate_text.h"
#include "analyzer/diff/diff_cells.h"
#include "analyzer/work_text.h"
#include "gui/models/colors.h"
#include "gui/models/format.h"
#include "gui/models/roles.h"

namespace flopscope::gui {

namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

}  // namespace

namespace {

// A run's memory figures, or null when it has no memory events (or they cannot be read: the column then
// shows nothing rather than zeros).
const MemoryUsage* memory_of(const LoadedRun& run) {
  StatusOr<const MemoryUsage*> m = run.analysis.memory();
  return m.ok() && !(*m)->empty() ? *m : nullptr;
}

}  // namespace

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ModuleTreeModel::setSession(SessionPtr session) {
  beginResetModel();
  session_ = std::move(session);
  row_in_parent_.clear();
  params_a_.clear();
  params_b_.clear();
  if (session_ && session_->a) params_a_ = module_params(session_->a->summary, session_->a->data.params);
  if (session_ && session_->b) params_b_ = module_params(session_->b->summary, session_->b->data.params);
  memory_a_ = session_ && session_->a ? memory_of(*session_->a) : nullptr;
  memory_b_ = session_ && session_->b ? memory_of(*session_->b) : nullptr;
  if (session_) {
    const auto& nodes = session_->diff.nodes;
    row_in_parent_.assign(nodes.size(), 0);
    for (const auto& n : nodes)
      for (std::size_t r = 0; r < n.children.size(); ++r) row_in_parent_[n.children[r]] = static_cast<int>(r);
  }
  endResetModel();
}

std::vector<int> ModuleTreeModel::shownColumns() const {
  bool measured = false;
  if (session_)
    for (const auto* run : {session_->a.get(), session_->b.get()})
      if (run && run->summary.total.measured_flops > 0) measured = true;
  const bool host_column = session_ && session_->clock() == Clock::kDevice;
  std::vector<int> shown{kName};
  if (session_ && session_->is_diff()) shown.insert(shown.end(), {kStatus, kDeltaTime, kDeltaFlops});
  for (int c = kName + 1; c < kStatus; ++c) {
    if ((c == kMeasuredFlops && !measured) || (c == kHostInclP50 && !host_column)) continue;
    if (c == kAllocated && memory_a_ == nullptr && memory_b_ == nullptr) continue;
    shown.push_back(c);
  }
  return shown;
}

QModelIndex ModuleTreeModel::indexForPath(const QString& path) const {
  if (!session_) return {};
  int i = session_->diff.find(path.toStdString());
  if (i < 0) return {};
  return createIndex(row_in_parent_[i], 0, static_cast<quintptr>(i));
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!session_ || session_->diff.nodes.empty() || row < 0 || column < 0 || column >= columnCount(parent))
    return {};
  if (!parent.isValid()) return row == 0 ? createIndex(0, column, quintptr(0)) : QModelIndex();
  const auto& p = session_->diff.nodes[parent.internalId()];
  if (row >= static_cast<int>(p.children.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(p.children[row]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
  if (!session_ || !child.isValid()) return {};
  int p = session_->diff.nodes[child.internalId()].parent;
  if (p < 0) return {};
  return createIndex(row_in_parent_[p], 0, static_cast<quintptr>(p));
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
  if (!session_ || session_->diff.nodes.empty()) return 0;
  if (!parent.isValid()) return 1;
  if (parent.column() != 0) return 0;
  return static_cast<int>(session_->diff.nodes[parent.internalId()].children.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const {
  return session_ && session_->is_diff() ? kColumnCount : kStatus;
}

const ModuleSummary* ModuleTreeModel::summaryOf(const DiffNode& n) const {
  if (n.a >= 0) return &session_->a->summary.modules[n.a];
  if (n.b >= 0 && session_->b) return &session_->b->summary.modules[n.b];
  return nullptr;
}

const ModuleParams* ModuleTreeModel::paramsOf(const DiffNode& n) const {
  if (n.a >= 0 && static_cast<std::size_t>(n.a) < params_a_.size()) return &params_a_[n.a];
  if (n.b >= 0 && static_cast<std::size_t>(n.b) < params_b_.size()) return &params_b_[n.b];
  return nullptr;
}

std::pair<const MemoryUsage*, std::size_t> ModuleTreeModel::memoryOf(const DiffNode& n) const {
  if (n.a >= 0) return {memory_a_, static_cast<std::size_t>(n.a)};
  if (n.b >= 0) return {memory_b_, static_cast<std::size_t>(n.b)};
  return {nullptr, 0};
}

double ModuleTreeModel::number(const DiffNode& n, int column) const {
  const ModuleSummary* m = summaryOf(n);
  if (!m) return 0;
  const ModuleSummary* mb = n.b >= 0 && session_->b ? &session_->b->summary.modules[n.b] : nullptr;
  const ModuleSummary* ma = n.a >= 0 ? &session_->a->summary.modules[n.a] : nullptr;
  const Clock clock = session_->clock();
  switch (column) {
    case kCalls:
      return m->calls;
    case kSelfP50:
      return self_time(*m, clock).p50;
    case kSelfP99:
      return self_time(*m, clock).p99;
    case kInclP50:
      return inclusive_time(*m, clock).p50;
    case kInclP99:
      return inclusive_time(*m, clock).p99;
    case kHostInclP50:
      return m->inclusive_time.p50;
    case kFlops:
      return m->inclusive.flops;
    case kMeasuredFlops:
      return m->inclusive.measured_flops;
    case kBytes:
      return m->inclusive.bytes();
    case kIntensity:
      return m->inclusive.intensity();
    case kShare:
      return m->share_time;
    case kParams:
      return paramsOf(n) ? static_cast<double>(paramsOf(n)->total.elements) : 0.0;
    case kParamBytes:
      return paramsOf(n) ? static_cast<double>(paramsOf(n)->total.bytes) : 0.0;
    case kAllocated: {
      const auto [memory, module] = memoryOf(n);
      double bytes = 0;
      for (std::size_t d = 0; memory != nullptr && d < memory->devices.size(); ++d) {
        if (const MemoryFigures* f = memory->module_total(module, d))
          bytes += static_cast<double>(f->allocated);
      }
      return bytes;
    }
    case kBehaviour: {
      if (n.a < 0) return 0;
      const Candidate* c = session_->a->candidate(n.path);
      // Discarded work and never-run modules sort with the candidates that hold in every call.
      bool discard = session_->a->discarded_by(n.path) || session_->a->discard_held(n.path);
      double held = !c ? 0.0 : c->kind == CandidateKind::kNeverRun ? 1.0 : c->share_held;
      return std::max(held, discard ? 1.0 : 0.0);
    }
    case kStatus:
      return static_cast<int>(session_->diff.verdict(n));
    case kDeltaTime: {  // the diff engine's median difference, on its clock, as its verdicts and gates
      const flopscope::ModuleDiff* e = session_->diff.entry(n);
      return e && e->a.present && e->b.present ? e->time_diff.diff : 0.0;
    }
    case kDeltaFlops:
      return (mb ? mb->inclusive.flops : 0) - (ma ? ma->inclusive.flops : 0);
    default:
      return 0;
  }
}

QVariant ModuleTreeModel::text(const DiffNode& n, int column) const {
  const ModuleSummary* m = summaryOf(n);
  double v = number(n, column);
  switch (column) {
    case kName:
      return q(n.name);
    case kType:
      return q(n.type);
    case kCalls:  // calls are spans of ops: unknown until the rows of a previewed run are read
      return session_->a->summary.from_aggregates ? QStringLiteral("\u2026") : q(format_count(v));
    case kSelfP50:
    case kInclP50:
    case kHostInclP50:
      return q(format_ns(v));
    // P99 only from enough iterations (the core's rule): "-" otherwise, with the reason in the tooltip.
    case kSelfP99:
      return m ? q(percentile_text(self_time(*m, session_->clock()), 99)) : QString();
    case kInclP99:
      return m ? q(percentile_text(inclusive_time(*m, session_->clock()), 99)) : QString();
    // The lower-bound mark where some op below has no formula, as in `flopscope report`.
    case kFlops:
      return m ? q(lower_bound_flops_text(v, m->flops_complete)) : QString();
    case kMeasuredFlops:
      return m && m->inclusive.measured_flops > 0 ? q(format_flops(v)) : QStringLiteral("-");
    case kBytes:
      return q(format_bytes(v));
    case kIntensity:
      return QString::number(v, 'f', 2);
    case kShare:
      return QString::number(100 * v, 'f', 1) + QLatin1Char('%');
    case kParams:  // "-" where the run recorded no parameter: unknown, not zero
      return paramsOf(n) ? q(param_count_text(static_cast<std::int64_t>(v))) : QStringLiteral("-");
    case kParamBytes:
      return paramsOf(n) ? q(format_bytes(v)) : QStringLiteral("-");
    case kAllocated: {
      const auto [memory, module] = memoryOf(n);
      return memory != nullptr ? q(module_allocated_text(*memory, module)) : QStringLiteral("-");
    }
    case kWeights: {
      auto cell = [](WeightState w) {
        return w == WeightState::kNone ? QStringLiteral("-") : QString::fromLatin1(to_string(w));
      };
      const WeightState wa = session_->diff.weights_a(n), wb = session_->diff.weights_b(n);
      if (wa == WeightState::kNone && wb == WeightState::kNone) return QString();
      if (!session_->is_diff()) return cell(wa);
      return cell(wa) + QStringLiteral(" \u2192 ") + cell(wb);
    }
    case kBehaviour: {
      if (n.a < 0) return QString();
      // The core's candidates (analyzer/activations) in its words: zero-like / identity-like, never-run, per
      // input set where one needs the module, and dead compute.
      QStringList parts;
      if (const Candidate* c = session_->a->candidate(n.path)) parts << q(behaviour_text(*c));
      if (const DiscardCandidate* d = session_->a->discarded_by(n.path))
        parts << QStringLiteral("discarded (\u00d7 0: %1)").arg(q(d->zero_factor));
      if (const DiscardCandidate* d = session_->a->discard_held(n.path))
        parts << QStringLiteral("computes then \u00d7 0: %1 (%2)")
                     .arg(q(format_flops(d->flops)), q(d->zero_factor));
      return parts.join(QStringLiteral("; "));
    }
    case kStatus:
      return QString::fromLatin1(to_string(session_->diff.verdict(n)));
    case kDeltaTime: {  // the engine's time change and status, as the diff table and the CLI word it
      const flopscope::ModuleDiff* e = session_->diff.entry(n);
      return e ? q(time_delta_text(e->time_diff, e->time_status, e->a.present && e->b.present)) : QString();
    }
    case kDeltaFlops:
      return (v > 0 ? QStringLiteral("+") : QString()) + q(format_flops(v));
    default:
      return {};
  }
}

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
  if (!session_ || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const int node = static_cast<int>(index.internalId());
  const DiffNode& n = session_->diff.nodes[node];
  switch (role) {
    case Qt::DisplayRole:
      return text(n, index.column());
    case kSortRole:
      if (index.column() <= kType) return text(n, index.column());
      if (index.column() == kWeights) return text(n, index.column());
      if (index.column() == kBehaviour) return number(n, index.column());
      return number(n, index.column());
    case kPathRole:
      return q(n.path);
    case kStatusRole:
      return static_cast<int>(session_->diff.verdict(n));
    case kNodeRole:
      return node;
    case Qt::ToolTipRole: {
      QString tip = n.path.empty() ? QStringLiteral("(model)") : q(n.path);
      if ((index.column() == kParams || index.column() == kParamBytes) && paramsOf(n)) {
        const ParamCount& own = paramsOf(n)->own;
        tip += QStringLiteral("\nits own parameters and buffers: %1 elements in %2, %3")
                   .arg(q(param_count_text(own.elements)), q(count_of(own.tensors, "tensor")),
                        q(format_bytes(static_cast<double>(own.bytes))));
      }
      if (!session_->diff.verdict_text(n).empty())
        tip += QLatin1Char('\n') + q(session_->diff.verdict_text(n));
      return tip;
    }
    case Qt::ForegroundRole:
      if (session_->diff.verdict(n) != Verdict::kUnchanged)
        return QBrush(status_color(session_->diff.verdict(n)));
      return {};
    case Qt::FontRole:
      if (session_->diff.verdict(n) == Verdict::kVanished) {
        QFont f;
        f.setStrikeOut(true);
        return f;
      }
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() > kType && index.column() != kWeights && index.column() != kBehaviour &&
          index.column() != kStatus)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    default:
      return {};
  }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= kColumnCount) return {};
  // Time columns name their clock when it is the device's, so host and device time never look alike.
  const bool device = session_ && session_->clock() == Clock::kDevice;
  if (role == Qt::ToolTipRole) {
    if (section >= kSelfP50 && section <= kInclP99 && section != kHostInclP50)
      return device ? tr("Device (kernel) time per iteration") : tr("Host op time per iteration");
    if (section == kHostInclP50) return tr("Host op time per iteration (the CPU side of a GPU run)");
    if (section == kParams)
      return tr(
          "Parameter and buffer elements of the module and its children (a tied tensor under each name)");
    if (section == kParamBytes) return tr("Bytes of those parameters and buffers, by their dtype");
    if (section == kAllocated)
      return tr(
          "Bytes allocated while the module's ops ran, with its children's, per device (allocator "
          "events of profile_memory on host timestamps: an event counts for the innermost op on its "
          "thread whose interval contains it), over all iterations");
    if (section == kShare)
      return device ? tr("Share of the device time per iteration")
                    : tr("Share of the host time per iteration");
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  static const char* const names[kColumnCount] = {
      "Module",      "Type",      "Calls",          "Self P50", "Self P99",
      "Incl. P50",   "Incl. P99", "Host incl. P50", "FLOPs",    "Measured FLOPs",
      "Bytes",       "FLOP/byte", "Share of time",  "Params",   "Param bytes",
      "Allocated",   "Weights",   "Behaves as",     "Status",   "\u0394 time P50",
      "\u0394 FLOPs"};
  QString name = QString::fromUtf8(names[section]);
  if (device &&
      ((section >= kSelfP50 && section <= kInclP99 && section != kHostInclP50) || section == kDeltaTime))
    name = QStringLiteral("Device ") + (section == kDeltaTime ? name : name.left(1).toLower() + name.mid(1));
  return name;
}

}  // namespace flopscope::gui
