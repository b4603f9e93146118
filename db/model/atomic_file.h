// Output files that appear whole or not at all: write to a temporary file beside the target, rename on
// commit(). A destroyed AtomicFile that was not committed removes its temporary file.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

class AtomicFile {
 public:
  // Fails when the target exists and !overwrite, or when the directory is not writable.
  static StatusOr<AtomicFile> create(const std::string& path, bool overwrite);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  Status write(std::string_view bytes);
  // Flushes, closes and renames into place.
  Status commit();
  // commit() in two halves, for commands with several outputs: close all, then publish all, so that a
  // failure while writing any of them leaves every target untouched.
  Status close_unpublished();
  Status publish();
  const std::string& temp_path() const { return temp_path_; }
  const std::string& path() const { return path_; }

 private:
  AtomicFile(std::string path, std::string temp_path, std::FILE* file);
  void discard();

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool overwrite_ = false;
};

// Creates and opens (O_CLOEXEC) a temporary file beside `path`, named path.<tag>-<pid>-XXXXXX, registered
// for removal on signals (db/model/temp_files.h); stale ones of killed writers beside it are removed
// first. The caller owns the descriptor and unregisters the name once published or removed.
StatusOr<int> open_temp_beside(const std::string& path, const std::string& tag, std::string* temp);

// Checks before heavy work that an output can be written: the target does not exist (unless overwrite)
// and its directory exists and is writable. Returns a one-line error naming the path.
Status check_output_path(const std::string& path, bool overwrite);

// Makes a finished temporary file the target: mode from the umask, fsync, refuses to replace anything but a
// regular file (or anything, without overwrite), renames, syncs the directory.
Status publish_file(const std::string& temp_path, const std::string& path, bool overwrite);

// Refuses a command line that names one file as two outputs, or an output that is also an input (--force
// would destroy the input). Empty entries are ignored.
Status check_distinct_paths(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

// Writes a whole string to path atomically.
Status write_file_atomically(const std::string& path, std::string_view bytes, bool overwrite);

// Reads a whole file; a clear NotFound / IoError naming the path on failure.
StatusOr<std::string> read_file(const std::string& path);

}  // namespace flopscope
