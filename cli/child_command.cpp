#include "cli/child_command.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "db/model/temp_files.h"

namespace flopscope::cli {
namespace {

volatile sig_atomic_t g_child = 0;

void forward_signal(int sig) {
  if (g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
}

}  // namespace

std::string quote_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    out += a.find_first_of(" \t\"'") == std::string::npos ? a : "'" + a + "'";
  }
  return out;
}

void exec_or_exit(std::vector<std::string> argv) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  std::fprintf(stderr, "flopscope: error: %s: %s\n", argv[0].c_str(), std::strerror(errno));
  ::_exit(127);
}

void die_with_parent(pid_t parent) {
  reset_temp_signal_handlers();
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(128 + SIGKILL);  // the parent died before prctl took effect
}

int wait_for_child(pid_t child) {
  g_child = child;
  struct sigaction ignore {
  }, forward{}, old_int{}, old_term{};
  ignore.sa_handler = SIG_IGN;
  forward.sa_handler = forward_signal;
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGTERM, &forward, &old_term);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  g_child = 0;
  return status;
}

}  // namespace flopscope::cli
