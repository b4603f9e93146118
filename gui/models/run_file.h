// Reads one run from a file the user opened: a run database, or a trace the importers understand.
#pragma once

#include <string>

#include "db/model/run_data.h"
#include "db/model/status.h"

namespace flopscope::gui {

// Errors are one line naming the file (missing, not a run, corrupt, written by a newer flopscope).
StatusOr<RunData> read_run_file(const std::string& path);

}  // namespace flopscope::gui
