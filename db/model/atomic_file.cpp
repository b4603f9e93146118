#include "db/model/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/model/input_file.h"
#include "db/model/temp_files.h"

namespace flopscope {
namespace fs = std::filesystem;

namespace {

// The mode a newly created file gets under the process umask (mkstemp makes 0600 files).
mode_t created_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// The target may be replaced only when it is absent or a regular file: never a device, FIFO or directory
// (`-o /dev/null --force` must not turn the device into a file). A symbolic link counts as present even
// when it dangles.
Status check_replaceable(const std::string& path, bool overwrite) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) return {};  // absent
  if (!overwrite) return AlreadyExists(path + ": output exists (use --force to overwrite)");
  struct stat target {};
  if (::stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
    return InvalidArgument(path + ": not a regular file; refusing to replace it");
  }
  return {};
}

Status sync_fd(int fd, const std::string& path) {
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    return IoError(path + ": cannot sync to disk: " + std::strerror(errno));
  }
  return {};
}

}  // namespace

Status publish_file(const std::string& temp_path, const std::string& path, bool overwrite) {
  ::chmod(temp_path.c_str(), created_file_mode());
  int fd = ::open(temp_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError(path + ": cannot reopen the temporary file: " + std::strerror(errno));
  Status synced = sync_fd(fd, path);  // the data is on disk before the name points at it
  ::close(fd);
  FS_RETURN_IF_ERROR(synced);
  FS_RETURN_IF_ERROR(check_replaceable(path, overwrite));
  if (std::rename(temp_path.c_str(), path.c_str()) != 0) {
    return IoError(path + ": cannot rename into place: " + std::strerror(errno));
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)sync_fd(dfd, path);  // the rename itself; best effort
    ::close(dfd);
  }
  return {};
}

Status check_output_path(const std::string& path, bool overwrite) {
  std::error_code ec;
  FS_RETURN_IF_ERROR(check_replaceable(path, overwrite));
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return NotFound(path + ": directory " + dir.string() + " does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    return IoError(path + ": directory " + dir.string() + " is not writable");
  return {};
}

StatusOr<int> open_temp_beside(const std::string& path, const std::string& tag, std::string* temp) {
  fs::path target(path);
  const std::string prefix = target.filename().string() + "." + tag + "-";
  std::string dir = target.parent_path().string();
  (void)remove_stale_temp_paths(dir.empty() ? "." : dir, prefix);  // left by a writer killed with -9
  std::string name = temp_name(path + "." + tag + "-");
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return IoError(path + ": cannot create a temporary file: " + std::strerror(errno));
  register_temp_path(name);
  *temp = std::move(name);
  return fd;
}

StatusOr<AtomicFile> AtomicFile::create(const std::string& path, bool overwrite) {
  FS_RETURN_IF_ERROR(check_output_path(path, overwrite));
  std::string temp;
  FS_ASSIGN_OR_RETURN(int fd, open_temp_beside(path, "tmp", &temp));
  std::FILE* f = ::fdopen(fd, "wb");
  if (f == nullptr) {
    ::close(fd);
    ::unlink(temp.c_str());
    unregister_temp_path(temp);
    return IoError(path + ": cannot open a temporary file: " + std::strerror(errno));
  }
  AtomicFile out(path, temp, f);
  out.overwrite_ = overwrite;
  return out;
}

AtomicFile::AtomicFile(std::string path, std::string temp_path, std::FILE* file)
    : path_(std::move(path)), temp_path_(std::move(temp_path)), file_(file) {}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      file_(other.file_),
      overwrite_(other.overwrite_) {
  other.file_ = nullptr;
  other.temp_path_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    temp_path_ = std::move(other.temp_path_);
    file_ = other.file_;
    overwrite_ = other.overwrite_;
    other.file_ = nullptr;
    other.temp_path_.clear();
  }
  return *this;
}

AtomicFile::~AtomicFile() {
  discard();
}

void AtomicFile::discard() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
  if (!temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    unregister_temp_path(temp_path_);
    temp_path_.clear();
  }
}

Status AtomicFile::write(std::string_view bytes) {
  if (file_ == nullptr) return Internal(path_ + ": write after commit");
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    return IoError(path_ + ": write failed: " + std::strerror(errno));
  }
  return {};
}

Status AtomicFile::commit() {
  if (file_ == nullptr) return Internal(path_ + ": commit twice");
  FS_RETURN_IF_ERROR(close_unpublished());
  return publish();
}

Status AtomicFile::close_unpublished() {
  if (file_ == nullptr) return Internal(path_ + ": closed twice");
  bool ok = std::fflush(file_) == 0;
  ok = (std::fclose(file_) == 0) && ok;
  file_ = nullptr;
  if (!ok) {
    Status s = IoError(path_ + ": write failed: " + std::strerror(errno));
    discard();
    return s;
  }
  return {};
}

Status AtomicFile::publish() {
  if (file_ != nullptr || temp_path_.empty()) return Internal(path_ + ": publish without close_unpublished");
  if (Status s = publish_file(temp_path_, path_, overwrite_); !s.ok()) {
    discard();
    return s;
  }
  unregister_temp_path(temp_path_);
  temp_path_.clear();
  return {};
}

Status check_distinct_paths(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  auto same = [](const std::string& x, const std::string& y) {
    std::error_code ec, ex, ey;
    if (fs::equivalent(x, y, ec) && !ec) return true;  // both exist: same inode
    const fs::path cx = fs::weakly_canonical(x, ex), cy = fs::weakly_canonical(y, ey);
    return !ex && !ey && cx == cy;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].empty() && same(outputs[i], outputs[j])) {
        return InvalidArgument(outputs[i] + ": named as the output twice");
      }
    }
    for (const std::string& in : inputs) {
      if (!in.empty() && same(outputs[i], in))
        return InvalidArgument(outputs[i] + ": output is also an input");
    }
  }
  return {};
}

Status write_file_atomically(const std::string& path, std::string_view bytes, bool overwrite) {
  FS_ASSIGN_OR_RETURN(AtomicFile f, AtomicFile::create(path, overwrite));
  FS_RETURN_IF_ERROR(f.write(bytes));
  return f.commit();
}

StatusOr<std::string> read_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return NotFound(path + ": no such file");
  FS_RETURN_IF_ERROR(check_input_file(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError(path + ": read failed");
  return ss.str();
}

}  // namespace flopscope
