#include "gui/models/op_group_cells.h"

#include "analyzer/format.h"

namespace flopscope::gui {

QStringList op_group_header() {
  return {QStringLiteral("Op"),         QStringLiteral("Signature"), QStringLiteral("Calls/iter"),
          QStringLiteral("FLOPs/call"), QStringLiteral("Time/call"), QStringLiteral("Device time/call")};
}

QStringList op_group_cells(const OpGroup& g, bool has_kernels) {
  const std::string flops = g.source == FlopsSource::kNone ? "unknown" : flops_text(g.flops);
  return {QString::fromStdString(g.name),
          QString::fromStdString(g.signature),
          QString::fromStdString(count_text(g.calls)),
          QString::fromStdString(flops),
          QString::fromStdString(time_text(g.time_ns)),
          has_kernels ? QString::fromStdString(time_text(g.device_time_ns)) : QStringLiteral("-")};
}

}  // namespace flopscope::gui
