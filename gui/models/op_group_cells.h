// One op group row as the GUI shows it (the detail pane's op table, `flopscope-gui --dump ops`): the core's
// op groups, module + op name + argument signature (`report --format json` op_groups), in the core's words.
#pragma once

#include <QStringList>

#include "analyzer/op_groups.h"

namespace flopscope::gui {

// Op, Signature, Calls/iter, FLOPs/call, Time/call, Device time/call.
QStringList op_group_header();
// FLOPs "unknown" where no formula counted them (never 0); device time "-" in a run without kernels.
QStringList op_group_cells(const OpGroup& g, bool has_kernels);

}  // namespace flopscope::gui
