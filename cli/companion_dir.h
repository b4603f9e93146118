// Where flopscope's Python companion (python/flopscope) is, and the environment that loads it into a
// Python program unchanged (PYTHONPATH + its sitecustomize). Used by `trace` and `exec --modules`.
#pragma once

#include <filesystem>
#include <string>

#include "db/model/status.h"

namespace flopscope::cli {

// $FLOPSCOPE_PYTHON_DIR, else <prefix>/share/flopscope/python beside the installed binary, else the source
// tree this binary was built from. A one-line error when none holds the companion.
StatusOr<std::filesystem::path> companion_dir();

// Sets PYTHONPATH (in this process: call it in the child after fork) so Python loads the companion first.
void put_companion_on_pythonpath(const std::filesystem::path& dir);

}  // namespace flopscope::cli
