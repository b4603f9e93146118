// Item-data roles shared by the GUI's models and views.
#pragma once

#include <Qt>

namespace flopscope::gui {

enum Role : int {
  kSortRole = Qt::UserRole + 1,  // the raw number behind a formatted cell
  kPathRole,                     // module path (QString)
  kStatusRole,                   // Verdict as int (module views), DiffStatus as int (graph)
  kNodeRole,                     // index into DiffTree::nodes
};

}  // namespace flopscope::gui
