#include "cli/run_input.h"

#include <cstdio>

#include "db/model/atomic_file.h"
#include "db/run_database.h"

namespace flopscope::cli {

StatusOr<RunData> open_run(const std::string& path) { return read_run_database(path); }

Status emit_output(const std::string& path, const std::string& text, bool overwrite) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return {};
  }
  return write_file_atomically(path, text, overwrite);
}

}  // namespace flopscope::cli
