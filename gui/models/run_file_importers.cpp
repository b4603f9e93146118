// Built when the trace importers are: run databases and traces (Kineto JSON[.gz], Nsight Systems SQLite,
// Nsight Compute CSV) go through load_run(), the entry point every analysing command shares.
#include "analyzer/importers/load_run.h"
#include "gui/models/run_file.h"

namespace flopscope::gui {

StatusOr<RunData> read_run_file(const std::string& path) { return load_run(path); }

}  // namespace flopscope::gui
