#include "cli/command.h"

#include <cstdio>

#include "db/model/text_escape.h"

namespace flopscope::cli {

std::vector<CommandInfo>& command_registry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

int report_error(const Status& status) {
  // One line, whatever a file name or a record in the message holds.
  std::fprintf(stderr, "flopscope: error: %s\n", terminal_safe(status.message(), false).c_str());
  return kExitUsage;
}

}  // namespace flopscope::cli
