#include "collector/cupti/inject_env.h"

#include <fcntl.h>
#include <unistd.h>

namespace flopscope::inject {
namespace {

std::string with_suffix(const std::string& output, const std::string& suffix) {
  std::size_t slash = output.rfind('/');
  std::size_t dot = output.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == slash + 1) {
    return output + suffix;
  }
  return output.substr(0, dot) + suffix + output.substr(dot);
}

}  // namespace

std::string claim_path(const std::string& output) {
  return output + ".claim";
}

std::string output_for_process(const std::string& output, int pid, const char* rank) {
  if (rank != nullptr && *rank != '\0') return with_suffix(output, std::string(".rank") + rank);
  int fd = ::open(claim_path(output).c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ::close(fd);
    return output;
  }
  return with_suffix(output, "." + std::to_string(pid));
}

void report_fatal(const std::string& status_file, const std::string& line) {
  if (status_file.empty()) return;
  int fd = ::open(status_file.c_str(), O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  std::string text = line + "\n";
  ssize_t n = ::write(fd, text.data(), text.size());
  (void)n;
  ::close(fd);
}

}  // namespace flopscope::inject
