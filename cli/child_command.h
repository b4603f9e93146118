// Running a user's command under flopscope (`exec`, `trace`): quoting it for messages, and waiting for it
// while Ctrl-C reaches it directly and a SIGTERM sent to flopscope is passed on, so the command can write
// what it recorded before flopscope reads it.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace flopscope::cli {

std::string quote_command(const std::vector<std::string>& argv);

// In a forked child: replaces the process with argv[0] (looked up in PATH); when that fails, prints
// "flopscope: error: CMD: reason" and exits 127.
[[noreturn]] void exec_or_exit(std::vector<std::string> argv);

// In a forked child, first thing: the default signal dispositions again (not the parent's temp-file
// clean-up), and SIGKILL when `parent` dies, so a kill -9 of flopscope leaves no program running on.
void die_with_parent(pid_t parent);

// Waits for `child`; returns its waitpid() status. SIGINT is ignored and SIGTERM forwarded meanwhile.
int wait_for_child(pid_t child);

}  // namespace flopscope::cli
