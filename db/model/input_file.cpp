#include "db/model/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace flopscope {

Status check_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    if (err == ENOENT || err == ENOTDIR) return NotFound(path + ": no such file");
    return IoError(path + ": cannot read: " + std::strerror(err));
  }
  if (S_ISREG(st.st_mode)) return {};
  if (S_ISDIR(st.st_mode)) return InvalidArgument(path + ": is a directory, not a file");
  if (S_ISFIFO(st.st_mode)) return InvalidArgument(path + ": is a FIFO (named pipe), not a regular file");
  if (S_ISSOCK(st.st_mode)) return InvalidArgument(path + ": is a socket, not a regular file");
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
    return InvalidArgument(path + ": is a device, not a regular file");
  return InvalidArgument(path + ": not a regular file");
}

}  // namespace flopscope
