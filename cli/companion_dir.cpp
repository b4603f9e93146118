#include "cli/companion_dir.h"

#include <cstdlib>
#include <vector>

namespace flopscope::cli {

namespace fs = std::filesystem;

StatusOr<fs::path> companion_dir() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("FLOPSCOPE_PYTHON_DIR"); env != nullptr && *env != '\0') {
    candidates.emplace_back(env);
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path().parent_path() / "share" / "flopscope" / "python");
#ifdef FLOPSCOPE_COMPANION_SOURCE_DIR
  candidates.emplace_back(FLOPSCOPE_COMPANION_SOURCE_DIR);
#endif
  for (const auto& c : candidates) {
    if (fs::exists(c / "flopscope" / "_inject" / "sitecustomize.py", ec)) return c;
  }
  return NotFound(
      "flopscope's Python companion (python/flopscope) was not found; set FLOPSCOPE_PYTHON_DIR to "
      "the folder that holds it");
}

void put_companion_on_pythonpath(const fs::path& dir) {
  std::string path = (dir / "flopscope" / "_inject").string() + ":" + dir.string();
  if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0')
    path += std::string(":") + old;
  ::setenv("PYTHONPATH", path.c_str(), 1);
}

}  // namespace flopscope::cli
