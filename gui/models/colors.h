// The GUI's colours, shared by the tree, the graph, the heatmap and the headless renderers so that a
// vanished module is the same red everywhere.
#pragma once

#include <QColor>

#include "analyzer/diff/diff.h"
#include "gui/models/graph_status.h"

namespace flopscope::gui {

// Red for vanished, green for new, orange for changed; invalid for unchanged.
QColor status_color(DiffStatus s);
// The same for the diff engine's module status: dormant brown, moved grey.
QColor status_color(Verdict v);
// Sequential heat scale, t in [0, 1] (clamped): dark blue -> teal -> yellow, readable on white.
QColor heat_color(double t);

}  // namespace flopscope::gui
