#include "cli/command.h"

#include <unistd.h>

#include <cstdio>

namespace flopscope::cli {

std::vector<CommandInfo>& command_registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

int report_error(const Status& status) {
  std::fprintf(stderr, "flopscope: error: %s\n", status.message().c_str());
  return kExitUsage;
}

bool stdout_is_terminal() {
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace flopscope::cli
