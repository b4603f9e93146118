// Built when this build has no run database library: every file is refused with a message saying why.
#include "gui/models/run_file.h"

namespace flopscope::gui {

StatusOr<RunData> read_run_file(const std::string& path) {
  return Unsupported(path + ": this build of flopscope has no run database reader");
}

}  // namespace flopscope::gui
