#include "cli/run_input.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "analyzer/analysis/load_run.h"
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
    // Names in the text come from traces and models: no escape sequence reaches the terminal. Escaped about
    // a megabyte of whole lines at a time, so a report of tens of MB (deep module paths) is not copied whole.
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    const std::string_view all(text);
    for (std::size_t pos = 0; pos < all.size();) {
      std::size_t end = all.find('\n', std::min(all.size(), pos + kBlock));
      end = end == std::string_view::npos ? all.size() : end + 1;
      const std::string shown = terminal_safe(all.substr(pos, end - pos));
      std::fwrite(shown.data(), 1, shown.size(), stdout);
      pos = end;
    }
    std::fflush(stdout);
    return {};
  }
  return write_file_atomically(path, text, overwrite);
}

}  // namespace flopscope::cli
