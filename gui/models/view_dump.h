// `flopscope-gui --dump VIEW FILES...`: a view's table as tab-separated text, from the same session and item
// models the window builds, so tests and scripts can hold the GUI's strings against the CLI's output.
// A header row, then one row per item; tree rows in pre-order, each led by its module path.
#pragma once

#include <QString>
#include <QStringList>

#include "db/model/status.h"
#include "gui/models/session.h"

namespace flopscope::gui {

// The views --dump knows: tree, diff, kernels, ops, candidates, ranks, roofline.
QStringList dump_views();

// The table of one view of a session; an error when the session lacks what the view needs (a diff of one
// run, ranks of a single run) or the view is unknown.
StatusOr<QString> dump_view(const SessionPtr& session, const QString& view);

}  // namespace flopscope::gui
