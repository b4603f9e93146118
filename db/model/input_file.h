// Inputs must be regular files: opening a FIFO blocks until a writer appears, a device never ends, and a
// directory is not a file. Every reader checks with this before it opens anything.
#pragma once

#include <string>

#include "db/model/status.h"

namespace flopscope {

// OK for a regular file (symbolic links followed); otherwise one line naming the path: no such file, a
// directory, a FIFO, a socket or a device.
Status check_input_file(const std::string& path);

}  // namespace flopscope
