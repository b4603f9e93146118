#include "cli/run_input.h"

#include <cstdio>

#include "analyzer/importers/load_run.h"
#include "db/model/atomic_file.h"
#include "db/model/text_escape.h"

namespace flopscope::cli {

StatusOr<RunData> open_run(const std::string& path) {
  return load_run(path);
}

StatusOr<RunData> open_run(const std::string& path, const std::string& graph_capture) {
  return load_run(path, graph_capture);
}

Status emit_output(const std::string& path, const std::string& text, bool overwrite) {
  if (path.empty() || path == "-") {
    // Names in the text come from traces and models: no escape sequence reaches the terminal.
    const std::string shown = terminal_safe(text);
    std::fwrite(shown.data(), 1, shown.size(), stdout);
    std::fflush(stdout);
    return {};
  }
  return write_file_atomically(path, text, overwrite);
}

}  // namespace flopscope::cli
