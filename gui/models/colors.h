// The GUI's colours, shared by the tree, the graph, the heatmap and the headless renderers so that a
// vanished module is the same red everywhere.
#pragma once

#include <QColor>

#include "analyzer/diff/diff_status.h"

namespace flopscope::gui {

// The engine's module verdict in the core palette: VANISHED red, NEW green, CHANGED orange, DORMANT brown,
// MOVED grey; invalid for UNCHANGED.
QColor status_color(Verdict v);
// A graph node's or op signature's status, as the verdict of the same word.
QColor status_color(DiffStatus s);
// Sequential heat scale, t in [0, 1] (clamped): dark blue -> teal -> yellow, readable on white.
QColor heat_color(double t);

}  // namespace flopscope::gui
