// Built when the run database library is: databases go to its reader.
#include "db/run_database.h"
#include "gui/models/run_file.h"

namespace flopscope::gui {

StatusOr<RunData> read_run_file(const std::string& path) { return read_run_database(path); }

}  // namespace flopscope::gui
