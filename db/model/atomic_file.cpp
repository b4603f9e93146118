#include "db/model/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace flopscope {
namespace fs = std::filesystem;

Status check_output_path(const std::string& path, bool overwrite) {
  std::error_code ec;
  if (fs::exists(path, ec) && !overwrite) {
    return AlreadyExists(path + ": output exists (use --force to overwrite)");
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) return NotFound(path + ": directory " + dir.string() + " does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    return IoError(path + ": directory " + dir.string() + " is not writable");
  return {};
}

StatusOr<AtomicFile> AtomicFile::create(const std::string& path, bool overwrite) {
  FS_RETURN_IF_ERROR(check_output_path(path, overwrite));
  std::string temp = path + ".tmp-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return IoError(path + ": cannot create a temporary file: " + std::strerror(errno));
  std::FILE* f = ::fdopen(fd, "wb");
  if (f == nullptr) {
    ::close(fd);
    ::unlink(temp.c_str());
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
  bool ok = std::fflush(file_) == 0;
  ok = (std::fclose(file_) == 0) && ok;
  file_ = nullptr;
  if (!ok) {
    discard();
    return IoError(path_ + ": write failed: " + std::strerror(errno));
  }
  ::chmod(temp_path_.c_str(), 0644);
  if (!overwrite_ && fs::exists(path_)) {
    discard();
    return AlreadyExists(path_ + ": output appeared while writing (use --force to overwrite)");
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    Status s = IoError(path_ + ": cannot rename into place: " + std::strerror(errno));
    discard();
    return s;
  }
  temp_path_.clear();
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
  if (fs::is_directory(path, ec)) return InvalidArgument(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(path + ": cannot open: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError(path + ": read failed");
  return ss.str();
}

}  // namespace flopscope
